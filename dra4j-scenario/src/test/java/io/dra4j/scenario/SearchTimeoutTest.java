package io.dra4j.scenario;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.KubernetesVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The search is bounded as kube-scheduler's filterTimeout bounds it, and says so in upstream's words. */
class SearchTimeoutTest {
    @TempDir
    Path dir;

    /**
     * {@code devices} devices with {@code values} values of attribute v (each device also has its own id, so none is
     * identical to another), {@code requests} one-device requests that must all get distinct values of v: when
     * requests exceed values, no answer exists and the search must try many combinations to prove it.
     */
    private Scenario distinctShape(int devices, int values, int requests) throws Exception {
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
            y.append("    - name: gpu-").append(i).append("\n      attributes:\n        v: {int: ").append(i % values)
                    .append("}\n        id: {int: ").append(i).append("}\n");
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
        y.append("      constraints:\n      - distinctAttribute: gpu.example.com/v\n");
        Path file = dir.resolve("shape.yaml");
        Files.writeString(file, y.toString());
        return ScenarioReader.read(file);
    }

    @Test
    void searchPastItsTimeoutIsAnErrorInKubeSchedulersWords() throws Exception {
        Scenario s = distinctShape(12, 4, 5);
        AllocationOutcome unbounded = ScenarioRunner.run(s, KubernetesVersion.V1_37);
        assertThat(unbounded).isInstanceOf(AllocationOutcome.Unschedulable.class);

        AllocationOutcome bounded = ScenarioRunner.run(s, KubernetesVersion.V1_37, Duration.ofNanos(1));
        assertThat(bounded).isInstanceOfSatisfying(AllocationOutcome.Failed.class, f -> assertThat(f.message())
                .matches("node node-1: timed out trying to allocate devices \\(timed out after 0s and \\d+ search steps\\)"));
    }

    @Test
    void explainIsBoundedToo() throws Exception {
        Scenario s = distinctShape(12, 4, 5);
        Explanation e = ScenarioRunner.explain(s, KubernetesVersion.V1_37, Duration.ofNanos(1));
        assertThat(e.outcome()).isInstanceOf(AllocationOutcome.Failed.class);
        assertThat(e.decisive()).contains("timed out trying to allocate devices");
    }

    @Test
    void aGenerousTimeoutChangesNothing() throws Exception {
        Scenario s = distinctShape(12, 4, 4);
        assertThat(ScenarioRunner.run(s, KubernetesVersion.V1_37, Duration.ofSeconds(10)))
                .isEqualTo(ScenarioRunner.run(s, KubernetesVersion.V1_37));
        assertThat(ScenarioRunner.run(s, KubernetesVersion.V1_37)).isInstanceOf(AllocationOutcome.Allocated.class);
    }
}
