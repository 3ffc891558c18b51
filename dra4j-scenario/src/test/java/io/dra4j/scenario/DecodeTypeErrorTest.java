package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A value of the wrong JSON type is kube-apiserver's decode error (encoding/json's UnmarshalTypeError through
 * sigs.k8s.io/json): lists and maps given as something else, elements of the wrong type, structs given as a list,
 * and named string types. (A number where a string belongs is still read as its text, as Jackson's string
 * deserializer reads it; list-type attribute values are read from the object as written and validated there.) Each expected message is what {@code oracle/validate/bin/validate-oracle} printed for the
 * same object.
 */
class DecodeTypeErrorTest {
    private static final String CLAIM = "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
            + "\"metadata\":{\"name\":\"c\",\"namespace\":\"default\"},";
    private static final String REQUEST = CLAIM + "\"spec\":{\"devices\":{\"requests\":[{\"name\":\"a\",\"exactly\":";
    private static final String SLICE = "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\","
            + "\"metadata\":{\"name\":\"s\"},\"spec\":{\"driver\":\"d.example.com\",\"pool\":{\"name\":\"p\","
            + "\"resourceSliceCount\":1},";

    private static String problem(String json) {
        Manifests m = ManifestReader.parse(
                List.of(new ManifestReader.Source("in.json", json.getBytes(StandardCharsets.UTF_8))), true);
        assertThat(m.problems()).hasSize(1);
        return m.problems().get(0).describe();
    }

    @Test
    void aListOrMapGivenAsSomethingElse() {
        assertThat(problem(CLAIM + "\"spec\":{\"devices\":{\"requests\":{\"a\":1}}}}"))
                .endsWith("spec.devices.requests: json: cannot unmarshal object into Go struct field "
                        + "DeviceClaim.spec.devices.requests of type []v1.DeviceRequest");
        assertThat(problem(SLICE + "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"d\",\"attributes\":[1]}]}}"))
                .endsWith("json: cannot unmarshal array into Go struct field Device.spec.devices.attributes of type "
                        + "map[v1.QualifiedName]v1.DeviceAttribute");
        assertThat(problem(REQUEST + "{\"deviceClassName\":\"x\",\"selectors\":\"abc\"}}]}}}"))
                .endsWith("json: cannot unmarshal string into Go struct field "
                        + "ExactDeviceRequest.spec.devices.requests.exactly.selectors of type []v1.DeviceSelector");
        assertThat(problem(REQUEST + "{\"deviceClassName\":\"x\",\"capacity\":{\"requests\":[1]}}}]}}}"))
                .endsWith("json: cannot unmarshal array into Go struct field "
                        + "CapacityRequirements.spec.devices.requests.exactly.capacity.requests of type "
                        + "map[v1.QualifiedName]resource.Quantity");
        assertThat(problem(SLICE + "\"nodeSelector\":{\"nodeSelectorTerms\":{\"a\":1}},\"devices\":[]}}"))
                .endsWith("json: cannot unmarshal object into Go struct field NodeSelector.spec.nodeSelector"
                        + ".nodeSelectorTerms of type []v1.NodeSelectorTerm");
        assertThat(problem(SLICE + "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"d\",\"consumesCounters\":["
                        + "{\"counterSet\":\"x\",\"counters\":[1]}]}]}}"))
                .endsWith("json: cannot unmarshal array into Go struct field DeviceCounterConsumption.spec.devices"
                        + ".consumesCounters.counters of type map[string]v1.Counter");
        assertThat(problem(CLAIM + "\"spec\":[1]}"))
                .endsWith("json: cannot unmarshal array into Go struct field ResourceClaim.spec of type "
                        + "v1.ResourceClaimSpec");
    }

    @Test
    void anElementOfTheWrongType() {
        assertThat(problem(REQUEST + "{\"deviceClassName\":\"x\",\"selectors\":[1]}}]}}}"))
                .endsWith("json: cannot unmarshal number into Go struct field "
                        + "ExactDeviceRequest.spec.devices.requests.exactly.selectors of type v1.DeviceSelector");
        assertThat(problem(SLICE + "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"d\",\"attributes\":{\"a\":[1]}}]}}"))
                .endsWith("json: cannot unmarshal array into Go struct field Device.spec.devices.attributes of type "
                        + "v1.DeviceAttribute");
        assertThat(problem(CLAIM.replace("\"namespace\":\"default\"", "\"namespace\":\"default\",\"labels\":[1]")
                        + "\"spec\":{}}"))
                .endsWith("json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type "
                        + "map[string]string");
    }

    @Test
    void namedStringTypesAreNamed() {
        assertThat(problem(REQUEST + "{\"deviceClassName\":\"x\",\"allocationMode\":[1]}}]}}}"))
                .endsWith("json: cannot unmarshal array into Go struct field "
                        + "ExactDeviceRequest.spec.devices.requests.exactly.allocationMode of type "
                        + "v1.DeviceAllocationMode");
        assertThat(problem(REQUEST
                        + "{\"deviceClassName\":\"x\",\"tolerations\":[{\"key\":\"k\",\"operator\":{\"a\":1}}]}}]}}}"))
                .endsWith("json: cannot unmarshal object into Go struct field "
                        + "DeviceToleration.spec.devices.requests.exactly.tolerations.operator of type "
                        + "v1.DeviceTolerationOperator");
    }
}
