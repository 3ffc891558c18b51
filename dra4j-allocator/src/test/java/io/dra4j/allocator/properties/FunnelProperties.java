package io.dra4j.allocator.properties;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.internal.AllocationException;
import io.dra4j.allocator.internal.CheckStage;
import io.dra4j.allocator.internal.ClusterView;
import io.dra4j.allocator.internal.Explainer;
import io.dra4j.allocator.internal.Search;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The explanation funnel and the search apply one set of checks in one order: for the first slot of the search (the
 * first device of the first claim's first request, or of each of its subrequests), where nothing of this call is
 * allocated yet and the funnel's view of the node is exactly the search's, every candidate the search checks is
 * rejected by the check of the stage at which the funnel drops it, and the devices the search takes survive the
 * funnel. Where the search checked every candidate of that slot and took none, the funnel's first stage that leaves
 * no device is the stage at which the search rejected its last candidate.
 */
class FunnelProperties {

    private static final Gen<Spec.Scenario> SCENARIOS = ScenarioGens.scenarios(ScenarioGens.Features.FULL);

    @Test
    void theFunnelDropsEachDeviceAtTheCheckThatRejectsItInTheSearch() {
        Theory.check(1000, SCENARIOS, (scenario, stats) -> {
            Inputs in = Inputs.of(scenario);
            ClusterView view = ClusterView.build(
                    in.gates(), null, in.classes(), in.slices(), in.taintRules(), in.state(), List.of());
            Search search = new Search(view, in.node(), in.claims(), () -> "share", 0);
            Map<Integer, Map<DeviceId, Optional<CheckStage>>> firstSlot = new LinkedHashMap<>();
            search.observe(new Search.RejectionObserver() {
                @Override
                public void rejected(int claim, int request, int subrequest, int k, DeviceId device, CheckStage stage) {
                    if (claim == 0 && request == 0 && k == 0) {
                        firstSlot
                                .computeIfAbsent(subrequest, s -> new LinkedHashMap<>())
                                .put(device, Optional.of(stage));
                    }
                }

                @Override
                public void taken(int claim, int request, int subrequest, int k, DeviceId device) {
                    if (claim == 0 && request == 0 && k == 0) {
                        firstSlot
                                .computeIfAbsent(subrequest, s -> new LinkedHashMap<>())
                                .put(device, Optional.empty());
                    }
                }
            });
            try {
                search.run();
            } catch (AllocationException e) {
                stats.collect("search", "error");
            }
            AllocationOutcome outcome = in.allocator().allocate(in.node(), in.claims());
            Explainer.Analysis analysis =
                    Explainer.analyze(new Search(view, in.node(), in.claims(), () -> "share", 0), outcome);
            if (analysis.funnels().isEmpty() || firstSlot.isEmpty()) {
                stats.collect("first slot", "not checked");
                return;
            }
            for (Map.Entry<Integer, Map<DeviceId, Optional<CheckStage>>> slot : firstSlot.entrySet()) {
                Explainer.Funnel funnel = analysis.funnels().get(0).get(0).get(slot.getKey());
                CheckStage last = null;
                boolean anyTaken = false;
                for (Map.Entry<DeviceId, Optional<CheckStage>> verdict :
                        slot.getValue().entrySet()) {
                    Optional<CheckStage> dropped =
                            Optional.ofNullable(funnel.droppedAt().get(verdict.getKey()));
                    assertThat(dropped)
                            .as("device %s: the funnel's stage against the search's check", verdict.getKey())
                            .isEqualTo(verdict.getValue());
                    stats.collect(
                            "device", verdict.getValue().map(CheckStage::label).orElse("taken"));
                    if (verdict.getValue().isEmpty()) {
                        anyTaken = true;
                    } else if (last == null || order(funnel, verdict.getValue().get()) > order(funnel, last)) {
                        last = verdict.getValue().get();
                    }
                }
                List<Explanation.Stage> stages = funnel.stages();
                if (!anyTaken
                        && last != null
                        && slot.getValue().size() == stages.get(0).remaining()) {
                    String emptied = stages.stream()
                            .filter(s -> s.remaining() == 0)
                            .findFirst()
                            .map(Explanation.Stage::stage)
                            .orElse(null);
                    assertThat(emptied)
                            .as("the funnel's first empty stage against the search's last rejection")
                            .isEqualTo(last.label());
                    stats.collect("first empty stage", emptied);
                }
            }
        });
    }

    private static int order(Explainer.Funnel funnel, CheckStage stage) {
        return CheckStage.order(funnel.stages().size() > 1 && isAllMode(funnel)).indexOf(stage);
    }

    private static boolean isAllMode(Explainer.Funnel funnel) {
        return !funnel.stages().get(1).stage().equals(CheckStage.IN_USE.label());
    }
}
