package io.dra4j.sim.whatif;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class WhyPendingTest {
    private static final SimulationOptions OPTIONS = SimulationOptions.defaults();
    private final WhyPending why = new WhyPending(OPTIONS);

    @Test
    void groupsNodesByReasonClosestFirst() {
        ClusterSnapshot fleet = GpuFleet.of(30, 8, 2);
        PodExplanation x = why.pod(fleet, GpuFleet.NAMESPACE, GpuFleet.POD);

        assertThat(x.status()).isEqualTo(PodExplanation.Status.PENDING);
        assertThat(x.nodeCount()).isEqualTo(40);
        assertThat(x.groups())
                .extracting(NodeGroup::plugin, NodeGroup::count)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("DynamicResources", 8),
                        org.assertj.core.groups.Tuple.tuple("DynamicResources", 30),
                        org.assertj.core.groups.Tuple.tuple("TaintToleration", 2));
        assertThat(x.groups().stream().mapToInt(NodeGroup::count).sum()).isEqualTo(40);
        // The partial nodes are the closest: 3 of the 4 devices are free there.
        NodeGroup closest = x.groups().get(0);
        assertThat(closest.nodes())
                .allSatisfy(n -> assertThat(Integer.parseInt(n.substring(5))).isBetween(30, 37));
        assertThat(closest.explanation()).isPresent();
        assertThat(x.decisive()).startsWith(closest.example()).contains("7 more node(s) like it");
        assertThat(x.groups().get(2).reason()).isEqualTo("node(s) had untolerated taint(s)");
    }

    @Test
    void everyFixMakesThePodFitWhenAppliedAndSimulatedAgain() {
        ClusterSnapshot fleet = GpuFleet.of(30, 8, 2);
        SimulationResult first = new Simulator(OPTIONS).run(fleet);
        PodExplanation x = why.pod(fleet, GpuFleet.NAMESPACE, GpuFleet.POD);

        assertThat(x.fixes())
                .extracting(Fix::kind)
                .contains(Fix.Kind.CLAIM_CHANGE, Fix.Kind.TOLERATION, Fix.Kind.WHAT_IF_NODE);
        for (Fix fix : x.fixes()) {
            if (fix.kind() == Fix.Kind.CLUSTER_CHANGE) {
                continue;
            }
            ClusterSnapshot changed = Fixes.apply(fix, first.finalState(), GpuFleet.NAMESPACE, GpuFleet.POD);
            SimulationResult again = new Simulator(OPTIONS).run(changed);
            PodResult pod = again.pods().stream()
                    .filter(p -> p.name().equals(GpuFleet.POD))
                    .findFirst()
                    .orElseThrow();
            assertThat(pod.placement())
                    .as(fix.description() + " -> " + pod.reason())
                    .isEqualTo(PodResult.Placement.PLACED);
            if (fix.kind() != Fix.Kind.WHAT_IF_NODE) {
                assertThat(why.pod(changed, GpuFleet.NAMESPACE, GpuFleet.POD).status())
                        .isEqualTo(PodExplanation.Status.PLACED);
            }
        }
        // Unchanged without a fix: still pending.
        SimulationResult unchanged = new Simulator(OPTIONS).run(first.finalState());
        assertThat(unchanged.pods().stream()
                        .filter(p -> p.name().equals(GpuFleet.POD))
                        .findFirst()
                        .orElseThrow()
                        .placement())
                .isEqualTo(PodResult.Placement.PENDING);
    }

    @Test
    void fiveThousandNodesReadAsThreeGroups() {
        ClusterSnapshot fleet = GpuFleet.of(4812, 180, 8);
        PodExplanation x = why.pod(fleet, GpuFleet.NAMESPACE, GpuFleet.POD);

        assertThat(x.groups()).extracting(NodeGroup::count).containsExactly(180, 4812, 8);
        assertThat(x.fixes()).isNotEmpty();
    }

    @Test
    void jsonCarriesEveryNodeOnce() {
        PodExplanation x = why.pod(GpuFleet.of(30, 8, 2), GpuFleet.NAMESPACE, GpuFleet.POD);
        JsonNode json = JsonMapper.builder().build().readTree(WhyPendingReport.json(x));

        assertThat(json.get("status").asString()).isEqualTo("pending");
        assertThat(json.get("nodeCount").asInt()).isEqualTo(40);
        List<String> names = new java.util.ArrayList<>();
        json.get("groups").forEach(g -> g.get("nodes").forEach(n -> names.add(n.asString())));
        assertThat(names).hasSize(40).doesNotHaveDuplicates();
        assertThat(json.get("groups").get(0).get("explanation").get("decisive").asString())
                .isEqualTo(x.groups().get(0).reason());
        assertThat(json.get("fixes").get(0).get("change").get("type").asString())
                .isNotEmpty();
    }

    @Test
    void aClaimAloneIsExplainedByItsDevicesOnly() {
        ClusterSnapshot fleet = GpuFleet.of(3, 1, 1);
        PodExplanation held = why.claim(fleet, "batch", "held-node-0000");
        assertThat(held.status()).isEqualTo(PodExplanation.Status.BOUND);
        assertThat(held.decisive()).contains("gpu.example.com/node-0000/gpu-0");

        SimulationResult sim = new Simulator(OPTIONS).run(fleet);
        String claim = sim.finalState().resourceClaims().stream()
                .map(c -> c.getMetadata().getName())
                .filter(n -> n.startsWith("train-gpus-"))
                .findFirst()
                .orElseThrow();
        PodExplanation x = why.claim(fleet, GpuFleet.NAMESPACE, claim);
        // The tainted node's GPUs are free: a claim alone is not held back by node taints.
        assertThat(x.status()).isEqualTo(PodExplanation.Status.PLACED);
        assertThat(x.groups().get(0).plugin()).isEmpty();
        assertThat(x.groups().get(0).nodes()).containsExactly("node-0004");
    }

    @Test
    void unknownPodNamesWhatTheNamespaceHas() {
        assertThatThrownBy(() -> why.pod(GpuFleet.of(1, 0, 0), GpuFleet.NAMESPACE, "trian"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pod team/trian not found in the snapshot (in namespace team: team/train)");
    }

    @Test
    void inputsAreNotModified() {
        ClusterSnapshot fleet = GpuFleet.of(3, 1, 1);
        String before = fleet.toString();
        why.pod(fleet, GpuFleet.NAMESPACE, GpuFleet.POD);
        assertThat(fleet.toString()).isEqualTo(before);
    }
}
