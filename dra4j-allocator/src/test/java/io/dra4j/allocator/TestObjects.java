package io.dra4j.allocator;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small builders for the fabric8 objects the allocator tests need. */
final class TestObjects {
    static final String DRIVER = "gpu.example.com";

    private TestObjects() {}

    static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    static DeviceClass gpuClass() {
        return new DeviceClassBuilder()
                .withNewMetadata()
                .withName("gpu")
                .endMetadata()
                .withNewSpec()
                .addNewSelector()
                .withNewCel()
                .withExpression("device.driver == \"" + DRIVER + "\"")
                .endCel()
                .endSelector()
                .endSpec()
                .build();
    }

    static DeviceAttribute string(String v) {
        return new DeviceAttributeBuilder().withString(v).build();
    }

    static DeviceAttribute integer(long v) {
        return new DeviceAttributeBuilder().withInt(v).build();
    }

    static Device device(String name, Map<String, DeviceAttribute> attributes) {
        return new DeviceBuilder()
                .withName(name)
                .withAttributes(new LinkedHashMap<>(attributes))
                .withCapacity(Map.of(
                        "memory",
                        new io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder()
                                .withValue(new Quantity("80Gi"))
                                .build()))
                .build();
    }

    static ResourceSlice slice(String node, List<Device> devices) {
        return new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(node + "-gpus")
                .endMetadata()
                .withNewSpec()
                .withDriver(DRIVER)
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

    static DeviceRequest request(String name, long count) {
        return new DeviceRequestBuilder()
                .withName(name)
                .withNewExactly()
                .withDeviceClassName("gpu")
                .withAllocationMode("ExactCount")
                .withCount(count)
                .endExactly()
                .build();
    }

    static ResourceClaim claim(String name, DeviceRequest... requests) {
        return new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .endMetadata()
                .withNewSpec()
                .withNewDevices()
                .withRequests(requests)
                .endDevices()
                .endSpec()
                .build();
    }
}
