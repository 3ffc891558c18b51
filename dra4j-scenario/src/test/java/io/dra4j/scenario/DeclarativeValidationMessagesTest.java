package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fields that kube-apiserver 1.37 validates declaratively ({@code +k8s:beta(since: "1.37")} tags in k8s.io/api
 * resource/v1): the API server replaces the hand-written errors there by the declarative ones, whose wording is
 * apimachinery's pkg/api/validate. The expected messages are what {@code oracle/validate/bin/validate-oracle} printed
 * for the same objects.
 */
class DeclarativeValidationMessagesTest {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String A254 = "a".repeat(254);

    private static List<ApiValidator.FieldError> errors(String json) {
        return ApiValidator.defaultAndValidate(SERIALIZATION.unmarshal(json, HasMetadata.class));
    }

    private static String claim(String devices) {
        return "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\","
                + "\"namespace\":\"default\"},\"spec\":{\"devices\":" + devices + "}}";
    }

    private static String constraint(String key, String name) {
        return claim("{\"requests\":[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\"}}],"
                + "\"constraints\":[{\"" + key + "\":\"" + name + "\"}]}");
    }

    private static ApiValidator.FieldError error(String field, String message) {
        return new ApiValidator.FieldError(field, message);
    }

    @Test
    void deviceClassNameLengthCountsBytes() {
        assertThat(errors("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\""
                        + A254 + "\"},\"spec\":{}}"))
                .containsExactly(
                        error("metadata.name", "Invalid value: \"" + A254 + "\": must be no more than 253 bytes"));
    }

    @Test
    void duplicateRequestIsPrintedWholeAsGoJson() {
        String devices = "{\"requests\":["
                + "{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\",\"allocationMode\":\"All\",\"adminAccess\":false}},"
                + "{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\",\"selectors\":[{\"cel\":{\"expression\":"
                + "\"device.attributes[\\\"a.com\\\"].n > 1 && device.driver != \\\"<x>\\\"\"}}],\"tolerations\":[{\"key\":"
                + "\"k\",\"operator\":\"Equal\",\"value\":\"v\",\"effect\":\"NoSchedule\",\"tolerationSeconds\":5}]}}]}";
        assertThat(errors(claim(devices)))
                .containsExactly(
                        error(
                                "spec.devices.requests[1]",
                                "Duplicate value: {\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\",\"selectors\":[{\"cel\":"
                                        + "{\"expression\":\"device.attributes[\\\"a.com\\\"].n \\u003e 1 \\u0026\\u0026 device.driver != "
                                        + "\\\"\\u003cx\\u003e\\\"\"}}],\"allocationMode\":\"ExactCount\",\"count\":1,\"tolerations\":[{\"key\":"
                                        + "\"k\",\"operator\":\"Equal\",\"value\":\"v\",\"effect\":\"NoSchedule\",\"tolerationSeconds\":5}]}}"));
    }

    @Test
    void duplicateAllRequestKeepsAdminAccessAndNoCount() {
        String devices = "{\"requests\":[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\"}},"
                + "{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\",\"allocationMode\":\"All\",\"adminAccess\":false}}]}";
        assertThat(errors(claim(devices)))
                .containsExactly(
                        error(
                                "spec.devices.requests[1]",
                                "Duplicate value: {\"name\":"
                                        + "\"r\",\"exactly\":{\"deviceClassName\":\"gpu\",\"allocationMode\":\"All\",\"adminAccess\":false}}"));
    }

    @Test
    void duplicateSubRequestIsPrintedWholeAsGoJson() {
        String devices =
                "{\"requests\":[{\"name\":\"r\",\"firstAvailable\":[{\"name\":\"s\",\"deviceClassName\":\"gpu\"},"
                        + "{\"name\":\"s\",\"deviceClassName\":\"gpu\",\"count\":2,\"selectors\":[{\"cel\":{\"expression\":\"true\"}}]}]}]}";
        assertThat(errors(claim(devices)))
                .containsExactly(error(
                        "spec.devices.requests[0].firstAvailable[1]",
                        "Duplicate value: {\"name\":\"s\",\"deviceClassName\":\"gpu\",\"selectors\":[{\"cel\":{\"expression\":"
                                + "\"true\"}}],\"allocationMode\":\"ExactCount\",\"count\":2}"));
    }

    @Test
    void fullyQualifiedNameMessagesAreTheDeclarativeOnes() {
        String field = "spec.devices.constraints[0].matchAttribute";
        assertThat(errors(constraint("matchAttribute", "/model")))
                .containsExactly(error(field, "Invalid value: \"\": prefix must not be empty"));
        assertThat(errors(constraint("distinctAttribute", "/x")))
                .containsExactly(error(
                        "spec.devices.constraints[0].distinctAttribute",
                        "Invalid value: \"\": prefix must not be empty"));
        assertThat(errors(constraint("matchAttribute", "example.com/")))
                .containsExactly(error(field, "Invalid value: \"\": name must not be empty"));
        assertThat(errors(constraint("matchAttribute", "Example.com/model")))
                .containsExactly(error(
                        field,
                        "Invalid value: \"Example.com\": prefix: a lowercase RFC 1123 subdomain "
                                + "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
                                + "alphanumeric character (e.g. 'example.com', regex used for validation is "
                                + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
        assertThat(errors(constraint("matchAttribute", "b".repeat(64) + "/model")))
                .containsExactly(error(field, "Too long: may not be more than 63 bytes"));
        assertThat(errors(constraint("matchAttribute", "x.com/" + "m".repeat(33))))
                .containsExactly(error(field, "Too long: may not be more than 32 bytes"));
        assertThat(errors(constraint("matchAttribute", "model")))
                .containsExactly(
                        error(
                                field,
                                "Invalid value: \"model\": a fully qualified name must be a domain and a name separated by a slash"));
    }

    @Test
    void opaqueDriverOverSubdomainLength() {
        assertThat(errors(
                        "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"gpu\"},"
                                + "\"spec\":{\"config\":[{\"opaque\":{\"driver\":\"" + A254
                                + "\",\"parameters\":{}}}]}}"))
                .containsExactlyInAnyOrder(
                        error(
                                "spec.config[0].opaque.driver",
                                "Invalid value: \"" + A254 + "\": must be no more than 253 bytes"),
                        error("spec.config[0].opaque.driver", "Too long: may not be more than 63 characters"));
    }

    @Test
    void subRequestClassNameIsDeclarativeExactClassNameIsNot() {
        assertThat(errors(claim(
                        "{\"requests\":[{\"name\":\"r\",\"firstAvailable\":[{\"name\":\"s\",\"deviceClassName\":\""
                                + A254 + "\"}]}]}")))
                .containsExactly(error(
                        "spec.devices.requests[0].firstAvailable[0].deviceClassName",
                        "Invalid value: \"" + A254 + "\": must be no more than 253 bytes"));
        assertThat(errors(
                        claim("{\"requests\":[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"" + A254 + "\"}}]}")))
                .containsExactly(error(
                        "spec.devices.requests[0].exactly.deviceClassName",
                        "Invalid value: \"" + A254 + "\": must be no more than 253 characters"));
    }
}
