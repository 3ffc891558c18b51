package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The claim strategies drop the spec fields of disabled features before validating (pkg/api/resourceclaimspec
 * DropDisabledFields). The expected errors are what {@code oracle/validate/bin/validate-oracle -feature-gates ...}
 * printed for the same template with the same gates.
 */
class ClaimFieldDropsTest {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String TEMPLATE = "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaimTemplate\","
            + "\"metadata\":{\"name\":\"c\",\"namespace\":\"d\"},\"spec\":{\"spec\":{\"devices\":{\"requests\":["
            + "{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"g\",\"tolerations\":[{\"key\":\"BAD KEY\","
            + "\"operator\":\"Exists\"}],\"capacity\":{\"requests\":{\"mem\":\"1Gi\"}}}},"
            + "{\"name\":\"s\",\"firstAvailable\":[{\"name\":\"a\",\"deviceClassName\":\"g\",\"tolerations\":"
            + "[{\"key\":\"BAD KEY\",\"operator\":\"Exists\"}]}]}],"
            + "\"constraints\":[{\"distinctAttribute\":\"x.example.com/m\"}]}}}}";
    private static final String KEY_MESSAGE = "Invalid value: \"BAD KEY\": name part must consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
            + "'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    private static final FeatureGates WITHOUT_TAINTS =
            FeatureGates.defaults().with(DraFeature.DRADeviceTaints, false).with(DraFeature.DRADeviceTaintRules, false);

    private static ResourceClaimTemplate template() {
        return SERIALIZATION.unmarshal(TEMPLATE, ResourceClaimTemplate.class);
    }

    @Test
    void withTheDefaultGatesTolerationsAreValidated() {
        assertThat(ApiValidator.defaultAndValidate(template(), TEMPLATE, FeatureGates.defaults()))
                .containsExactly(
                        new ApiValidator.FieldError(
                                "spec.spec.devices.requests[0].exactly.tolerations[0].key", KEY_MESSAGE),
                        new ApiValidator.FieldError(
                                "spec.spec.devices.requests[1].firstAvailable[0].tolerations[0].key", KEY_MESSAGE));
    }

    @Test
    void withoutDeviceTaintsTolerationsAreDroppedAndTheTemplateIsAccepted() {
        ResourceClaimTemplate t = template();

        assertThat(ApiValidator.defaultAndValidate(t, TEMPLATE, WITHOUT_TAINTS)).isEmpty();
        List<DeviceRequest> requests = t.getSpec().getSpec().getDevices().getRequests();
        assertThat(requests.get(0).getExactly().getTolerations()).isEmpty();
        assertThat(requests.get(1).getFirstAvailable().get(0).getTolerations()).isEmpty();
        assertThat(requests.get(0).getExactly().getCapacity()).isNotNull();
    }

    @Test
    void withoutConsumableCapacityADistinctAttributeIsDroppedAndTheConstraintNeedsMatchAttribute() {
        ResourceClaimTemplate t = template();

        assertThat(ApiValidator.defaultAndValidate(
                        t, TEMPLATE, WITHOUT_TAINTS.with(DraFeature.DRAConsumableCapacity, false)))
                .containsExactly(new ApiValidator.FieldError(
                        "spec.spec.devices.constraints[0].matchAttribute", "Required value"));
        assertThat(t.getSpec().getSpec().getDevices().getConstraints().get(0).getDistinctAttribute())
                .isNull();
        assertThat(t.getSpec()
                        .getSpec()
                        .getDevices()
                        .getRequests()
                        .get(0)
                        .getExactly()
                        .getCapacity())
                .isNull();
    }

    @Test
    void withoutThePrioritizedListFirstAvailableIsDroppedAndTheRequestNeedsExactly() {
        // 1.37 locks DRAPrioritizedList on; kube-apiserver 1.34 (beta, on by default) could turn it off.
        ResourceClaimTemplate t = template();

        List<ApiValidator.FieldError> errors = ApiValidator.defaultAndValidate(
                t, TEMPLATE, FeatureGates.defaults().with(DraFeature.DRAPrioritizedList, false));

        assertThat(t.getSpec().getSpec().getDevices().getRequests().get(1).getFirstAvailable())
                .isEmpty();
        assertThat(errors)
                .contains(new ApiValidator.FieldError(
                        "spec.spec.devices.requests[1]",
                        "Required value: exactly one of `exactly` or `firstAvailable` is required"));
    }
}
