package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The --feature-gates check against kube-apiserver's own: the 1.37 messages are what {@code validate-oracle
 * -feature-gates VALUE} (k8s.io/kubernetes v1.37.2 with its component-base) prints for the same values.
 */
class FeatureGateFlagTest {
    private static Map<String, Boolean> gates(Object... pairs) {
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put((String) pairs[i], (Boolean) pairs[i + 1]);
        }
        return out;
    }

    @Test
    void lockedGatesOf137CannotBeTurnedOff() {
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRAPrioritizedList", false)))
                .contains("cannot set feature gate DRAPrioritizedList to false, feature is locked to true");
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRAAdminAccess", false)))
                .contains("cannot set feature gate DRAAdminAccess to false, feature is locked to true");
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRAResourceClaimDeviceStatus", false)))
                .contains("cannot set feature gate DRAResourceClaimDeviceStatus to false, feature is locked to true");
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRAExtendedResource", false)))
                .contains("cannot set feature gate DRAExtendedResource to false, feature is locked to true");
        // Upstream lists both in map order (the oracle printed AdminAccess first); dra4j in the flag's order.
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRAAdminAccess", false, "DRAPrioritizedList", false)))
                .contains("[cannot set feature gate DRAAdminAccess to false, feature is locked to true, "
                        + "cannot set feature gate DRAPrioritizedList to false, feature is locked to true]");
        // Setting a locked gate to its default is accepted.
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRAPrioritizedList", true)))
                .isEmpty();
    }

    @Test
    void aGateThatEndsUpOnNeedsItsDependencies() {
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRADeviceTaints", false)))
                .contains("DRADeviceTaintRules is enabled, but depends on features that are disabled: "
                        + "[DRADeviceTaints]");
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRADeviceTaints", false, "DRADeviceTaintRules", false)))
                .isEmpty();
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRAWorkloadResourceClaims", true)))
                .contains("DRAWorkloadResourceClaims is enabled, but depends on features that are disabled: "
                        + "[GenericWorkload]");
        assertThat(FeatureGateFlag.refusal(
                        "1.37", gates("DRAConsumableCapacity", false, "DRAFractionalCapacityRange", true)))
                .contains("DRAFractionalCapacityRange is enabled, but depends on features that are disabled: "
                        + "[DRAConsumableCapacity]");
        assertThat(FeatureGateFlag.refusal(
                        "1.37", gates("DRAPartitionableDevices", false, "DRADeviceCompatibilityGroups", true)))
                .contains("DRADeviceCompatibilityGroups is enabled, but depends on features that are disabled: "
                        + "[DRAPartitionableDevices]");
        // Off by default, so turning their dependency off is accepted.
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRAConsumableCapacity", false)))
                .isEmpty();
        assertThat(FeatureGateFlag.refusal("1.37", gates("DRAPartitionableDevices", false)))
                .isEmpty();
        assertThat(FeatureGateFlag.refusal(
                        "1.37", gates("DRADerivedAttributes", true, "DRAOptionalNodeOperations", true)))
                .isEmpty();
    }

    @Test
    void eachReleaseHasItsOwnGatesLocksAndDependencies() {
        // 1.36: DRAResourceClaimDeviceStatus is beta and not locked, and two gates on by default depend on it.
        assertThat(FeatureGateFlag.refusal("1.36", gates("DRAResourceClaimDeviceStatus", false)))
                .contains("[DRADeviceBindingConditions is enabled, but depends on features that are disabled: "
                        + "[DRAResourceClaimDeviceStatus], DRAResourceClaimGranularStatusAuthorization is enabled, "
                        + "but depends on features that are disabled: [DRAResourceClaimDeviceStatus]]");
        assertThat(FeatureGateFlag.refusal("1.36", gates("DRAPrioritizedList", false)))
                .isEmpty();
        assertThat(FeatureGateFlag.refusal("1.36", gates("DRAAdminAccess", false)))
                .contains("cannot set feature gate DRAAdminAccess to false, feature is locked to true");
        // 1.34 has no dependency map, and no DRADerivedAttributes gate.
        assertThat(FeatureGateFlag.refusal("1.34", gates("DRAResourceClaimDeviceStatus", false)))
                .isEmpty();
        assertThat(FeatureGateFlag.refusal("1.34", gates("DRADerivedAttributes", true)))
                .contains("unrecognized feature gate: DRADerivedAttributes");
    }

    @Test
    void gaGatesGetComponentBasesWarning() {
        assertThat(FeatureGateFlag.warnings("1.37", gates("DRADeviceTaints", false, "DRAConsumableCapacity", false)))
                .containsExactly("\"Warning: setting GA feature gate. It will be removed in a future release.\" "
                        + "featureGate=\"DRADeviceTaints\" value=false");
    }
}
