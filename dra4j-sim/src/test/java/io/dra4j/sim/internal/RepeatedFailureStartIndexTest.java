package io.dra4j.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SchedulingTrace;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.TraceAttempt;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The repeated-failure shortcut after the rotating start index moved. With 120 nodes kube-scheduler stops filtering
 * once it has found 60 feasible nodes (percentageOfNodesToScore's adaptive 50%), so every placed pod moves the start
 * index by 60, while a pod that fits nowhere is filtered on every node and leaves it where it was. The pods that need
 * two GPUs on nodes with one each fail between placements, each from another start index than the one before, and
 * the node their DRA reason names is the first one filtered: the shortcut must give the answers of filtering every
 * node (the traced run, which never takes it).
 */
class RepeatedFailureStartIndexTest {
    private static final int NODES = 120;
    private static final int ROUNDS = 6;

    private static String snapshot() {
        List<String> docs = new ArrayList<>();
        docs.add("""
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata: {name: gpu}
                spec:
                  selectors:
                  - cel: {expression: 'device.driver == "gpu.example.com"'}
                """);
        docs.add("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: two-gpus, namespace: ns}
                spec:
                  spec:
                    devices:
                      requests:
                      - name: gpus
                        exactly: {deviceClassName: gpu, count: 2}
                """);
        for (int i = 0; i < NODES; i++) {
            docs.add("""
                    apiVersion: v1
                    kind: Node
                    metadata:
                      name: node-%1$03d
                      labels: {kubernetes.io/hostname: node-%1$03d}
                    status:
                      allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
                    ---
                    apiVersion: resource.k8s.io/v1
                    kind: ResourceSlice
                    metadata: {name: node-%1$03d-gpus}
                    spec:
                      driver: gpu.example.com
                      nodeName: node-%1$03d
                      pool: {name: node-%1$03d, generation: 1, resourceSliceCount: 1}
                      devices:
                      - name: gpu-0
                    """.formatted(i));
        }
        for (int r = 0; r < ROUNDS; r++) {
            docs.add("""
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: two-gpus-%1$d, namespace: ns, uid: uid-two-gpus-%1$d, creationTimestamp: "2026-01-01T00:%2$02d:00Z"}
                    spec:
                      resourceClaims: [{name: gpus, resourceClaimTemplateName: two-gpus}]
                      containers:
                      - name: main
                        resources:
                          claims: [{name: gpus}]
                    """.formatted(r, 2 * r));
            docs.add("""
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: small-%1$d, namespace: ns, uid: uid-small-%1$d, creationTimestamp: "2026-01-01T00:%2$02d:00Z"}
                    spec:
                      containers:
                      - name: main
                        resources:
                          requests: {cpu: 100m}
                    """.formatted(r, 2 * r + 1));
        }
        return String.join("---\n", docs);
    }

    @Test
    void aFailureSeenFromAnotherStartIndexDecidesAsFilteringEveryNode() {
        Manifests m = ManifestReader.parse(snapshot().getBytes(StandardCharsets.UTF_8), "start-index.yaml");
        assertThat(m.problems()).isEmpty();

        Simulation untraced = new Simulation(SimulationOptions.defaults(), ClusterSnapshot.of(m));
        SimulationResult fast = untraced.run();
        List<TraceAttempt> attempts = new ArrayList<>();
        SimulationResult full = new Simulation(
                        SimulationOptions.defaults(), ClusterSnapshot.of(m), (SchedulingTrace) attempts::add)
                .run();

        assertThat(untraced.repeatedFailures()).isGreaterThanOrEqualTo(ROUNDS - 1);
        assertThat(fast.pods()).isEqualTo(full.pods());
        assertThat(fast.events()).isEqualTo(full.events());
        List<String> reasons = fast.pods().stream()
                .filter(p -> p.placement() == PodResult.Placement.PENDING)
                .map(PodResult::draReason)
                .distinct()
                .toList();
        assertThat(reasons)
                .as("the first node filtered differs between the failures")
                .hasSizeGreaterThan(1);
    }
}
