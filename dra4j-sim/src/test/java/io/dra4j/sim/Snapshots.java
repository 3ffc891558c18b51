package io.dra4j.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import java.nio.charset.StandardCharsets;

/** Small snapshots written as manifests, for the simulator tests. */
final class Snapshots {
    /** One node with {@code %d} GPUs of driver gpu.example.com (attribute island: 0 for the first half, 1 else). */
    static final String GPU_NODE = """
            apiVersion: v1
            kind: Node
            metadata:
              name: %1$s
              labels: {kubernetes.io/hostname: %1$s}
            status:
              allocatable: {cpu: "16", memory: 64Gi, pods: "110"%3$s}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: %1$s-gpus}
            spec:
              driver: gpu.example.com
              nodeName: %1$s
              pool: {name: %1$s, generation: 1, resourceSliceCount: 1}
              devices:
            %2$s
            """;

    static final String GPU_CLASS = """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: gpu}
            spec:
              extendedResourceName: example.com/gpu
              selectors:
              - cel: {expression: 'device.driver == "gpu.example.com"'}
            """;

    private Snapshots() {}

    static String node(String name, int gpus) {
        return node(name, gpus, "");
    }

    /** {@code extraAllocatable} is appended to the node's allocatable, e.g. {@code , example.com/gpu: "2"}. */
    static String node(String name, int gpus, String extraAllocatable) {
        StringBuilder devices = new StringBuilder();
        for (int i = 0; i < gpus; i++) {
            devices.append("  - name: gpu-")
                    .append(i)
                    .append("\n")
                    .append("    attributes: {island: {int: ")
                    .append(i < (gpus + 1) / 2 ? 0 : 1)
                    .append("}}\n");
        }
        if (gpus == 0) {
            devices.append("    []\n");
        }
        return GPU_NODE.formatted(name, devices.toString().stripTrailing(), extraAllocatable);
    }

    static ClusterSnapshot parse(String... documents) {
        Manifests m =
                ManifestReader.parse(String.join("---\n", documents).getBytes(StandardCharsets.UTF_8), "test.yaml");
        assertThat(m.problems()).isEmpty();
        return ClusterSnapshot.of(m);
    }

    static SimulationResult simulate(String... documents) {
        return new Simulator(SimulationOptions.defaults()).run(parse(documents));
    }

    static PodResult pod(SimulationResult r, String name) {
        return r.pods().stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no pod " + name + " in " + r.pods()));
    }
}
