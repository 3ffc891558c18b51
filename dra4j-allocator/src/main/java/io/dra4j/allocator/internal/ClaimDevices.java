package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;

/**
 * A claim's {@code spec.devices} lists as Kubernetes reads them: k8s.io/api holds the spec and its devices by value,
 * so a claim without them (fabric8 leaves them null) has no requests, constraints or config. Read-only views.
 */
final class ClaimDevices {
    private ClaimDevices() {}

    static List<DeviceRequest> requests(ResourceClaim claim) {
        DeviceClaim d = devices(claim);
        return d == null || d.getRequests() == null ? List.of() : d.getRequests();
    }

    static List<DeviceConstraint> constraints(ResourceClaim claim) {
        DeviceClaim d = devices(claim);
        return d == null || d.getConstraints() == null ? List.of() : d.getConstraints();
    }

    static List<DeviceClaimConfiguration> config(ResourceClaim claim) {
        DeviceClaim d = devices(claim);
        return d == null || d.getConfig() == null ? List.of() : d.getConfig();
    }

    private static DeviceClaim devices(ResourceClaim claim) {
        return claim.getSpec() == null ? null : claim.getSpec().getDevices();
    }
}
