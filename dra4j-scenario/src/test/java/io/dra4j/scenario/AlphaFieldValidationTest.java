package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/**
 * Fields of alpha features are validated when their gates keep them and dropped when they are off, as the
 * ResourceSlice strategy does. The expected errors are what {@code oracle/validate/bin/validate-oracle
 * [-feature-gates ...]} printed for the same slice with the same gates.
 */
class AlphaFieldValidationTest {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String SLICE = "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\","
            + "\"metadata\":{\"name\":\"s\"},\"spec\":{\"driver\":\"gpu.example.com\",\"pool\":{\"name\":\"p\","
            + "\"generation\":1,\"resourceSliceCount\":1},\"nodeName\":\"n\",\"devices\":[{\"name\":\"gpu-0\","
            + "\"attributes\":{\"list\":{\"ints\":[]}},\"capacity\":{\"memory\":{\"value\":\"40Gi\"}},"
            + "\"nodeAllocatableResources\":{\"memory\":{\"mapping\":{\"capacityKey\":\"memory\","
            + "\"capacityMultiplier\":\"0\"}}}},{\"name\":\"gpu-1\",\"nodeAllocatableResources\":{\"cpu\":"
            + "{\"mapping\":{},\"overhead\":{\"perPod\":\"-1\"}}}}]}}";
    private static final ApiValidator.FieldError NO_VALUE = new ApiValidator.FieldError(
            "spec.devices[0].attributes[list]",
            "Invalid value: \"\": must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, "
                    + "`strings`, `versions`");

    private static final String SKIPPING = "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\","
            + "\"metadata\":{\"name\":\"s\"},\"spec\":{\"driver\":\"gpu.example.com\",\"pool\":{\"name\":\"p\","
            + "\"generation\":1,\"resourceSliceCount\":1},\"nodeName\":\"n\",\"partitionTypeAttribute\":\"Bad Name!\","
            + "\"devices\":[{\"name\":\"gpu-0\"}],\"skipNodeOperations\":[\"bogus\",\"NodePrepareResources\",\"bogus\"]}}";

    @Test
    void skipNodeOperationsAreValidatedWithTheirGateAndPartitionTypeAttributeIsAlwaysDropped() {
        String supported = "supported values: \"*\", \"NodePrepareResources\", \"NodeUnprepareResources\"";
        FeatureGates on = FeatureGates.defaults().with(DraFeature.DRAOptionalNodeOperations, true);
        assertThat(ApiValidator.defaultAndValidate(
                        SERIALIZATION.unmarshal(SKIPPING, ResourceSlice.class), SKIPPING, on))
                .containsExactly(
                        new ApiValidator.FieldError(
                                "spec.skipNodeOperations",
                                "Invalid value: [\"bogus\",\"NodePrepareResources\",\"bogus\"]: NodePrepareResources "
                                        + "cannot be skipped unless NodeUnprepareResources is also skipped"),
                        new ApiValidator.FieldError("spec.skipNodeOperations[2]", "Duplicate value: \"bogus\""),
                        new ApiValidator.FieldError(
                                "spec.skipNodeOperations[0]", "Unsupported value: \"bogus\": " + supported),
                        new ApiValidator.FieldError(
                                "spec.skipNodeOperations[2]", "Unsupported value: \"bogus\": " + supported));
        assertThat(ApiValidator.defaultAndValidate(
                        SERIALIZATION.unmarshal(SKIPPING, ResourceSlice.class), SKIPPING, FeatureGates.defaults()))
                .isEmpty();
    }

    private static ResourceSlice slice() {
        return SERIALIZATION.unmarshal(SLICE, ResourceSlice.class);
    }

    @Test
    void withTheirGatesOnListAttributesAndNodeAllocatableResourcesAreValidated() {
        FeatureGates on = FeatureGates.defaults()
                .with(DraFeature.DRAListTypeAttributes, true)
                .with(DraFeature.DRANodeAllocatableResources, true);
        assertThat(ApiValidator.defaultAndValidate(slice(), SLICE, on))
                .containsExactly(
                        new ApiValidator.FieldError(
                                "spec.devices[0].attributes[list].ints",
                                "Invalid value: []: must not be empty if specified"),
                        new ApiValidator.FieldError(
                                "spec.devices[0].nodeAllocatableResources[memory].mapping.capacityMultiplier",
                                "Invalid value: \"0\": must be positive"),
                        new ApiValidator.FieldError(
                                "spec.devices[1].nodeAllocatableResources[cpu].overhead.perPod",
                                "Invalid value: \"-1\": must be non-negative"),
                        NO_VALUE,
                        new ApiValidator.FieldError(
                                "spec.devices[1].nodeAllocatableResources[cpu].mapping",
                                "Invalid value: \"\": must specify one of: `capacityKey`, `deviceMultiplier`"));
    }

    @Test
    void withTheDefaultGatesTheyAreDroppedFirst() {
        assertThat(ApiValidator.defaultAndValidate(slice(), SLICE, FeatureGates.defaults()))
                .containsExactly(NO_VALUE);
    }
}
