package io.dra4j.kubelet.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DoubleAdvertisingTest {
    private static ResourceSlice slice(
            String driver, String node, io.fabric8.kubernetes.api.model.resource.v1.Device... devices) {
        return new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(driver + "-" + node)
                .endMetadata()
                .withNewSpec()
                .withDriver(driver)
                .withNodeName(node)
                .withNewPool()
                .withName(node)
                .withGeneration(1L)
                .withResourceSliceCount(1L)
                .endPool()
                .withDevices(devices)
                .endSpec()
                .build();
    }

    private static io.fabric8.kubernetes.api.model.resource.v1.Device gpu(String name, String uuid) {
        return new DeviceBuilder()
                .withName(name)
                .withAttributes(Map.of(
                        "uuid", new DeviceAttributeBuilder().withString(uuid).build()))
                .build();
    }

    @Test
    void aGpuAdvertisedByUuidByBothIsFoundAlsoAsATimeSlicedReplica() {
        List<ResourceSlice> slices = List.of(
                slice("gpu.nvidia.com", "node-a", gpu("gpu-0", "GPU-aaaa"), gpu("gpu-1", "GPU-bbbb")),
                slice("gpu.nvidia.com", "node-b", gpu("gpu-0", "GPU-cccc")));
        List<DoubleAdvertising.Overlap> found = DoubleAdvertising.find(
                Map.of("nvidia.com/gpu", List.of("GPU-bbbb::0", "GPU-bbbb::1", "GPU-cccc", "GPU-dddd")),
                slices,
                "node-a");
        assertThat(found)
                .extracting(Object::toString)
                .containsExactly(
                        "nvidia.com/gpu device GPU-bbbb::0 is gpu.nvidia.com node-a/gpu-1 (same uuid)",
                        "nvidia.com/gpu device GPU-bbbb::1 is gpu.nvidia.com node-a/gpu-1 (same uuid)");
    }

    @Test
    void namesMatchOnlyWithinOneVendor() {
        List<ResourceSlice> slices = List.of(slice(
                "gpu.fake.dra4j.io",
                "node-a",
                new DeviceBuilder().withName("gpu-0").build()));
        assertThat(DoubleAdvertising.find(Map.of("fake.dra4j.io/gpu", List.of("gpu-0")), slices, "node-a"))
                .extracting(Object::toString)
                .containsExactly("fake.dra4j.io/gpu device gpu-0 is gpu.fake.dra4j.io "
                        + "node-a/gpu-0 (same name, and fake.dra4j.io is the domain of gpu.fake.dra4j.io)");
        assertThat(DoubleAdvertising.find(Map.of("other.example.com/gpu", List.of("gpu-0")), slices, "node-a"))
                .isEmpty();
    }

    @Test
    void aPciBusIdIdentifiesTheDeviceAcrossVendors() {
        List<ResourceSlice> slices = List.of(slice(
                "nic.example.com",
                "node-a",
                new DeviceBuilder()
                        .withName("nic-0")
                        .withAttributes(Map.of(
                                "resource.kubernetes.io/pciBusID",
                                new DeviceAttributeBuilder()
                                        .withString("0000:3b:00.0")
                                        .build()))
                        .build()));
        assertThat(DoubleAdvertising.find(Map.of("sriov.example.org/vf", List.of("0000:3b:00.0")), slices, "node-a"))
                .singleElement()
                .asString()
                .endsWith("(same resource.kubernetes.io/pciBusID)");
    }
}
