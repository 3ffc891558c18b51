package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.migrate.DevicePluginMigration;
import io.dra4j.migrate.Finding;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The migration round trip: workloads that ask the device plugin for {@code nvidia.com/gpu} (with GPU feature
 * discovery node selectors) are scheduled on a fleet whose nodes advertise GPUs as extended resources; the same
 * workloads after {@code migrate --claims} are scheduled on the same fleet with NVIDIA's DRA driver publishing the
 * GPUs instead. Both runs must place the same pods on the same nodes and leave the same pods pending.
 */
class MigrateRoundTripTest {
    private static final String[][] NODES = {
        {"h100-a", "8", "NVIDIA H100 80GB HBM3", "80Gi"},
        {"h100-b", "8", "NVIDIA H100 80GB HBM3", "80Gi"},
        {"l4-a", "4", "NVIDIA L4", "24Gi"}
    };

    private static final String WORKLOADS = """
            # Training wants three H100s per pod, by node label; five replicas fit four.
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: train
              namespace: ml
            spec:
              replicas: 5
              selector:
                matchLabels: {app: train}
              template:
                metadata:
                  labels: {app: train}
                spec:
                  nodeSelector:
                    nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3
                  containers:
                  - name: train
                    image: trainer:1
                    resources:
                      requests: {cpu: "8", memory: 32Gi}
                      limits:
                        nvidia.com/gpu: 3
            ---
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: infer
              namespace: ml
            spec:
              parallelism: 5
              completions: 5
              template:
                spec:
                  restartPolicy: Never
                  nodeSelector:
                    nvidia.com/gpu.product: NVIDIA-L4
                  containers:
                  - name: infer
                    image: infer:1
                    resources:
                      requests: {cpu: "2", memory: 8Gi}
                      limits: {nvidia.com/gpu: 1}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: notebook
              namespace: ml
            spec:
              replicas: 4
              selector:
                matchLabels: {app: notebook}
              template:
                metadata:
                  labels: {app: notebook}
                spec:
                  containers:
                  - name: lab
                    image: lab:1
                    resources:
                      requests: {cpu: "1", memory: 4Gi, nvidia.com/gpu: 1}
                      limits: {nvidia.com/gpu: 1}
            """;

    /** The fleet: with {@code devicePlugin} the GPUs are node allocatable, else ResourceSlices of gpu.nvidia.com. */
    private static String fleet(boolean devicePlugin) {
        StringBuilder b = new StringBuilder("apiVersion: v1\nkind: Namespace\nmetadata: {name: ml}\n");
        if (!devicePlugin) {
            b.append("---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.nvidia.com}\n"
                    + "spec:\n  selectors:\n  - cel: {expression: \"device.driver == 'gpu.nvidia.com'\"}\n");
        }
        for (String[] n : NODES) {
            b.append("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: ")
                    .append(n[0])
                    .append("\n  labels:\n")
                    .append("    kubernetes.io/hostname: ")
                    .append(n[0])
                    .append('\n')
                    .append("    nvidia.com/gpu.product: ")
                    .append(n[2].replace(' ', '-'))
                    .append('\n')
                    .append("status:\n  allocatable: {cpu: \"64\", memory: 512Gi, pods: \"110\"")
                    .append(devicePlugin ? ", nvidia.com/gpu: \"" + n[1] + "\"" : "")
                    .append("}\n")
                    .append("  capacity: {cpu: \"64\", memory: 512Gi, pods: \"110\"")
                    .append(devicePlugin ? ", nvidia.com/gpu: \"" + n[1] + "\"" : "")
                    .append("}\n");
            if (!devicePlugin) {
                b.append("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: ")
                        .append(n[0])
                        .append("-gpus}\nspec:\n  driver: gpu.nvidia.com\n  nodeName: ")
                        .append(n[0])
                        .append("\n  pool: {name: ")
                        .append(n[0])
                        .append(", generation: 1, resourceSliceCount: 1}\n  devices:\n");
                for (int i = 0; i < Integer.parseInt(n[1]); i++) {
                    b.append("  - name: gpu-")
                            .append(i)
                            .append("\n    attributes:\n      productName: {string: \"")
                            .append(n[2])
                            .append("\"}\n    capacity:\n      memory: {value: ")
                            .append(n[3])
                            .append("}\n");
                }
            }
        }
        return b.toString();
    }

    /**
     * Per workload, where its pods went (node names and PENDING, in scheduling order). Pods are compared by workload
     * and order, not by name: a Deployment's pod names carry the hash of its pod template, which the migration changes.
     */
    private static Map<String, List<String>> placements(String text) {
        Manifests m = ManifestReader.parse(text.getBytes(StandardCharsets.UTF_8), "round-trip");
        assertThat(m.problems()).isEmpty();
        SimulationResult r = new Simulator(SimulationOptions.defaults()).run(ClusterSnapshot.of(m));
        Map<String, List<String>> out = new TreeMap<>();
        for (PodResult p : r.pods()) {
            out.computeIfAbsent(p.workload(), k -> new ArrayList<>())
                    .add(
                            p.placement() == PodResult.Placement.PLACED
                                    ? p.node().orElseThrow()
                                    : p.placement().name());
        }
        return out;
    }

    @Test
    void migratedWorkloadsOnTheDraFleetLandWhereTheOriginalsDid() {
        DevicePluginMigration.Result migrated = DevicePluginMigration.nvidia().claims("workloads.yaml", WORKLOADS);
        assertThat(migrated.findings()).noneMatch(f -> f.severity() == Finding.Severity.ERROR);
        assertThat(migrated.rewritten()).isEqualTo(3);
        assertThat(migrated.output()).doesNotContain("nvidia.com/gpu: ").contains("resourceClaimTemplateName");

        Map<String, List<String>> before = placements(fleet(true) + "---\n" + WORKLOADS);
        Map<String, List<String>> after = placements(fleet(false) + "---\n" + migrated.output());

        assertThat(after).isEqualTo(before);
        // Sized so that the GPUs run out: 2 x 8 H100s take four 3-GPU trainers (the fifth waits), the 4 L4s take
        // four inference pods, and notebooks get what is left.
        assertThat(before.get("Deployment ml/train"))
                .containsExactlyInAnyOrder("h100-a", "h100-a", "h100-b", "h100-b", "PENDING");
        assertThat(before.get("Job ml/infer")).filteredOn(n -> n.equals("l4-a")).hasSizeLessThanOrEqualTo(4);
        assertThat(before.values().stream().flatMap(List::stream)).contains("PENDING", "l4-a");
    }
}
