package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.cel.KubeQuantity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioRunnerTest {
    private static final String SCENARIO = """
            name: runner
            %s
            node:
              name: node-1
            deviceClasses:
            - apiVersion: resource.k8s.io/v1
              kind: DeviceClass
              metadata:
                name: gpu
              spec:
                selectors:
                - cel:
                    expression: device.driver == "gpu.example.com"
            resourceSlices:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceSlice
              metadata:
                name: node-1-gpus
              spec:
                driver: gpu.example.com
                pool:
                  name: node-1
                  generation: 1
                  resourceSliceCount: 1
                nodeName: node-1
                devices:
                - name: gpu-0
                - name: gpu-1
                  allowMultipleAllocations: true
                  capacity:
                    memory:
                      value: 8Gi
                - name: gpu-2
            allocatedDevices:
            - driver: gpu.example.com
              pool: node-1
              device: gpu-0
            - driver: gpu.example.com
              pool: node-1
              device: gpu-1
              shared: true
              consumedCapacity:
                memory: 2Gi
            - apiVersion: resource.k8s.io/v1
              kind: ResourceClaim
              metadata:
                name: earlier
              spec: {}
              status:
                allocation:
                  devices:
                    results:
                    - request: r
                      driver: gpu.example.com
                      pool: node-1
                      device: gpu-2
            claims:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceClaim
              metadata:
                name: claim-0
              spec:
                devices:
                  requests:
                  - name: req-0
                    exactly:
                      deviceClassName: gpu
                      allocationMode: ExactCount
                      count: 1
                      capacity:
                        requests:
                          memory: 4Gi
            """;

    @TempDir
    Path dir;

    private Scenario scenario(String features) throws Exception {
        Path file = dir.resolve("runner.yaml");
        Files.writeString(file, SCENARIO.formatted(features));
        return ScenarioReader.read(file);
    }

    @Test
    void listedGatesAreExactlyTheGatesThatAreOn() throws Exception {
        Scenario s = scenario("features: [DRAConsumableCapacity]");
        assertThat(ScenarioRunner.featureGates(s, KubernetesVersion.V1_37))
                .isEqualTo(FeatureGates.of(DraFeature.DRAConsumableCapacity));
        assertThat(ScenarioRunner.featureGates(scenario("features: []"), KubernetesVersion.V1_37))
                .isEqualTo(FeatureGates.of());
    }

    @Test
    void withoutFeaturesTheReleaseDefaultsApply() throws Exception {
        Scenario s = scenario("");
        assertThat(ScenarioRunner.featureGates(s, KubernetesVersion.V1_34))
                .isEqualTo(FeatureGates.defaults(KubernetesVersion.V1_34));
        assertThat(ScenarioRunner.featureGates(s, KubernetesVersion.V1_37))
                .isEqualTo(FeatureGates.defaults(KubernetesVersion.V1_37));
    }

    @Test
    void allocatedStateFromTheThreeShapes() throws Exception {
        Scenario s = scenario("features: [DRAConsumableCapacity]");
        AllocatedState state =
                ScenarioRunner.allocatedState(s, ScenarioRunner.featureGates(s, KubernetesVersion.V1_37));
        DeviceId gpu0 = new DeviceId("gpu.example.com", "node-1", "gpu-0");
        DeviceId gpu1 = new DeviceId("gpu.example.com", "node-1", "gpu-1");
        DeviceId gpu2 = new DeviceId("gpu.example.com", "node-1", "gpu-2");
        assertThat(state.allocatedDevices()).containsExactlyInAnyOrder(gpu0, gpu2);
        assertThat(state.aggregatedCapacity()).isEqualTo(Map.of(gpu1, Map.of("memory", KubeQuantity.parse("2Gi"))));

        AllocatedState withoutCapacityGate = ScenarioRunner.allocatedState(s, FeatureGates.of());
        assertThat(withoutCapacityGate.allocatedDevices()).containsExactlyInAnyOrder(gpu0, gpu1, gpu2);
    }

    @Test
    void sharedDeviceWithCapacityLeftIsAllocated() throws Exception {
        Scenario s = scenario("features: [DRAConsumableCapacity]");
        AllocationOutcome outcome = ScenarioRunner.run(s, KubernetesVersion.V1_37);
        assertThat(outcome)
                .isInstanceOfSatisfying(
                        AllocationOutcome.Allocated.class,
                        a -> assertThat(a.results().get(0).getDevices().getResults())
                                .singleElement()
                                .satisfies(r -> assertThat(r.getDevice()).isEqualTo("gpu-1")));
        assertThat(ScenarioRunner.run(scenario("features: []"), KubernetesVersion.V1_37))
                .as("without DRAConsumableCapacity the shared device counts as in use")
                .isInstanceOf(AllocationOutcome.Unschedulable.class);
    }
}
