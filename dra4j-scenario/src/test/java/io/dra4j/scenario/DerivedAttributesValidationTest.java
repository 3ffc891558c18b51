package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/**
 * A request's derivedAttributes (alpha DRADerivedAttributes in 1.37) are validated when the gate keeps them and dropped
 * when it is off: names used by a constraint of the request (its own, its parent's or every request's), no duplicate
 * names, expressions compiled with a derived attribute's result types (a list only with DRAListTypeAttributes) and
 * priced alone and together, and declaratively names and expressions required, names fully qualified. The expected
 * errors are what {@code oracle/validate/bin/validate-oracle -feature-gates ...} printed for the same claims.
 */
class DerivedAttributesValidationTest {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String CLAIM =
            "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"req-0\",\"exactly\":{\"deviceClassName\":\"gpu\",\"derivedAttributes\":[{\"name\":\"derived/numa\",\"expression\":\"device.driver\"},{\"name\":\"derived/unused\",\"expression\":\"1.5\"},{\"name\":\"bad name\",\"expression\":\"\"},{\"name\":\"derived/numa\",\"expression\":\"1\"},{\"name\":\"derived/x\",\"expression\":\"device.attributes.all(a, device.attributes.all(c, device.attributes[a].all(b, device.driver.matches(b + c))))\"}]}},{\"name\":\"req-1\",\"firstAvailable\":[{\"name\":\"sub-0\",\"deviceClassName\":\"gpu\",\"derivedAttributes\":[{\"name\":\"derived/p\",\"expression\":\"[\\\"a\\\"]\"}]}]}],\"constraints\":[{\"requests\":[\"req-0\"],\"matchAttribute\":\"derived/numa\"},{\"matchAttribute\":\"derived/x\"},{\"requests\":[\"req-1\"],\"distinctAttribute\":\"derived/p\"}]}}}";
    /** Two expressions each within the limit (estimated 563,395), over it together. */
    private static final String TOGETHER =
            "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"req-0\",\"exactly\":{\"deviceClassName\":\"gpu\",\"derivedAttributes\":[{\"name\":\"derived/a\",\"expression\":\"device.attributes.all(a, device.attributes.all(b, device.attributes.exists(c, device.driver == device.attributes[\\\"gpu.example.com\\\"].model)))\"}]}},{\"name\":\"req-1\",\"exactly\":{\"deviceClassName\":\"gpu\",\"derivedAttributes\":[{\"name\":\"derived/a\",\"expression\":\"device.attributes.all(a, device.attributes.all(b, device.attributes.exists(c, device.driver == device.attributes[\\\"gpu.example.com\\\"].model)))\"}]}}],\"constraints\":[{\"matchAttribute\":\"derived/a\"}]}}}";

    private static final FeatureGates ON =
            FeatureGates.defaults(KubernetesVersion.V1_37).with(DraFeature.DRADerivedAttributes, true);

    private static java.util.List<ApiValidator.FieldError> errors(String json, FeatureGates gates) {
        return ApiValidator.defaultAndValidate(SERIALIZATION.unmarshal(json, ResourceClaim.class), json, gates);
    }

    @Test
    void validatedWithTheGate() {
        assertThat(errors(CLAIM, ON))
                .containsExactly(
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[1].name",
                                "Invalid value: \"derived/unused\": must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[1].expression",
                                "Invalid value: \"1.5\": must evaluate to a primitive scalar (string, integer, boolean, semver), not double"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[2].name",
                                "Invalid value: \"bad name\": must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[4].expression",
                                "Forbidden: too complex, exceeds cost limit"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[3]",
                                "Duplicate value: \"derived/numa\""),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[1].firstAvailable[0].derivedAttributes[0].expression",
                                "Invalid value: \"[\\\"a\\\"]\": must evaluate to a primitive scalar (string, integer, boolean, semver), not list(string)"),
                        new ApiValidator.FieldError(
                                "spec.devices",
                                "Forbidden: too complex, total cost of derived attribute CEL expressions in the claim exceeds cost limit"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[2].name",
                                "Invalid value: \"bad name\": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[2].name",
                                "Invalid value: \"bad name\": a fully qualified name must be a domain and a name separated by a slash"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[2].expression", "Required value"));
        assertThat(errors(TOGETHER, ON))
                .containsExactly(
                        new ApiValidator.FieldError(
                                "spec.devices",
                                "Forbidden: too complex, total cost of derived attribute CEL expressions in the claim exceeds cost limit"));
    }

    @Test
    void aListResultNeedsListTypeAttributes() {
        assertThat(errors(CLAIM, ON.with(DraFeature.DRAListTypeAttributes, true)))
                .containsExactly(
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[1].name",
                                "Invalid value: \"derived/unused\": must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[1].expression",
                                "Invalid value: \"1.5\": must evaluate to a primitive scalar (string, integer, boolean, semver) or a list of these scalars, not double"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[2].name",
                                "Invalid value: \"bad name\": must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[4].expression",
                                "Forbidden: too complex, exceeds cost limit"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[3]",
                                "Duplicate value: \"derived/numa\""),
                        new ApiValidator.FieldError(
                                "spec.devices",
                                "Forbidden: too complex, total cost of derived attribute CEL expressions in the claim exceeds cost limit"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[2].name",
                                "Invalid value: \"bad name\": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[2].name",
                                "Invalid value: \"bad name\": a fully qualified name must be a domain and a name separated by a slash"),
                        new ApiValidator.FieldError(
                                "spec.devices.requests[0].exactly.derivedAttributes[2].expression", "Required value"));
    }

    @Test
    void droppedWithoutTheGate() {
        assertThat(errors(CLAIM, FeatureGates.defaults(KubernetesVersion.V1_37)))
                .isEmpty();
        assertThat(errors(TOGETHER, FeatureGates.defaults(KubernetesVersion.V1_37)))
                .isEmpty();
    }
}
