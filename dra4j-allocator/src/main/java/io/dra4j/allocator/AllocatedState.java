package io.dra4j.allocator;

import io.dra4j.allocator.internal.Holding;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Devices already in use cluster-wide, as the scheduler sees them before allocating a pod's claims. Immutable;
 * {@link #isAllocated} is a constant-time lookup.
 *
 * <p>Components: {@code allocatedDevices}, devices allocated exclusively by earlier allocations;
 * {@code sharedDevices}, shares of devices that allow multiple allocations ({@code deviceId + shareID});
 * {@code aggregatedCapacity}, per device with multiple allocations, the capacity its existing shares consume;
 * {@code owners}, where known, the claim ({@code namespace/name}) holding an exclusively allocated device (only
 * explanations use it).
 */
public final class AllocatedState {
    private final Set<DeviceId> allocatedDevices;
    private final Set<SharedDevice> sharedDevices;
    private final Map<DeviceId, Map<String, KubeQuantity>> aggregatedCapacity;
    private final Map<DeviceId, String> owners;
    private final Set<DeviceId> withShares;

    /** One share of a device that allows multiple allocations. */
    public record SharedDevice(DeviceId device, String shareId) {}

    public AllocatedState(
            Set<DeviceId> allocatedDevices,
            Set<SharedDevice> sharedDevices,
            Map<DeviceId, Map<String, KubeQuantity>> aggregatedCapacity,
            Map<DeviceId, String> owners) {
        this.allocatedDevices = Set.copyOf(allocatedDevices);
        this.sharedDevices = Set.copyOf(sharedDevices);
        Map<DeviceId, Map<String, KubeQuantity>> copy = new HashMap<>();
        aggregatedCapacity.forEach((k, v) -> copy.put(k, Map.copyOf(v)));
        this.aggregatedCapacity = Map.copyOf(copy);
        this.owners = Map.copyOf(owners);
        Set<DeviceId> shared = new HashSet<>();
        for (SharedDevice s : this.sharedDevices) {
            shared.add(s.device());
        }
        this.withShares = Set.copyOf(shared);
    }

    public static final AllocatedState EMPTY = new AllocatedState(Set.of(), Set.of(), Map.of(), Map.of());

    public Set<DeviceId> allocatedDevices() {
        return allocatedDevices;
    }

    public Set<SharedDevice> sharedDevices() {
        return sharedDevices;
    }

    public Map<DeviceId, Map<String, KubeQuantity>> aggregatedCapacity() {
        return aggregatedCapacity;
    }

    public Map<DeviceId, String> owners() {
        return owners;
    }

    /** True when the device is in use in any of the three ways (exclusive, shared, or with consumed capacity). */
    public boolean isAllocated(DeviceId id) {
        return allocatedDevices.contains(id) || aggregatedCapacity.containsKey(id) || withShares.contains(id);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AllocatedState s
                && s.allocatedDevices.equals(allocatedDevices)
                && s.sharedDevices.equals(sharedDevices)
                && s.aggregatedCapacity.equals(aggregatedCapacity)
                && s.owners.equals(owners);
    }

    @Override
    public int hashCode() {
        return Objects.hash(allocatedDevices, sharedDevices, aggregatedCapacity, owners);
    }

    @Override
    public String toString() {
        return "AllocatedState[allocatedDevices=" + allocatedDevices + ", sharedDevices=" + sharedDevices
                + ", aggregatedCapacity=" + aggregatedCapacity + ", owners=" + owners + "]";
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
            for (Holding h : Holding.ofClaim(claim, consumableCapacity)) {
                switch (h.kind()) {
                    case EXCLUSIVE -> addExclusive(h.device(), h.owner());
                    case SHARE -> shared.add(new SharedDevice(h.device(), h.shareId()));
                    case CAPACITY -> {
                        Map<String, KubeQuantity> sum =
                                capacity.computeIfAbsent(h.device(), k -> new LinkedHashMap<>());
                        h.consumed().forEach((name, q) -> sum.merge(name, q, KubeQuantity::add));
                    }
                }
            }
            return this;
        }

        public AllocatedState build() {
            return new AllocatedState(exclusive, shared, capacity, owners);
        }
    }
}
