package io.dra4j.allocator;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.internal.EngineFeatures;
import org.junit.jupiter.api.Test;

class FeatureGatesTest {

    @Test
    void defaultsOf137SelectTheIncubatingVariant() {
        FeatureGates gates = FeatureGates.defaults(KubernetesVersion.V1_37);
        assertThat(gates.isEnabled(DraFeature.DRAConsumableCapacity)).isTrue();
        assertThat(gates.isEnabled(DraFeature.DRAListTypeAttributes)).isFalse();
        // Beta and off in 1.37: on only with --min-compatibility-version=1.37 (kube_features.go).
        assertThat(gates.isEnabled(DraFeature.DRAFractionalCapacityRange)).isFalse();
        assertThat(EngineFeatures.from(gates).variant()).isEqualTo(EngineFeatures.Variant.INCUBATING);
    }

    @Test
    void defaultsOf135HaveOnlyAdminAccessAndPrioritizedListForTheAllocator() {
        FeatureGates gates = FeatureGates.defaults(KubernetesVersion.V1_35);
        assertThat(gates.isEnabled(DraFeature.DRAPartitionableDevices)).isFalse();
        assertThat(gates.isEnabled(DraFeature.DRADeviceTaints)).isFalse();
        assertThat(EngineFeatures.from(gates).variant()).isEqualTo(EngineFeatures.Variant.STABLE);
    }

    @Test
    void listTypeAttributesSelectTheExperimentalVariant() {
        FeatureGates gates = FeatureGates.defaults().with(DraFeature.DRAListTypeAttributes, true);
        assertThat(EngineFeatures.from(gates).variant()).isEqualTo(EngineFeatures.Variant.EXPERIMENTAL);
    }

    @Test
    void bindingConditionsNeedBothGates() {
        FeatureGates one = FeatureGates.of(DraFeature.DRADeviceBindingConditions);
        assertThat(EngineFeatures.from(one).bindingAndStatus()).isFalse();
        assertThat(EngineFeatures.from(one).variant()).isEqualTo(EngineFeatures.Variant.STABLE);
        FeatureGates both = one.with(DraFeature.DRAResourceClaimDeviceStatus, true);
        assertThat(EngineFeatures.from(both).bindingAndStatus()).isTrue();
        assertThat(EngineFeatures.from(both).variant()).isEqualTo(EngineFeatures.Variant.INCUBATING);
    }

    @Test
    void withIsCopyOnWrite() {
        FeatureGates none = FeatureGates.of();
        FeatureGates some = none.with(DraFeature.DRAAdminAccess, true);
        assertThat(none.enabled()).isEmpty();
        assertThat(some.enabled()).containsExactly(DraFeature.DRAAdminAccess);
        assertThat(some.with(DraFeature.DRAAdminAccess, false)).isEqualTo(none);
    }

    @Test
    void versionsParseInTheUsualSpellings() {
        assertThat(KubernetesVersion.parse("1.36")).contains(KubernetesVersion.V1_36);
        assertThat(KubernetesVersion.parse("v1.34.2")).contains(KubernetesVersion.V1_34);
        assertThat(KubernetesVersion.parse("1.33")).isEmpty();
        assertThat(KubernetesVersion.parse("137")).isEmpty();
    }
}
