package io.dra4j.scenario;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import java.util.ArrayList;

/**
 * The ResourceClaim and ResourceClaimTemplate strategies' dropDisabledFields on create (k8s.io/kubernetes v1.37.2
 * pkg/api/resourceclaimspec DropDisabledFields, with no old object): the spec fields of a disabled feature are cleared
 * before the claim is validated, so that the API server neither rejects nor stores them. Lists become empty (the
 * fabric8 model's absent value), other fields null. In upstream's order: prioritized list first, so that a dropped
 * firstAvailable is not walked for tolerations.
 */
final class ClaimFieldDrops {
    private ClaimFieldDrops() {}

    /** Drops from {@code devices} (a claim's {@code spec.devices}) what {@code gates} disable. */
    static void apply(DeviceClaim devices, FeatureGates gates) {
        if (devices == null) {
            return;
        }
        boolean prioritizedList = gates.isEnabled(DraFeature.DRAPrioritizedList);
        boolean taints = gates.isEnabled(DraFeature.DRADeviceTaints);
        boolean adminAccess = gates.isEnabled(DraFeature.DRAAdminAccess);
        boolean consumable = gates.isEnabled(DraFeature.DRAConsumableCapacity);
        boolean derived = gates.isEnabled(DraFeature.DRADerivedAttributes);
        if (!consumable && devices.getConstraints() != null) {
            for (DeviceConstraint c : devices.getConstraints()) {
                if (c != null) {
                    c.setDistinctAttribute(null);
                }
            }
        }
        if (devices.getRequests() == null) {
            return;
        }
        for (DeviceRequest r : devices.getRequests()) {
            if (r == null) {
                continue;
            }
            if (!prioritizedList) {
                r.setFirstAvailable(new ArrayList<>());
            }
            ExactDeviceRequest e = r.getExactly();
            if (e != null) {
                if (!taints) {
                    e.setTolerations(new ArrayList<>());
                }
                if (!adminAccess) {
                    e.setAdminAccess(null);
                }
                if (!consumable) {
                    e.setCapacity(null);
                }
                if (!derived) {
                    e.setDerivedAttributes(new ArrayList<>());
                }
            }
            if (r.getFirstAvailable() == null) {
                continue;
            }
            for (DeviceSubRequest s : r.getFirstAvailable()) {
                if (s == null) {
                    continue;
                }
                if (!taints) {
                    s.setTolerations(new ArrayList<>());
                }
                if (!consumable) {
                    s.setCapacity(null);
                }
                if (!derived) {
                    s.setDerivedAttributes(new ArrayList<>());
                }
            }
        }
    }
}
