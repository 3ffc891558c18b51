package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A consumable capacity's requestPolicy as kube-apiserver 1.37 validates it (validateRequestPolicy, with 1.37's
 * default gates: DRAConsumableCapacity on, DRAFractionalCapacityRange off). The expected errors are what {@code
 * oracle/validate/bin/validate-oracle} printed for the same objects, in its order.
 */
class RequestPolicyValidationTest {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String AT = "spec.devices[0].capacity[memory].requestPolicy";
    private static final String MULTI = "\"allowMultipleAllocations\":true,";

    private static List<ApiValidator.FieldError> errors(String device, String capacity, String policy) {
        return ApiValidator.defaultAndValidate(SERIALIZATION.unmarshal(
                "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\"},"
                        + "\"spec\":{\"driver\":\"d.example.com\",\"pool\":{\"name\":\"p\",\"resourceSliceCount\":1},"
                        + "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"d\"," + device + "\"capacity\":{\"memory\":"
                        + "{\"value\":\"" + capacity + "\",\"requestPolicy\":" + policy + "}}}]}}",
                HasMetadata.class));
    }

    private static ApiValidator.FieldError error(String field, String message) {
        return new ApiValidator.FieldError(AT + field, message);
    }

    @Test
    void validPoliciesAreAccepted() {
        assertThat(errors(MULTI, "40Gi", "{\"default\":\"10Gi\",\"validValues\":[\"10Gi\",\"20Gi\",\"40Gi\"]}"))
                .isEmpty();
        assertThat(errors(
                        MULTI,
                        "40Gi",
                        "{\"default\":\"2Gi\",\"validRange\":{\"min\":\"1Gi\",\"max\":\"40Gi\",\"step\":\"1Gi\"}}"))
                .isEmpty();
    }

    @Test
    void onePolicyWithADefaultOnAMultiAllocatableDevice() {
        assertThat(errors("", "40Gi", "{\"default\":\"10Gi\",\"validValues\":[\"10Gi\"]}"))
                .containsExactly(error("", "Forbidden: allowMultipleAllocations must be true"));
        assertThat(errors(
                        MULTI,
                        "40Gi",
                        "{\"default\":\"10Gi\",\"validValues\":[\"10Gi\"],\"validRange\":{\"min\":\"1\"}}"))
                .containsExactly(error(
                        "",
                        "Forbidden: exactly one policy can be specified, cannot specify \"validValues\" and "
                                + "\"validRange\" at the same time"));
        assertThat(errors(MULTI, "40Gi", "{\"validRange\":{\"min\":\"1\"}}"))
                .containsExactly(error(".default", "Required value: required when validRange is defined"));
        assertThat(errors(MULTI, "40Gi", "{\"default\":\"0\",\"validRange\":{}}"))
                .containsExactly(error(".validRange.min", "Required value: required when validRange is defined"));
    }

    @Test
    void validValues() {
        assertThat(errors(
                        MULTI,
                        "40Gi",
                        "{\"default\":\"1Gi\",\"validValues\":[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\","
                                + "\"10\",\"11\"]}"))
                .containsExactly(
                        error(".validValues", "Too many: 11: must have at most 10 items"),
                        error(
                                ".validValues",
                                "Invalid value: \"1Gi\": default value is not valid according to the requestPolicy"));
        assertThat(errors(MULTI, "40Gi", "{\"default\":\"5\",\"validValues\":[\"50Gi\",\"1\"]}"))
                .containsExactly(
                        error(".validValues[1]", "Invalid value: \"1\": values must be sorted in ascending order"),
                        error(".validValues[0]", "Invalid value: \"50Gi\": option is larger than capacity value: 40Gi"),
                        error(
                                ".validValues",
                                "Invalid value: \"5\": default value is not valid according to the requestPolicy"));
        // Duplicates by integer value (Value() rounds 1.5 up to 2) while DRAFractionalCapacityRange is off.
        assertThat(errors(MULTI, "40Gi", "{\"default\":\"2\",\"validValues\":[\"2\",\"1.5\",\"10Gi\",\"10Gi\"]}"))
                .containsExactly(
                        error(".validValues[1]", "Invalid value: \"1500m\": values must be sorted in ascending order"),
                        error(".validValues[1]", "Duplicate value: \"2\""),
                        error(".validValues[3]", "Duplicate value: \"10737418240\""));
    }

    @Test
    void validRange() {
        assertThat(errors(
                        MULTI,
                        "10",
                        "{\"default\":\"0\",\"validRange\":{\"min\":\"20\",\"max\":\"5\",\"step\":\"-1\"}}"))
                .containsExactly(
                        error(".validRange.min", "Invalid value: \"20\": min is larger than capacity value: 10"),
                        error(".validRange.default", "Invalid value: \"0\": default is less than min: 20"),
                        error(".validRange.max", "Invalid value: \"20\": min is larger than max: 5"),
                        error(".validRange.step", "Invalid value: \"-1\": must be greater than zero"));
        assertThat(errors(MULTI, "40Gi", "{\"default\":\"-1\",\"validRange\":{\"min\":\"-2\",\"step\":\"1\"}}"))
                .containsExactly(
                        error(".validRange.default", "Invalid value: \"-1\": must be greater than or equal to 0"),
                        error(".validRange.min", "Invalid value: \"-2\": must be greater than or equal to 0"));
        assertThat(errors(
                        MULTI,
                        "40Gi",
                        "{\"default\":\"5\",\"validRange\":{\"min\":\"1\",\"max\":\"10E\",\"step\":\"10E\"}}"))
                .containsExactly(
                        error(".validRange.max", "Invalid value: \"10E\": max is larger than capacity value: 40Gi"),
                        error(
                                ".validRange.step",
                                "Invalid value: \"10E\": one step 10000000000000000001 is larger than capacity value: "
                                        + "40Gi"),
                        error(".validRange.max", "Invalid value: \"10E\": must not be larger than 9223372036854775807"),
                        error(
                                ".validRange.step",
                                "Invalid value: \"10E\": must not be larger than 9223372036854775807"));
    }

    @Test
    void stepMultiplesAndTheApiServersDeduplication() {
        assertThat(errors(
                        MULTI,
                        "50Gi",
                        "{\"default\":\"2Gi\",\"validRange\":{\"min\":\"500m\",\"max\":\"50Gi\",\"step\":\"1.5\"}}"))
                .containsExactly(
                        error(
                                ".validRange.step",
                                "Invalid value: \"2Gi\": value is not a multiple of a given step (1500m) from (500m)"),
                        error(
                                ".validRange.step",
                                "Invalid value: \"50Gi\": value is not a multiple of a given step (1500m) from (500m)"));
        // Default and max equal: the two errors read the same, and the API server reports one.
        assertThat(errors(
                        MULTI,
                        "50Gi",
                        "{\"default\":\"50Gi\",\"validRange\":{\"min\":\"500m\",\"max\":\"50Gi\",\"step\":\"1.5\"}}"))
                .containsExactly(error(
                        ".validRange.step",
                        "Invalid value: \"50Gi\": value is not a multiple of a given step (1500m) from (500m)"));
    }
}
