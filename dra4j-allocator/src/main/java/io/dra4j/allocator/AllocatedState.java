package io.dra4j.allocator;

import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Devices already in use cluster-wide, as the scheduler sees them before allocating a pod's claims.
 *
 * @param allocatedDevices   devices allocated exclusively by earlier allocations
 * @param sharedDevices      shares of devices that allow multiple allocations ({@code deviceId + shareID})
 * @param aggregatedCapacity per device with multiple allocations, the capacity its existing shares consume
 * @param owners             where known, the claim ({@code namespace/name}) holding an exclusively allocated device;
 *                           only explanations use it
 */
public record AllocatedState(Set<DeviceId> allocatedDevices,
                             Set<SharedDevice> sharedDevices,
                             Map<DeviceId, Map<String, KubeQuantity>> aggregatedCapacity,
                             Map<DeviceId, String> owners) {

    /** One share of a device that allows multiple allocations. */
    public record SharedDevice(DeviceId device, String shareId) {
    }

    public AllocatedState {
        allocatedDevices = Set.copyOf(allocatedDevices);
        sharedDevices = Set.copyOf(sharedDevices);
        Map<DeviceId, Map<String, KubeQuantity>> copy = new HashMap<>();
        aggregatedCapacity.forEach((k, v) -> copy.put(k, Map.copyOf(v)));
        aggregatedCapacity = Map.copyOf(copy);
        owners = Map.copyOf(owners);
    }

    public static final AllocatedState EMPTY = new AllocatedState(Set.of(), Set.of(), Map.of(), Map.of());

    /** True when the device is in use in any of the three ways (exclusive, shared, or with consumed capacity). */
    public boolean isAllocated(DeviceId id) {
        if (allocatedDevices.contains(id) || aggregatedCapacity.containsKey(id)) {
            return true;
        }
        for (SharedDevice s : sharedDevices) {
            if (s.device.equals(id)) {
                return true;
            }
        }
        return false;
    }

    public static Builder builder(FeatureGates gates) {
        return new Builder(gates.isEnabled(DraFeature.DRAConsumableCapacity));
    }

    /**
     * Builds the state from claims that have {@code status.allocation}, the way kube-scheduler does: admin-access
     * results never block a device; with DRAConsumableCapacity on, results with a shareID add their consumed
     * capacity instead of making the device exclusively allocated.
     */
    public static AllocatedState fromClaims(Collection<ResourceClaim> claims, FeatureGates gates) {
        Builder b = builder(gates);
        for (ResourceClaim claim : claims) {
            b.addClaim(claim);
        }
        return b.build();
    }

    /** Accumulates allocated devices; not thread-safe. */
    public static final class Builder {
        private final boolean consumableCapacity;
        private final Set<DeviceId> exclusive = new HashSet<>();
        private final Set<SharedDevice> shared = new HashSet<>();
        private final Map<DeviceId, Map<String, KubeQuantity>> capacity = new LinkedHashMap<>();
        private final Map<DeviceId, String> owners = new HashMap<>();

        private Builder(boolean consumableCapacity) {
            this.consumableCapacity = consumableCapacity;
        }

        public Builder addExclusive(DeviceId id) {
            exclusive.add(id);
            return this;
        }

        /** An exclusively allocated device and the claim ({@code namespace/name}) that holds it. */
        public Builder addExclusive(DeviceId id, String owner) {
            exclusive.add(id);
            owners.put(id, owner);
            return this;
        }

        /**
         * A share of a multi-allocatable device. Without DRAConsumableCapacity the share counts as an exclusive
         * allocation, as in kube-scheduler.
         */
        public Builder addShared(DeviceId id, String shareId, Map<String, KubeQuantity> consumed) {
            if (!consumableCapacity) {
                return addExclusive(id);
            }
            if (shareId != null) {
                shared.add(new SharedDevice(id, shareId));
            }
            if (consumed != null) {
                Map<String, KubeQuantity> sum = capacity.computeIfAbsent(id, k -> new LinkedHashMap<>());
                consumed.forEach((name, q) -> sum.merge(name, q, KubeQuantity::add));
            }
            return this;
        }

        public Builder addClaim(ResourceClaim claim) {
            if (claim.getStatus() == null || claim.getStatus().getAllocation() == null
                    || claim.getStatus().getAllocation().getDevices() == null
                    || claim.getStatus().getAllocation().getDevices().getResults() == null) {
                return this;
            }
            String owner = claim.getMetadata() == null ? "" : (claim.getMetadata().getNamespace() == null
                    || claim.getMetadata().getNamespace().isEmpty() ? "" : claim.getMetadata().getNamespace() + "/")
                    + claim.getMetadata().getName();
            for (DeviceRequestAllocationResult r : claim.getStatus().getAllocation().getDevices().getResults()) {
                if (Boolean.TRUE.equals(r.getAdminAccess())) {
                    continue;
                }
                DeviceId id = new DeviceId(r.getDriver(), r.getPool(), r.getDevice());
                if (consumableCapacity && r.getShareID() != null) {
                    addShared(id, r.getShareID(), toQuantities(r.getConsumedCapacity()));
                } else {
                    addExclusive(id, owner);
                }
            }
            return this;
        }

        public AllocatedState build() {
            return new AllocatedState(exclusive, shared, capacity, owners);
        }

        private static Map<String, KubeQuantity> toQuantities(Map<String, Quantity> in) {
            if (in == null) {
                return null;
            }
            Map<String, KubeQuantity> out = new LinkedHashMap<>();
            in.forEach((k, v) -> out.put(k, KubeQuantity.fromFabric8(v)));
            return out;
        }
    }
}
