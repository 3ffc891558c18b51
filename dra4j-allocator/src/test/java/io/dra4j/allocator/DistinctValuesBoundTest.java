package io.dra4j.allocator;

import static io.dra4j.allocator.TestObjects.DRIVER;
import static io.dra4j.allocator.TestObjects.device;
import static io.dra4j.allocator.TestObjects.gpuClass;
import static io.dra4j.allocator.TestObjects.integer;
import static io.dra4j.allocator.TestObjects.node;
import static io.dra4j.allocator.TestObjects.request;
import static io.dra4j.allocator.TestObjects.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One-device requests under a distinctAttribute constraint (issue 9's shape: 63 devices, 10 requests): without a
 * bound the search tries every assignment before it gives up, exponentially many; the distinct-values bound proves
 * at the first request that the devices offer fewer values than the requests need. Where enough values exist, the
 * first-fit answer is the one upstream's order gives: request i takes the first device with a value not yet taken.
 */
class DistinctValuesBoundTest {

    /** 63 devices whose numa attribute takes the values 0..7 in turn. */
    private static Allocator allocator() {
        List<Device> devices = new ArrayList<>();
        for (int i = 0; i < 63; i++) {
            devices.add(device("gpu-" + i, Map.of("numa", integer(i % 8))));
        }
        return Allocator.builder()
                .featureGates(FeatureGates.defaults(KubernetesVersion.V1_37))
                .deviceClasses(List.of(gpuClass()))
                .resourceSlices(List.of(slice("node-1", devices)))
                .build();
    }

    private static ResourceClaim claim(int requests) {
        DeviceRequest[] rs = new DeviceRequest[requests];
        for (int i = 0; i < requests; i++) {
            rs[i] = request("r" + i, 1);
        }
        return new ResourceClaimBuilder(TestObjects.claim("spread", rs))
                .editSpec()
                .editDevices()
                .addNewConstraint()
                .withDistinctAttribute(DRIVER + "/numa")
                .endConstraint()
                .endDevices()
                .endSpec()
                .build();
    }

    @Test
    void moreRequestsThanValuesFailAtTheFirstStep() {
        Allocator.Attempt a = allocator().allocateWithStats(node("node-1"), List.of(claim(10)));
        assertThat(a.outcome()).isInstanceOf(AllocationOutcome.Unschedulable.class);
        assertThat(a.searchSteps()).isEqualTo(1);
    }

    @Test
    void asManyRequestsAsValuesTakeTheFirstDeviceOfEachValue() {
        Allocator.Attempt a = allocator().allocateWithStats(node("node-1"), List.of(claim(8)));
        assertThat(a.outcome()).isInstanceOf(AllocationOutcome.Allocated.class);
        List<String> devices = ((AllocationOutcome.Allocated) a.outcome())
                .results().get(0).getDevices().getResults().stream()
                        .map(DeviceRequestAllocationResult::getDevice)
                        .toList();
        assertThat(devices).containsExactly("gpu-0", "gpu-1", "gpu-2", "gpu-3", "gpu-4", "gpu-5", "gpu-6", "gpu-7");
    }
}
