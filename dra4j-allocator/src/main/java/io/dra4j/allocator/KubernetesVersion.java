package io.dra4j.allocator;

import static io.dra4j.allocator.DraFeature.*;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The Kubernetes releases whose default DRA feature gates dra4j knows: what each release's
 * pkg/features/kube_features.go defaults to at its default --min-compatibility-version (the release minus one), so
 * 1.37's DRAFractionalCapacityRange, on only from min-compatibility 1.37, is off. ReleaseDefaultsTest (dra4j-migrate)
 * checks these sets against the table generated from upstream's sources.
 */
public enum KubernetesVersion {
    V1_34(
            "1.34",
            EnumSet.of(DRAAdminAccess, DRAPrioritizedList, DRAResourceClaimDeviceStatus, DRASchedulerFilterTimeout)),
    V1_35(
            "1.35",
            EnumSet.of(DRAAdminAccess, DRAPrioritizedList, DRAResourceClaimDeviceStatus, DRASchedulerFilterTimeout)),
    V1_36(
            "1.36",
            EnumSet.of(
                    DRAAdminAccess,
                    DRAPrioritizedList,
                    DRADeviceTaints,
                    DRAPartitionableDevices,
                    DRAConsumableCapacity,
                    DRAExtendedResource,
                    DRADeviceBindingConditions,
                    DRAResourceClaimDeviceStatus,
                    DRASchedulerFilterTimeout)),
    V1_37(
            "1.37",
            EnumSet.of(
                    DRAAdminAccess,
                    DRAPrioritizedList,
                    DRADeviceTaints,
                    DRADeviceTaintRules,
                    DRAPartitionableDevices,
                    DRAConsumableCapacity,
                    DRAExtendedResource,
                    DRADeviceBindingConditions,
                    DRAResourceClaimDeviceStatus,
                    DRASchedulerFilterTimeout));

    public static final KubernetesVersion LATEST = V1_37;

    private final String text;
    private final Set<DraFeature> defaults;

    KubernetesVersion(String text, Set<DraFeature> defaults) {
        this.text = text;
        this.defaults = defaults;
    }

    /** The version as users write it, e.g. {@code 1.37}. */
    public String text() {
        return text;
    }

    /** The DRA gates that are on by default in this release. */
    public Set<DraFeature> defaultGates() {
        return EnumSet.copyOf(defaults);
    }

    /** Parses {@code 1.37}, {@code v1.37} or {@code 1.37.2}; empty when the release is not supported. */
    public static Optional<KubernetesVersion> parse(String version) {
        String v = version.startsWith("v") ? version.substring(1) : version;
        String[] parts = v.split("\\.");
        if (parts.length < 2) {
            return Optional.empty();
        }
        String minor = parts[0] + "." + parts[1];
        for (KubernetesVersion k : values()) {
            if (k.text.equals(minor)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}
