package io.dra4j.allocator;

import static io.dra4j.allocator.TestObjects.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocatorTest {

    /** Eight GPUs in two NVLink domains of four: gpu-0..3 in domain 0, gpu-4..7 in domain 1. */
    private static ResourceSlice eightGpus() {
        List<Device> devices = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            devices.add(device("gpu-" + i, Map.of("nvlinkDomain", integer(i / 4), "model", string("H100"))));
        }
        return slice("node-1", devices);
    }

    private static Allocator allocator(List<ResourceSlice> slices, AllocatedState state) {
        return Allocator.builder()
                .featureGates(FeatureGates.defaults())
                .deviceClasses(List.of(gpuClass()))
                .resourceSlices(slices)
                .allocatedState(state)
                .build();
    }

    private static List<String> devices(AllocationOutcome outcome, int claim) {
        assertThat(outcome).isInstanceOf(AllocationOutcome.Allocated.class);
        return ((AllocationOutcome.Allocated) outcome)
                .results().get(claim).getDevices().getResults().stream()
                        .map(DeviceRequestAllocationResult::getDevice)
                        .toList();
    }

    @Test
    void aClaimWithoutSpecIsAllocatedWithNoDevicesAsKubernetesHoldsTheSpecByValue() {
        ResourceClaim noSpec = new ResourceClaimBuilder()
                .withNewMetadata()
                .withName("empty")
                .withNamespace("default")
                .endMetadata()
                .build();
        ResourceClaim noDevices = new ResourceClaimBuilder(noSpec)
                .editMetadata()
                .withName("no-devices")
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build();
        AllocationOutcome out = allocator(List.of(eightGpus()), AllocatedState.EMPTY)
                .allocate(node("node-1"), List.of(noSpec, noDevices, claim("c", request("gpu", 1))));
        assertThat(devices(out, 0)).isEmpty();
        assertThat(devices(out, 1)).isEmpty();
        assertThat(devices(out, 2)).containsExactly("gpu-0");
        assertThat(noSpec.getSpec()).as("input unchanged").isNull();
        assertThat(noDevices.getSpec().getDevices()).as("input unchanged").isNull();
    }

    @Test
    void firstFitTakesDevicesInSliceOrder() {
        AllocationOutcome out = allocator(List.of(eightGpus()), AllocatedState.EMPTY)
                .allocate(node("node-1"), List.of(claim("c", request("gpu", 2))));
        assertThat(devices(out, 0)).containsExactly("gpu-0", "gpu-1");
    }

    @Test
    void matchAttributeMovesToTheNextNvlinkDomainWhenTheFirstIsPartlyTaken() {
        AllocatedState state = AllocatedState.builder(FeatureGates.defaults())
                .addExclusive(new DeviceId(DRIVER, "node-1", "gpu-1"))
                .build();
        ResourceClaim claim = new ResourceClaimBuilder(claim("c", request("gpu", 4)))
                .editSpec()
                .editDevices()
                .addToConstraints(new DeviceConstraintBuilder()
                        .withMatchAttribute(DRIVER + "/nvlinkDomain")
                        .build())
                .endDevices()
                .endSpec()
                .build();
        AllocationOutcome out = allocator(List.of(eightGpus()), state).allocate(node("node-1"), List.of(claim));
        assertThat(devices(out, 0)).containsExactly("gpu-4", "gpu-5", "gpu-6", "gpu-7");
    }

    @Test
    void tooFewFreeDevicesIsUnschedulableNotAnError() {
        AllocatedState.Builder b = AllocatedState.builder(FeatureGates.defaults());
        for (int i = 0; i < 7; i++) {
            b.addExclusive(new DeviceId(DRIVER, "node-1", "gpu-" + i));
        }
        AllocationOutcome out = allocator(List.of(eightGpus()), b.build())
                .allocate(node("node-1"), List.of(claim("c", request("gpu", 2))));
        assertThat(out).isInstanceOf(AllocationOutcome.Unschedulable.class);
    }

    @Test
    void otherNodesSeeNothing() {
        AllocationOutcome out = allocator(List.of(eightGpus()), AllocatedState.EMPTY)
                .allocate(node("node-2"), List.of(claim("c", request("gpu", 1))));
        assertThat(out).isInstanceOf(AllocationOutcome.Unschedulable.class);
    }

    @Test
    void searchStepsCountUpstreamAllocateOneInvocations() {
        // Alternating models: the constraint rejects every second candidate without a search step.
        ResourceClaim claim = new ResourceClaimBuilder(claim("c", request("gpu", 3)))
                .editSpec()
                .editDevices()
                .addToConstraints(new DeviceConstraintBuilder()
                        .withMatchAttribute(DRIVER + "/model")
                        .build())
                .endDevices()
                .endSpec()
                .build();
        List<Device> devices = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            devices.add(device("gpu-" + i, Map.of("model", string(i % 2 == 0 ? "H100" : "A100"))));
        }
        devices.set(7, device("gpu-7", Map.of()));
        Allocator allocator = allocator(List.of(slice("node-1", devices)), AllocatedState.EMPTY);
        Allocator.Attempt attempt = allocator.allocateWithStats(node("node-1"), List.of(claim));
        assertThat(attempt.outcome()).isInstanceOf(AllocationOutcome.Allocated.class);
        assertThat(devices(attempt.outcome(), 0)).containsExactly("gpu-0", "gpu-2", "gpu-4");
        // one step per device slot (3), one to finish the device list, one per finished request and claim
        assertThat(attempt.searchSteps()).isEqualTo(6);
    }

    @Test
    void inputsAreNotModified() {
        ResourceSlice slice = eightGpus();
        ResourceClaim claim = claim("c", request("gpu", 2));
        String sliceBefore = slice.toString();
        String claimBefore = claim.toString();
        allocator(List.of(slice), AllocatedState.EMPTY).allocate(node("node-1"), List.of(claim));
        assertThat(slice.toString()).isEqualTo(sliceBefore);
        assertThat(claim.toString()).isEqualTo(claimBefore);
    }

    @Test
    void missingClassIsAnErrorWithUpstreamWording() {
        Allocator a = Allocator.builder().resourceSlices(List.of(eightGpus())).build();
        AllocationOutcome out = a.allocate(node("node-1"), List.of(claim("c", request("gpu", 1))));
        assertThat(out)
                .isInstanceOfSatisfying(
                        AllocationOutcome.Failed.class,
                        f -> assertThat(f.message())
                                .isEqualTo(
                                        "claim default/c, request gpu: could not retrieve device class gpu: deviceclass.resource.k8s.io \"gpu\" not found"));
    }
}
