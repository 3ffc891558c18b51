package io.dra4j.allocator.properties;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.Explanation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Properties of the public allocator API on random small clusters and claims. */
class AllocatorProperties {

    private static final Gen<Spec.Scenario> SCENARIOS = ScenarioGens.scenarios(ScenarioGens.Features.FULL);

    /**
     * Every allocation respects the rules: devices usable on the node, selectors, taints, exclusivity, counters,
     * capacity, constraints, and the requested numbers of devices.
     */
    @Test
    void allocationsRespectEveryRule() {
        Theory.check(1000, SCENARIOS, (scenario, stats) -> {
            Inputs in = Inputs.of(scenario);
            AllocationOutcome outcome = in.allocator().allocate(in.node(), in.claims());
            stats.collect("outcome", kind(outcome));
            if (outcome instanceof AllocationOutcome.Failed f) {
                stats.collect("failure", f.message().replaceAll("claim [^,]*, request [^:]*: ", ""));
            }
            if (outcome instanceof AllocationOutcome.Allocated a) {
                stats.collect("allocated with", features(a));
                assertThat(AllocationChecks.violations(in, a.results())).isEmpty();
            }
        });
    }

    /** The same inputs give the same outcome, with share IDs from the same supplier. */
    @Test
    void sameInputsGiveTheSameOutcome() {
        Theory.check(300, SCENARIOS, (scenario, stats) -> {
            Inputs first = Inputs.of(scenario);
            Inputs second = Inputs.of(scenario);
            AllocationOutcome a = first.allocator().allocate(first.node(), first.claims());
            AllocationOutcome b = second.allocator().allocate(second.node(), second.claims());
            assertThat(b).isEqualTo(a);
            assertThat(b.toString()).isEqualTo(a.toString());
        });
    }

    /**
     * An allocator keeps caches across calls (selector results, available counters, symmetry classes); reusing one
     * for the other node and then again for this node decides as a fresh allocator does.
     */
    @Test
    void reusingAnAllocatorDoesNotChangeTheDecision() {
        Theory.check(300, SCENARIOS, (scenario, stats) -> {
            Inputs in = Inputs.of(scenario);
            AllocationOutcome fresh = in.allocator().allocate(in.node(), in.claims());
            Allocator reused = in.allocator();
            Node other = new NodeBuilder()
                    .withNewMetadata()
                    .withName(Menus.OTHER_NODE)
                    .endMetadata()
                    .build();
            reused.allocate(other, in.claims());
            reused.allocate(in.node(), in.claims());
            AllocationOutcome again = reused.allocate(in.node(), in.claims());
            assertThat(kind(again)).isEqualTo(kind(fresh));
            if (fresh instanceof AllocationOutcome.Allocated a) {
                assertThat(devices(((AllocationOutcome.Allocated) again).results()))
                        .isEqualTo(devices(a.results()));
            }
        });
    }

    /** Neither allocate nor explain modifies the slices, classes, claims or allocated state. */
    @Test
    void inputsAreNotModified() {
        Theory.check(100, SCENARIOS, (scenario, stats) -> {
            Inputs in = Inputs.of(scenario);
            String before = snapshot(in);
            Allocator allocator = in.allocator();
            allocator.allocate(in.node(), in.claims());
            assertThat(snapshot(in)).as("after allocate").isEqualTo(before);
            allocator.explain(in.node(), in.claims());
            assertThat(snapshot(in)).as("after explain").isEqualTo(before);
        });
    }

    /** Explaining reports the same decision as allocating, with the same devices. */
    @Test
    void explainReportsTheSameDecision() {
        Theory.check(100, SCENARIOS, (scenario, stats) -> {
            Inputs in = Inputs.of(scenario);
            AllocationOutcome allocated = in.allocator().allocate(in.node(), in.claims());
            Explanation explanation = in.allocator().explain(in.node(), in.claims());
            assertThat(kind(explanation.outcome())).isEqualTo(kind(allocated));
            if (allocated instanceof AllocationOutcome.Allocated a) {
                assertThat(devices(((AllocationOutcome.Allocated) explanation.outcome()).results()))
                        .isEqualTo(devices(a.results()));
            }
            if (allocated instanceof AllocationOutcome.Failed f) {
                assertThat(((AllocationOutcome.Failed) explanation.outcome()).message())
                        .isEqualTo(f.message());
            }
        });
    }

    /** Which interesting kinds of results an allocation has, for the statistics. */
    private static Set<String> features(AllocationOutcome.Allocated a) {
        Set<String> out = new TreeSet<>();
        for (AllocationResult r : a.results()) {
            for (var d : r.getDevices().getResults()) {
                if (d.getShareID() != null) {
                    out.add("share");
                }
                if (Boolean.TRUE.equals(d.getAdminAccess())) {
                    out.add("admin");
                }
                if (d.getRequest().contains("/")) {
                    out.add("subrequest");
                }
                if (!d.getTolerations().isEmpty()) {
                    out.add("tolerations");
                }
            }
        }
        return out;
    }

    private static String snapshot(Inputs in) {
        return in.slices() + "\n" + in.classes() + "\n" + in.claims() + "\n" + in.state() + "\n" + in.node() + "\n"
                + in.taintRules();
    }

    private static String kind(AllocationOutcome o) {
        return o.getClass().getSimpleName();
    }

    /** Per claim, the (request, driver/pool/device) of every result in order. */
    private static List<List<String>> devices(List<AllocationResult> results) {
        return results.stream()
                .map(r -> r.getDevices().getResults().stream()
                        .map(d -> d.getRequest() + " " + d.getDriver() + "/" + d.getPool() + "/" + d.getDevice()
                                + (Boolean.TRUE.equals(d.getAdminAccess()) ? " admin" : ""))
                        .toList())
                .toList();
    }
}
