package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The --feature-gates check against kube-apiserver's own: the 1.37 messages are what {@code validate-oracle
 * -feature-gates VALUE} (k8s.io/kubernetes v1.37.2 with its component-base) or kube-scheduler 1.37.2 itself
 * ({@code kube-scheduler --feature-gates VALUE}) prints for the same values; {@link KubeSchedulerFeatureGatesIT} runs
 * the binary.
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

    @Test
    void gatesDra4jDoesNotModelAreAcceptedAsKubeSchedulerAcceptsThem() {
        // DRAWorkloadResourceClaims depends on GenericWorkload, which is not a DRA gate.
        assertThat(FeatureGateFlag.refusal("1.37", gates("GenericWorkload", true, "DRAWorkloadResourceClaims", true)))
                .isEmpty();
        assertThat(FeatureGateFlag.refusal(
                        "1.37", gates("DRAPartitionableDevicesType", true, "DRAResourcePoolStatus", true)))
                .isEmpty();
        assertThat(FeatureGateFlag.refusal("1.37", gates("NativeHistograms", false, "ContextualLogging", false)))
                .isEmpty();
        // Dependencies between gates that are not DRA gates are checked too.
        assertThat(FeatureGateFlag.errors("1.37", gates("PodLevelResources", false)))
                .containsExactly(
                        "InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are "
                                + "disabled: [PodLevelResources]",
                        "PodLevelResourcesFixDefaulting is enabled, but depends on features that are disabled: "
                                + "[PodLevelResources]",
                        "PodLevelResourcesFixKubeletQOSClass is enabled, but depends on features that are disabled: "
                                + "[PodLevelResources]");
        // A constant whose name differs from the gate's: the gate is RuntimeClassInImageCriApi.
        assertThat(FeatureGateFlag.refusal("1.37", gates("RuntimeClassInImageCriApi", true)))
                .isEmpty();
        assertThat(FeatureGateFlag.refusal("1.37", gates("RuntimeClassInImageCriAPI", true)))
                .contains("unrecognized feature gate: RuntimeClassInImageCriAPI");
        assertThat(FeatureGateFlag.refusal("1.37", gates("DynamicResourceAllocation", false)))
                .contains("cannot set feature gate DynamicResourceAllocation to false, feature is locked to true");
        // GenericWorkload is an alpha gate in 1.35, so AllAlpha turns it on there.
        assertThat(FeatureGateFlag.overrides("1.35", gates("AllAlpha", true)))
                .containsEntry("GenericWorkload", true)
                .doesNotContainKey("AllAlpha");
    }

    @Test
    void allAlphaAndAllBetaSetTheGatesNotSetByName() {
        // kube-scheduler 1.37.2 refuses AllAlpha=true alone: alpha gates that depend on beta GenericWorkload.
        assertThat(FeatureGateFlag.refusal("1.37", gates("AllAlpha", true)))
                .hasValueSatisfying(why -> assertThat(why)
                        .contains("CompositePodGroup is enabled, but depends on features that are disabled: "
                                + "[GenericWorkload]"));
        assertThat(FeatureGateFlag.refusal("1.37", gates("AllAlpha", true, "AllBeta", true)))
                .isEmpty();
        Map<String, Boolean> set = FeatureGateFlag.overrides(
                "1.37", gates("AllAlpha", true, "AllBeta", true, "DRADerivedAttributes", false));
        assertThat(set)
                .containsEntry("DRAListTypeAttributes", true)
                .containsEntry("GenericWorkload", true)
                .containsEntry("DRADerivedAttributes", false)
                .doesNotContainKey("DRADeviceTaints");
        assertThat(FeatureGateFlag.enabled("1.37", gates("AllBeta", false)))
                .containsEntry("DRAConsumableCapacity", false)
                .containsEntry("DRADeviceTaints", true)
                .containsEntry("DRAListTypeAttributes", false);
    }

    @Test
    void theFlagIsReadAsKubeSchedulerReadsIt() {
        assertThat(FeatureGateFlag.parse(" A=true, B=0 ")).containsExactly(Map.entry("A", true), Map.entry("B", false));
        assertThat(FeatureGateFlag.parse("kube:A=t,kube:B=F,,"))
                .containsExactly(Map.entry("A", true), Map.entry("B", false));
        // A gate named twice keeps its last value (upstream's map), at its last place.
        assertThat(FeatureGateFlag.parse("A=true,B=true,A=false"))
                .containsExactly(Map.entry("B", true), Map.entry("A", false));
        assertThatThrownBy(() -> FeatureGateFlag.parse("foo:A=true")).hasMessage("component not registered: foo");
        assertThatThrownBy(() -> FeatureGateFlag.parse("A=true,kube:B=true"))
                .hasMessage("set kube feature gates with default empty prefix or kube: prefix consistently, do not "
                        + "mix use");
        assertThatThrownBy(() -> FeatureGateFlag.parse("A")).hasMessage("missing bool value for A");
        assertThatThrownBy(() -> FeatureGateFlag.parse("A=yes"))
                .hasMessage("invalid value of A=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax");
    }
}
