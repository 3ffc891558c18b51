package io.dra4j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.DraFeature;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class WorkloadsTest {

    @Test
    void benchmarkParametersListEveryWorkload() throws Exception {
        Param p = AllocatorBenchmark.class.getField("workload").getAnnotation(Param.class);
        assertThat(List.of(p.value())).containsExactlyElementsOf(Workloads.names());
        Param filter = FilterPassBenchmark.class.getField("workload").getAnnotation(Param.class);
        assertThat(List.of(filter.value())).containsExactlyElementsOf(Workloads.names());
    }

    @Test
    void steadyStateShapesFollowSchedulerPerf() {
        Workload empty = Workloads.byName("empty_500nodes");
        assertThat(empty.slices()).hasSize(500);
        assertThat(empty.nodes()).hasSize(500);
        ResourceSlice first = empty.slices().get(0);
        assertThat(first.getMetadata().getName()).isEqualTo("scheduler-perf-dra-0");
        assertThat(first.getSpec().getPool().getName()).isEqualTo("scheduler-perf-dra-0");
        assertThat(first.getSpec().getNodeName()).isEqualTo("scheduler-perf-dra-0");
        assertThat(first.getSpec().getDevices())
                .extracting(d -> d.getName())
                .containsExactlyElementsOf(
                        IntStream.range(0, 10).mapToObj(i -> "instance-" + i).toList());
        assertThat(first.getSpec()
                        .getDevices()
                        .get(3)
                        .getAttributes()
                        .get("driverVersion")
                        .getVersion())
                .isEqualTo("1.2.3");
        assertThat(empty.allocated()).isEmpty();

        assertThat(Workloads.byName("half_500nodes").allocated()).hasSize(2500);
        Workload full = Workloads.byName("full_500nodes");
        assertThat(full.allocated()).hasSize(4990);
        String rep = full.node().getMetadata().getName();
        assertThat(full.allocated()).filteredOn(d -> d.pool().equals(rep)).hasSize(10);
    }

    @Test
    void gateSetsAddTheDefaultsOf137AndTellWhereTheUpstreamVariantDiffers() {
        Workload list = Workloads.byName("listattributes_empty_500nodes");
        Workload on137 = GateSet.K8S_1_37.apply(list);
        assertThat(on137.features())
                .contains(
                        DraFeature.DRAListTypeAttributes,
                        DraFeature.DRAPrioritizedList,
                        DraFeature.DRADeviceBindingConditions);
        assertThat(GateSet.WORKLOAD.apply(list).features()).containsExactly(DraFeature.DRAListTypeAttributes);
        assertThat(GateSet.WORKLOAD.differsFrom137(list)).isFalse();
        assertThat(GateSet.WORKLOAD.differsFrom137(Workloads.byName("consumablecapacity_half_100nodes")))
                .isFalse();
        assertThat(GateSet.WORKLOAD.differsFrom137(Workloads.byName("empty_500nodes")))
                .isTrue();
        assertThat(GateSet.WORKLOAD.differsFrom137(Workloads.byName("partitionable_backtracking")))
                .isTrue();
        assertThat(GateSet.K8S_1_37.differsFrom137(list)).isTrue();
        assertThatThrownBy(() -> GateSet.byId("1.99")).hasMessageContaining("\"1.99\"");
    }

    @Test
    void scenarioTreeListsEveryNodeForTheFilterPass() {
        ObjectNode tree = ScenarioFiles.toTree(Workloads.byName("empty_500nodes"));
        assertThat(tree.path("nodes")).hasSize(500);
        assertThat(tree.path("nodes").get(499).path("name").asString()).isEqualTo("scheduler-perf-dra-499");
    }

    @Test
    void unknownWorkloadIsNamedInTheError() {
        assertThatThrownBy(() -> Workloads.byName("nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"nope\"")
                .hasMessageContaining("empty_500nodes");
    }

    @Test
    void scenarioTreeHasTheFormatsKeysAndObjectKinds() {
        ObjectNode tree = ScenarioFiles.toTree(Workloads.byName("consumablecapacity_half_100nodes"));
        assertThat(tree.path("name").asString()).isEqualTo("consumablecapacity_half_100nodes");
        assertThat(tree.path("features").get(0).asString()).isEqualTo("DRAConsumableCapacity");
        assertThat(tree.path("node").path("name").asString()).isEqualTo("scheduler-perf-dra-50");
        for (JsonNode s : tree.path("resourceSlices")) {
            assertThat(s.path("apiVersion").asString()).isEqualTo("resource.k8s.io/v1");
            assertThat(s.path("kind").asString()).isEqualTo("ResourceSlice");
        }
        JsonNode share = tree.path("allocatedDevices").get(0);
        assertThat(share.path("shared").asBoolean()).isTrue();
        assertThat(share.path("consumedCapacity").path("bandwidth").asString()).isEqualTo("2500M");
        JsonNode request = tree.path("claims")
                .get(0)
                .path("spec")
                .path("devices")
                .path("requests")
                .get(0);
        assertThat(request.path("exactly").path("allocationMode").asString()).isEqualTo("ExactCount");
        assertThat(request.path("exactly").path("count").asInt()).isEqualTo(2);
    }

    // The expected devices below follow from the inputs alone (upstream's first-fit order over a single pool), and
    // match what the Go oracle prints for the same files.

    @Test
    void partitionableBacktrackingFindsTheOnlySolution() {
        assertThat(devices(run("partitionable_backtracking")))
                .containsExactly("device-2", "device-3", "device-4", "device-5", "device-6", "device-7", "device-8");
    }

    @Test
    void listAttributesTakeTheDevicesSharingAValue() {
        assertThat(devices(run("listattributes_empty_500nodes")))
                .containsExactlyElementsOf(
                        IntStream.range(32, 64).mapToObj(i -> "device-" + i).toList());
    }

    @Test
    void noSolutionWorkloadsAreUnschedulable() {
        for (String name : List.of(
                "full_500nodes",
                "nosolution_count_exceeds_devices",
                "nosolution_requests_exceed_devices",
                "nosolution_prioritized_list")) {
            assertThat(run(name)).as(name).isInstanceOf(AllocationOutcome.Unschedulable.class);
        }
    }

    private static AllocationOutcome run(String name) {
        Workload w = Workloads.byName(name);
        return w.allocatorBuilder(w.allocatedState()).build().allocate(w.node(), w.claims());
    }

    private static List<String> devices(AllocationOutcome outcome) {
        assertThat(outcome).isInstanceOf(AllocationOutcome.Allocated.class);
        List<String> out = new ArrayList<>();
        for (DeviceRequestAllocationResult r : ((AllocationOutcome.Allocated) outcome)
                .results()
                .get(0)
                .getDevices()
                .getResults()) {
            out.add(r.getDevice());
        }
        return out;
    }
}
