package io.dra4j.sim;

import static io.dra4j.sim.Snapshots.GPU_CLASS;
import static io.dra4j.sim.Snapshots.node;
import static io.dra4j.sim.Snapshots.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchedulingTraceTest {
    private static final String TEMPLATE = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: two, namespace: ns}
            spec:
              spec:
                devices:
                  requests:
                  - name: gpus
                    exactly: {deviceClassName: gpu, count: 2}
            """;
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: %s, namespace: ns}
            spec:
              containers:
              - name: main
                resources:
                  requests: {cpu: "1"}
              resourceClaims:
              - name: gpus
                resourceClaimTemplateName: two
            """;
    private static final String TAINTED = """
            apiVersion: v1
            kind: Node
            metadata: {name: tainted}
            spec:
              taints: [{key: dedicated, value: x, effect: NoSchedule}]
            status:
              allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
            """;

    private static List<TraceAttempt> trace(ClusterSnapshot snapshot) {
        List<TraceAttempt> out = new ArrayList<>();
        new Simulator(SimulationOptions.defaults()).run(snapshot, (SchedulingTrace) out::add);
        return out;
    }

    @Test
    void everyAttemptRecordsEachNodesVerdictTheScoresTheBestNodesAndTheAllocation() {
        ClusterSnapshot s = parse(
                GPU_CLASS,
                TEMPLATE,
                node("big", 4),
                node("small", 2),
                node("none", 0),
                TAINTED,
                POD.formatted("p1"),
                POD.formatted("p2"),
                POD.formatted("p3"));

        List<TraceAttempt> attempts = trace(s);

        assertThat(attempts).extracting(TraceAttempt::name).startsWith("p1", "p2", "p3");
        TraceAttempt first = attempts.get(0);
        assertThat(first.preFilter()).isEmpty();
        assertThat(first.feasible()).containsExactlyInAnyOrder("big", "small");
        assertThat(first.rejected().get("tainted"))
                .isEqualTo(new TraceAttempt.Verdict(
                        "TaintToleration",
                        "UnschedulableAndUnresolvable",
                        List.of("node(s) had untolerated taint(s)")));
        assertThat(first.rejected().get("none").plugin()).isEqualTo("DynamicResources");
        assertThat(first.scores().keySet()).containsExactlyInAnyOrder("big", "small");
        first.scores()
                .values()
                .forEach(score -> assertThat(score.total())
                        .isEqualTo(score.plugins().values().stream()
                                .mapToLong(Long::longValue)
                                .sum()));
        assertThat(first.best())
                .isNotEmpty()
                .isSubsetOf(first.feasible())
                .contains(first.node().orElseThrow());
        assertThat(first.claims().get("gpus").getDevices().getResults()).hasSize(2);
        assertThat(first.error()).isEmpty();

        // Four GPUs on big and two on small serve three pods; the run's placements are the trace's.
        SimulationResult plain = new Simulator(SimulationOptions.defaults()).run(s);
        for (TraceAttempt a : attempts) {
            PodResult p = plain.pods().stream()
                    .filter(r -> r.name().equals(a.name()))
                    .findFirst()
                    .orElseThrow();
            assertThat(a.node()).isEqualTo(p.node());
        }
        assertThat(attempts.stream().filter(a -> a.node().isPresent())).hasSize(3);
    }

    @Test
    void aPodWhoseClaimFitsNowhereHasEveryNodeRejectedAndNoScores() {
        ClusterSnapshot s = parse(GPU_CLASS, TEMPLATE, node("small", 1), POD.formatted("p"));

        TraceAttempt a = trace(s).get(0);

        assertThat(a.feasible()).isEmpty();
        assertThat(a.rejected()).containsOnlyKeys("small");
        assertThat(a.rejected().get("small").code()).isEqualTo("UnschedulableAndUnresolvable");
        assertThat(a.scores()).isEmpty();
        assertThat(a.best()).isEmpty();
        assertThat(a.node()).isEmpty();
        assertThat(a.claims()).isEmpty();
    }

    @Test
    void aPreemptionRecordsTheNominatedNodeAndItsVictimsAndTheRetryTakesTheNominatedNodeAlone() {
        ClusterSnapshot s = parse("""
                apiVersion: v1
                kind: Node
                metadata: {name: n1}
                status:
                  allocatable: {cpu: "4", memory: 64Gi, pods: "110"}
                """, """
                apiVersion: v1
                kind: Node
                metadata: {name: n2}
                status:
                  allocatable: {cpu: "1", memory: 64Gi, pods: "110"}
                """, """
                apiVersion: v1
                kind: Pod
                metadata: {name: low, namespace: ns, uid: uid-low}
                spec:
                  nodeName: n1
                  priority: 0
                  containers:
                  - name: main
                    resources:
                      requests: {cpu: "3"}
                status: {phase: Running}
                """, """
                apiVersion: v1
                kind: Pod
                metadata: {name: high, namespace: ns, uid: uid-high}
                spec:
                  priority: 100
                  containers:
                  - name: main
                    resources:
                      requests: {cpu: "2"}
                """);

        List<TraceAttempt> attempts = trace(s);

        assertThat(attempts).hasSize(2);
        TraceAttempt preempting = attempts.get(0);
        assertThat(preempting.node()).isEmpty();
        assertThat(preempting.nominate()).contains("n1");
        assertThat(preempting.victims()).containsExactly("ns/low");
        TraceAttempt retry = attempts.get(1);
        assertThat(retry.name()).isEqualTo("high");
        assertThat(retry.feasible()).containsExactly("n1");
        assertThat(retry.rejected()).isEmpty();
        assertThat(retry.best()).containsExactly("n1");
        assertThat(retry.node()).contains("n1");
        assertThat(retry.nominate()).isEmpty();
        assertThat(retry.victims()).isEmpty();
    }
}
