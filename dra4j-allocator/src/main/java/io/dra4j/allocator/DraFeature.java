package io.dra4j.allocator;

/**
 * The Kubernetes feature gates that change what the DRA allocator (or the scheduler around it) decides.
 * Names are the upstream gate names; {@link #gateName()} returns them verbatim.
 */
public enum DraFeature {
    DRAAdminAccess,
    DRAPrioritizedList,
    DRADeviceTaints,
    DRADeviceTaintRules,
    DRAPartitionableDevices,
    DRAConsumableCapacity,
    DRAExtendedResource,
    DRADeviceBindingConditions,
    DRAResourceClaimDeviceStatus,
    DRASchedulerFilterTimeout,
    DRAListTypeAttributes,
    DRANodeAllocatableResources,
    DRAWorkloadResourceClaims,
    DRAFractionalCapacityRange,
    DRAOptionalNodeOperations,
    DRADerivedAttributes,
    DRADeviceCompatibilityGroups;

    public String gateName() {
        return name();
    }

    /** Looks a gate up by its upstream name; empty when the name is not a DRA gate dra4j knows. */
    public static java.util.Optional<DraFeature> byGateName(String name) {
        for (DraFeature f : values()) {
            if (f.name().equals(name)) {
                return java.util.Optional.of(f);
            }
        }
        return java.util.Optional.empty();
    }
}
