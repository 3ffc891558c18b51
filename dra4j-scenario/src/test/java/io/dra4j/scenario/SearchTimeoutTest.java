package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.KubernetesVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The search is bounded as kube-scheduler's filterTimeout bounds it, and says so in upstream's words. */
class SearchTimeoutTest {
    @TempDir
    Path dir;

    /**
     * {@code devices} devices with {@code values} values of attribute v (each device also has its own id, so none is
     * identical to another), {@code requests} one-device requests whose devices must satisfy {@code constraint} on v.
     */
    private Scenario shape(int devices, int values, int requests, String constraint) throws Exception {
        StringBuilder y = new StringBuilder("""
                name: distinct-shape
                node:
                  name: node-1
                deviceClasses:
                - apiVersion: resource.k8s.io/v1
                  kind: DeviceClass
                  metadata: {name: gpu}
                  spec: {}
                resourceSlices:
                - apiVersion: resource.k8s.io/v1
                  kind: ResourceSlice
                  metadata: {name: slice-1}
                  spec:
                    driver: gpu.example.com
                    pool: {name: pool-1, generation: 1, resourceSliceCount: 1}
                    nodeName: node-1
                    devices:
                """);
        for (int i = 0; i < devices; i++) {
            y.append("    - name: gpu-")
                    .append(i)
                    .append("\n      attributes:\n        v: {int: ")
                    .append(i % values)
                    .append("}\n        id: {int: ")
                    .append(i)
                    .append("}\n");
        }
        y.append("""
                claims:
                - apiVersion: resource.k8s.io/v1
                  kind: ResourceClaim
                  metadata: {name: claim-0}
                  spec:
                    devices:
                      requests:
                """);
        for (int r = 0; r < requests; r++) {
            y.append("      - name: r").append(r).append("\n        exactly: {deviceClassName: gpu}\n");
        }
        y.append("      constraints:\n      - ").append(constraint).append(": gpu.example.com/v\n");
        Path file = dir.resolve("shape.yaml");
        Files.writeString(file, y.toString());
        return ScenarioReader.read(file);
    }

    /**
     * Five requests that must share a value of v where each value is on four devices: no answer exists, and proving it
     * takes the search through every ordering of each value's devices (over a thousand steps; no bound cuts it).
     */
    private Scenario slowShape() throws Exception {
        return shape(80, 20, 5, "matchAttribute");
    }

    @Test
    void searchPastItsTimeoutIsAnErrorInKubeSchedulersWords() throws Exception {
        Scenario s = slowShape();
        AllocationOutcome unbounded = ScenarioRunner.run(s, KubernetesVersion.V1_37);
        assertThat(unbounded).isInstanceOf(AllocationOutcome.Unschedulable.class);

        AllocationOutcome bounded = ScenarioRunner.run(s, KubernetesVersion.V1_37, Duration.ofNanos(1));
        assertThat(bounded)
                .isInstanceOfSatisfying(
                        AllocationOutcome.Failed.class,
                        f -> assertThat(f.message())
                                .matches(
                                        "node node-1: timed out trying to allocate devices \\(timed out after 0s and \\d+ search steps\\)"));
    }

    @Test
    void explainIsBoundedToo() throws Exception {
        Scenario s = slowShape();
        Explanation e = ScenarioRunner.explain(s, KubernetesVersion.V1_37, Duration.ofNanos(1));
        assertThat(e.outcome()).isInstanceOf(AllocationOutcome.Failed.class);
        assertThat(e.decisive()).contains("timed out trying to allocate devices");
    }

    @Test
    void aGenerousTimeoutChangesNothing() throws Exception {
        Scenario s = shape(12, 4, 4, "distinctAttribute");
        assertThat(ScenarioRunner.run(s, KubernetesVersion.V1_37, Duration.ofSeconds(10)))
                .isEqualTo(ScenarioRunner.run(s, KubernetesVersion.V1_37));
        assertThat(ScenarioRunner.run(s, KubernetesVersion.V1_37)).isInstanceOf(AllocationOutcome.Allocated.class);
    }
}
