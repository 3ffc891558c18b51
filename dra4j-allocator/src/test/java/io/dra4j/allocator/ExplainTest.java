package io.dra4j.allocator;

import static io.dra4j.allocator.TestObjects.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExplainTest {

    private static ResourceSlice gpus(int n, boolean taintFirst) {
        List<Device> devices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Device d = device("gpu-" + i, Map.of("nvlinkDomain", integer(i / 2)));
            if (taintFirst && i == 0) {
                d = new DeviceBuilder(d)
                        .addNewTaint()
                        .withKey("gpu.example.com/xid")
                        .withValue("79")
                        .withEffect("NoSchedule")
                        .endTaint()
                        .build();
            }
            devices.add(d);
        }
        return slice("node-1", devices);
    }

    private static Allocator allocator(ResourceSlice slice, AllocatedState state) {
        return Allocator.builder()
                .deviceClasses(List.of(gpuClass()))
                .resourceSlices(List.of(slice))
                .allocatedState(state)
                .build();
    }

    @Test
    void untoleratedTaintIsTheDecisiveReasonAndTheToleranceSuggestionIsVerified() {
        Allocator a = allocator(
                gpus(2, true),
                AllocatedState.builder(FeatureGates.defaults())
                        .addExclusive(new DeviceId(DRIVER, "node-1", "gpu-1"), "default/other")
                        .build());
        Explanation x = a.explain(node("node-1"), List.of(claim("c", request("gpu", 1))));
        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Unschedulable.class);
        assertThat(x.decisive()).contains("taint gpu.example.com/xid=79:NoSchedule is not tolerated");
        Explanation.RequestReport r = x.claims().get(0).requests().get(0);
        // pools: 2; not in use: 1, and so through binding conditions, class and request selectors, node selection,
        // capacity, node operations, partitionable gate and counters; taints: 0 (the search's order of checks).
        assertThat(r.funnel())
                .extracting(Explanation.Stage::stage)
                .containsExactly(
                        "devices in usable pools",
                        "not in use",
                        "binding conditions supported",
                        "class selectors",
                        "request selectors",
                        "node selection",
                        "capacity available",
                        "node operations supported",
                        "partitionable devices supported",
                        "counters available",
                        "taints tolerated");
        assertThat(r.funnel())
                .extracting(Explanation.Stage::remaining)
                .containsExactly(2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0);
        assertThat(r.rejections()).anySatisfy(rej -> {
            assertThat(rej.reason()).isEqualTo(Explanation.Reason.IN_USE);
            assertThat(rej.detail()).contains("default/other");
        });
        assertThat(x.suggestions())
                .extracting(Explanation.Suggestion::description)
                .anySatisfy(s -> assertThat(s).contains("tolerate taint gpu.example.com/xid=79:NoSchedule"))
                .anySatisfy(s -> assertThat(s).contains("release gpu.example.com/node-1/gpu-1"));
    }

    @Test
    void aDeviceInUseIsReportedInUseBeforeItsSelectorsAreEvaluated() {
        // gpu-0 has no model (the selector would raise a CEL runtime error), gpu-1 has another model (the selector
        // would be false); both are in use, which the search checks first, so neither selector is evaluated.
        ResourceSlice slice =
                slice("node-1", List.of(device("gpu-0", Map.of()), device("gpu-1", Map.of("model", string("b")))));
        Allocator a = allocator(
                slice,
                AllocatedState.builder(FeatureGates.defaults())
                        .addExclusive(new DeviceId(DRIVER, "node-1", "gpu-0"), "default/other")
                        .addExclusive(new DeviceId(DRIVER, "node-1", "gpu-1"), "default/other")
                        .build());
        ResourceClaim claim = claim(
                "c",
                new DeviceRequestBuilder(request("gpu", 1))
                        .editExactly()
                        .addNewSelector()
                        .withNewCel()
                        .withExpression("device.attributes[\"" + DRIVER + "\"].model == \"a\"")
                        .endCel()
                        .endSelector()
                        .endExactly()
                        .build());
        assertThat(a.allocate(node("node-1"), List.of(claim))).isInstanceOf(AllocationOutcome.Unschedulable.class);
        Explanation x = a.explain(node("node-1"), List.of(claim));
        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Unschedulable.class);
        Explanation.RequestReport r = x.claims().get(0).requests().get(0);
        assertThat(r.funnel()).extracting(Explanation.Stage::stage).startsWith("devices in usable pools", "not in use");
        assertThat(r.funnel()).extracting(Explanation.Stage::remaining).startsWith(2, 0);
        assertThat(r.rejections())
                .hasSize(2)
                .allSatisfy(rej -> assertThat(rej.reason()).isEqualTo(Explanation.Reason.IN_USE));
        assertThat(x.decisive()).contains("0 left after not in use");
    }

    @Test
    void matchAttributeShortfallNamesTheLargestGroup() {
        ResourceClaim claim = new ResourceClaimBuilder(claim("c", request("gpu", 3)))
                .editSpec()
                .editDevices()
                .addToConstraints(new DeviceConstraintBuilder()
                        .withMatchAttribute(DRIVER + "/nvlinkDomain")
                        .build())
                .endDevices()
                .endSpec()
                .build();
        Explanation x = allocator(gpus(4, false), AllocatedState.EMPTY).explain(node("node-1"), List.of(claim));
        assertThat(x.decisive())
                .contains("matchAttribute " + DRIVER + "/nvlinkDomain: at most 2 device(s) share one value");
        assertThat(x.suggestions())
                .extracting(Explanation.Suggestion::description)
                .contains("claim default/c, request gpu: at most 2 device(s) fit, ask for 2 instead of 3")
                .anySatisfy(s -> assertThat(s).contains("drop constraint #0"));
    }

    @Test
    void aClaimWithoutSpecBesideOneThatDoesNotFitIsExplainedWithTheSameSuggestions() {
        ResourceClaim noSpec = new ResourceClaimBuilder()
                .withNewMetadata()
                .withName("empty")
                .withNamespace("default")
                .endMetadata()
                .build();
        Allocator a = allocator(gpus(4, false), AllocatedState.EMPTY);
        Explanation alone = a.explain(node("node-1"), List.of(claim("c", request("gpu", 5))));
        Explanation x = a.explain(node("node-1"), List.of(noSpec, claim("c", request("gpu", 5))));
        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Unschedulable.class);
        assertThat(x.decisive()).isEqualTo(alone.decisive());
        assertThat(alone.suggestions()).isNotEmpty();
        assertThat(x.suggestions())
                .extracting(Explanation.Suggestion::description)
                .containsAll(alone.suggestions().stream()
                        .map(Explanation.Suggestion::description)
                        .toList());
        assertThat(noSpec.getSpec()).as("input unchanged").isNull();
    }

    @Test
    void allocatedClaimsTellWhichDevicesAndWhy() {
        Explanation x = allocator(gpus(3, true), AllocatedState.EMPTY)
                .explain(node("node-1"), List.of(claim("c", request("gpu", 1))));
        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Allocated.class);
        assertThat(x.suggestions()).isEmpty();
        assertThat(x.claims().get(0).requests().get(0).chosen())
                .singleElement()
                .asString()
                .startsWith(DRIVER + "/node-1/gpu-1: candidate 2 of 3")
                .contains("1 earlier candidate(s) could not serve");
    }

    @Test
    void explainingChangesNeitherTheDecisionNorTheInputs() {
        ResourceSlice slice = gpus(2, true);
        ResourceClaim claim = claim("c", request("gpu", 2));
        String before = slice.toString() + claim;
        Allocator a = allocator(slice, AllocatedState.EMPTY);
        AllocationOutcome plain = a.allocate(node("node-1"), List.of(claim));
        Explanation x = a.explain(node("node-1"), List.of(claim));
        assertThat(x.outcome()).isEqualTo(plain);
        assertThat(slice.toString() + claim).isEqualTo(before);
    }

    /** An All-mode request for 40Gi of memory on each device, against gpu-0 and gpu-1 with the given memory. */
    private static Explanation allModeWithCapacity(String gpu0Memory, String gpu1Memory) {
        ResourceSlice slice =
                slice("node-1", List.of(withMemory("gpu-0", gpu0Memory), withMemory("gpu-1", gpu1Memory)));
        ResourceClaim claim = claim(
                "c",
                new DeviceRequestBuilder()
                        .withName("all")
                        .withNewExactly()
                        .withDeviceClassName("gpu")
                        .withAllocationMode("All")
                        .withNewCapacity()
                        .withRequests(Map.of("memory", new io.fabric8.kubernetes.api.model.Quantity("40Gi")))
                        .endCapacity()
                        .endExactly()
                        .build());
        Allocator a = allocator(slice, AllocatedState.EMPTY);
        Explanation x = a.explain(node("node-1"), List.of(claim));
        assertThat(x.outcome()).isEqualTo(a.allocate(node("node-1"), List.of(claim)));
        return x;
    }

    private static Device withMemory(String name, String memory) {
        return new DeviceBuilder(device(name, Map.of()))
                .withCapacity(Map.of(
                        "memory",
                        new io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder()
                                .withValue(new io.fabric8.kubernetes.api.model.Quantity(memory))
                                .build()))
                .build();
    }

    @Test
    void anAllModeRequestMustTakeOnlyTheDevicesWithEnoughCapacityOfTheirOwn() {
        // As upstream lists "all" devices: by the selectors and each device's own (static) capacity. gpu-1 offers 20Gi
        // of the 40Gi asked, so it is not one of the devices the request must take, and gpu-0 alone is allocated.
        Explanation x = allModeWithCapacity("80Gi", "20Gi");
        assertThat(x.outcome())
                .isInstanceOfSatisfying(
                        AllocationOutcome.Allocated.class,
                        o -> assertThat(o.results().get(0).getDevices().getResults())
                                .extracting(r -> r.getDevice())
                                .containsExactly("gpu-0"));
        Explanation.RequestReport r = x.claims().get(0).requests().get(0);
        assertThat(r.funnel())
                .extracting(Explanation.Stage::stage)
                .containsExactly(
                        "devices in usable pools",
                        "binding conditions supported",
                        "class selectors",
                        "request selectors",
                        "node selection",
                        "static capacity sufficient",
                        "not in use",
                        "node operations supported",
                        "partitionable devices supported",
                        "counters available",
                        "taints tolerated",
                        "capacity available");
        assertThat(r.funnel())
                .extracting(Explanation.Stage::remaining)
                .containsExactly(2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1);
        assertThat(r.rejections()).singleElement().satisfies(rej -> {
            assertThat(rej.reason()).isEqualTo(Explanation.Reason.CAPACITY);
            assertThat(rej.device()).isEqualTo(new DeviceId(DRIVER, "node-1", "gpu-1"));
        });
        assertThat(r.shortfall()).isNull();
    }

    @Test
    void anAllModeRequestWithoutADeviceOfEnoughCapacityFindsNoDevices() {
        Explanation x = allModeWithCapacity("20Gi", "30Gi");
        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Unschedulable.class);
        Explanation.RequestReport r = x.claims().get(0).requests().get(0);
        assertThat(r.funnel())
                .extracting(Explanation.Stage::remaining)
                .containsExactly(2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0);
        assertThat(x.decisive())
                .contains("allocationMode All needs at least one device, and none that passes the selectors has the"
                        + " requested capacity of its own");
    }
}
