package io.dra4j.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A snapshot in the shape kubectl get -A -o yaml prints (managedFields, status, server-set metadata, kinds the
 * simulator ignores): the running trainer keeps its node and claim, the pending replica gets its claim from the
 * template and stays pending because the node's two GPUs are taken.
 */
class KubectlSnapshotTest {
    private static final Path SNAPSHOT = Path.of("src/test/resources/snapshots/kubectl-get-list.yaml");

    @Test
    void simulatesWhatKubectlPrints() throws IOException {
        byte[] before = Files.readAllBytes(SNAPSHOT);
        Manifests m = ManifestReader.read(SNAPSHOT);
        assertThat(m.problems()).isEmpty();
        assertThat(m.skipped()).extracting(s -> s.kind()).containsExactly("ConfigMap");
        // The Service is read: its selector is part of PodTopologySpread's default spreading.
        assertThat(m.services()).extracting(s -> s.getMetadata().getName()).containsExactly("kubernetes");

        SimulationResult r = new Simulator(SimulationOptions.defaults()).run(ClusterSnapshot.of(m));

        assertThat(r.boundBefore()).isEqualTo(1);
        PodResult pending = Snapshots.pod(r, "trainer-7d9f8b6c5-q9w2z");
        assertThat(pending.placement()).isEqualTo(PodResult.Placement.PENDING);
        assertThat(pending.reason())
                .isEqualTo("0/1 nodes are available: 1 cannot allocate all claims."
                        + " preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
        assertThat(pending.draReason())
                .startsWith("gpu-node-1: claim team-a/trainer-7d9f8b6c5-q9w2z-gpus-")
                .contains("allocated to claim team-a/trainer-7d9f8b6c5-x2kqp-gpus-4xq8n");
        assertThat(pending.workload()).isEqualTo("ReplicaSet team-a/trainer-7d9f8b6c5");
        assertThat(r.finalState().resourceClaims()).hasSize(2);
        assertThat(DeviceUsage.of(r.finalState()).quotaPerNamespace().get("team-a"))
                .containsEntry("gpu.nvidia.com.deviceclass.resource.k8s.io/devices", 4L);
        assertThat(DeviceUsage.of(r.finalState()).perPool().get("gpu.nvidia.com/gpu-node-1"))
                .isEqualTo(new DeviceUsage.Pool(2, 2));
        assertThat(Files.readAllBytes(SNAPSHOT)).isEqualTo(before);
    }
}
