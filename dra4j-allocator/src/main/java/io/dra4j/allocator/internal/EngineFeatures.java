package io.dra4j.allocator.internal;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;

/**
 * The allocator features derived from the feature gates, the way kube-scheduler derives them, plus the upstream
 * allocator variant they select.
 */
public record EngineFeatures(
        Variant variant,
        boolean adminAccess,
        boolean prioritizedList,
        boolean partitionableDevices,
        boolean deviceTaints,
        boolean deviceTaintRules,
        boolean bindingAndStatus,
        boolean consumableCapacity,
        boolean fractionalCapacityRange,
        boolean listTypeAttributes,
        boolean derivedAttributes,
        boolean compatibilityGroups,
        boolean optionalNodeOperations) {

    /**
     * Upstream has three implementations and picks the first whose supported features cover the enabled ones, in
     * the order stable, incubating, experimental.
     */
    public enum Variant {
        STABLE,
        INCUBATING,
        EXPERIMENTAL
    }

    public static EngineFeatures from(FeatureGates gates) {
        boolean adminAccess = gates.isEnabled(DraFeature.DRAAdminAccess);
        boolean prioritizedList = gates.isEnabled(DraFeature.DRAPrioritizedList);
        boolean partitionable = gates.isEnabled(DraFeature.DRAPartitionableDevices);
        boolean taints = gates.isEnabled(DraFeature.DRADeviceTaints);
        boolean taintRules = gates.isEnabled(DraFeature.DRADeviceTaintRules);
        boolean binding = gates.isEnabled(DraFeature.DRADeviceBindingConditions)
                && gates.isEnabled(DraFeature.DRAResourceClaimDeviceStatus);
        boolean consumable = gates.isEnabled(DraFeature.DRAConsumableCapacity);
        boolean fractional = gates.isEnabled(DraFeature.DRAFractionalCapacityRange);
        boolean lists = gates.isEnabled(DraFeature.DRAListTypeAttributes);
        boolean derived = gates.isEnabled(DraFeature.DRADerivedAttributes);
        boolean compat = gates.isEnabled(DraFeature.DRADeviceCompatibilityGroups);
        boolean optionalOps = gates.isEnabled(DraFeature.DRAOptionalNodeOperations);

        Variant variant;
        if (!binding && !consumable && !fractional && !lists && !derived && !compat && !optionalOps) {
            variant = Variant.STABLE;
        } else if (!lists && !derived && !compat && !optionalOps) {
            variant = Variant.INCUBATING;
        } else {
            variant = Variant.EXPERIMENTAL;
        }
        return new EngineFeatures(
                variant,
                adminAccess,
                prioritizedList,
                partitionable,
                taints,
                taintRules,
                binding,
                consumable,
                fractional,
                lists,
                derived,
                compat,
                optionalOps);
    }

    public boolean stable() {
        return variant == Variant.STABLE;
    }
}
