package io.dra4j.kubelet;

import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.List;

/** Allocated ResourceClaims for tests. */
public final class TestClaims {
    private TestClaims() {}

    public static DeviceRequestAllocationResult result(String request, String driver, String pool, String device) {
        return new DeviceRequestAllocationResultBuilder()
                .withRequest(request)
                .withDriver(driver)
                .withPool(pool)
                .withDevice(device)
                .build();
    }

    /** A claim allocated on {@code node} with {@code results}. */
    public static ResourceClaim allocated(
            String namespace, String name, String uid, String node, List<DeviceRequestAllocationResult> results) {
        return new ResourceClaimBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .withUid(uid)
                .endMetadata()
                .withNewSpec()
                .withNewDevices()
                .addNewRequest()
                .withName("gpu")
                .withNewExactly()
                .withDeviceClassName("gpu.example.com")
                .endExactly()
                .endRequest()
                .endDevices()
                .endSpec()
                .withNewStatus()
                .withNewAllocation()
                .withNodeSelector(new NodeSelectorBuilder()
                        .addNewNodeSelectorTerm()
                        .addNewMatchField()
                        .withKey("metadata.name")
                        .withOperator("In")
                        .withValues(node)
                        .endMatchField()
                        .endNodeSelectorTerm()
                        .build())
                .withNewDevices()
                .withResults(results)
                .endDevices()
                .endAllocation()
                .endStatus()
                .build();
    }
}
