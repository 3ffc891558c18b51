package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A value of the wrong JSON type is kube-apiserver's decode error (encoding/json's UnmarshalTypeError through
 * sigs.k8s.io/json): lists and maps given as something else, elements of the wrong type, structs given as a list,
 * named string types, a number or boolean where a string belongs (kubectl sends YAML's {@code Y} as a boolean), fields
 * promoted from embedded structs, and unparsable quantities, whose error ends Go's decoding and so wins over a type
 * error before or after it, and the elements of list-type attributes ({@code strings: [1]} is the decoder's error
 * whether DRAListTypeAttributes keeps the field or not).
 * Each expected message is what {@code oracle/validate/bin/validate-oracle} printed for the same object (after
 * dra4j's {@code quantity "..." cannot be parsed: }, which names the value).
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

    @Test
    void aNumberOrBooleanWhereAStringBelongs() {
        assertThat(problem(REQUEST + "{\"deviceClassName\":\"x\",\"allocationMode\":5}}]}}}"))
                .endsWith("spec.devices.requests[0].exactly.allocationMode: json: cannot unmarshal number into Go "
                        + "struct field ExactDeviceRequest.spec.devices.requests.exactly.allocationMode of type "
                        + "v1.DeviceAllocationMode");
        assertThat(problem(REQUEST + "{\"deviceClassName\":true}}]}}}"))
                .endsWith("json: cannot unmarshal bool into Go struct field "
                        + "ExactDeviceRequest.spec.devices.requests.exactly.deviceClassName of type string");
        assertThat(problem(REQUEST
                        + "{\"deviceClassName\":\"x\",\"tolerations\":[{\"key\":\"k\",\"operator\":false}]}}]}}}"))
                .endsWith("json: cannot unmarshal bool into Go struct field "
                        + "DeviceToleration.spec.devices.requests.exactly.tolerations.operator of type "
                        + "v1.DeviceTolerationOperator");
        assertThat(problem(CLAIM
                        + "\"spec\":{\"devices\":{\"config\":[{\"requests\":[7],\"opaque\":{\"driver\":\"d\"}}]}}}"))
                .endsWith("json: cannot unmarshal number into Go struct field "
                        + "DeviceClaimConfiguration.spec.devices.config.requests of type string");
        assertThat(problem(CLAIM.replace("\"namespace\":\"default\"", "\"namespace\":\"default\",\"labels\":{\"a\":1}")
                        + "\"spec\":{}}"))
                .endsWith("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type "
                        + "string");
    }

    @Test
    void yamlScalarsArriveAsKubectlSendsThem() {
        String yaml = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n"
                + "  driver: d.example.com\n  pool: {name: p, resourceSliceCount: 1}\n  nodeName: n1\n"
                + "  devices:\n  - name: d\n    attributes:\n      flag: {string: Y}\n";
        assertThat(problem(yaml))
                .endsWith("json: cannot unmarshal bool into Go struct field DeviceAttribute.spec.devices.attributes"
                        + ".string of type string");
    }

    @Test
    void fieldsOfEmbeddedStructsNameThem() {
        assertThat(
                        problem(
                                CLAIM + "\"spec\":{\"devices\":{\"requests\":[{\"name\":\"a\",\"exactly\":"
                                        + "{\"deviceClassName\":\"x\"}}],\"config\":[{\"requests\":[\"a\"],\"opaque\":{\"driver\":1.5}}]}}}"))
                .endsWith("json: cannot unmarshal number into Go struct field "
                        + "OpaqueDeviceConfiguration.spec.devices.config.DeviceConfiguration.opaque.driver of type "
                        + "string");
        assertThat(problem("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":"
                        + "{\"name\":\"c\"},\"spec\":{\"config\":[{\"opaque\":true}]}}"))
                .endsWith("json: cannot unmarshal bool into Go struct field "
                        + "DeviceClassConfiguration.spec.config.DeviceConfiguration.opaque of type "
                        + "v1.OpaqueDeviceConfiguration");
        assertThat(problem("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":[],"
                        + "\"spec\":{}}"))
                .endsWith("json: cannot unmarshal array into Go struct field DeviceClass.metadata of type "
                        + "v1.ObjectMeta");
    }

    private static final String FORMAT_WRONG =
            "cannot be parsed: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

    @Test
    void anUnparsableQuantityEndsDecoding() {
        String device = SLICE + "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"d\",\"capacity\":{\"m\":{\"value\":";
        assertThat(problem(device + "[1]}}}]}}"))
                .endsWith("spec.devices[0].capacity.m.value: quantity \"[1]\" " + FORMAT_WRONG);
        assertThat(problem(device + "{\"a\":1}}}}]}}")).endsWith("quantity \"{\"a\":1}\" " + FORMAT_WRONG);
        // After a type error (nodeName), and before one (attributes.a.int): the quantity's error either way.
        assertThat(problem(SLICE.replace("\"p\",", "\"p\",") + "\"nodeName\":5,\"devices\":[{\"name\":\"d\","
                        + "\"capacity\":{\"m\":{\"value\":\"1x\"}}}]}}"))
                .endsWith("quantity \"1x\" " + FORMAT_WRONG);
        assertThat(problem(device + "\"1x\"}},\"attributes\":{\"a\":{\"int\":\"x\"}}}]}}"))
                .endsWith("quantity \"1x\" " + FORMAT_WRONG);
        // A quantity inside a value of the wrong type is not decoded: the type error stays.
        assertThat(problem(
                        SLICE + "\"nodeName\":\"n1\",\"devices\":[{\"name\":7,\"capacity\":[{\"value\":\"1x\"}]}]}}"))
                .endsWith("json: cannot unmarshal number into Go struct field Device.spec.devices.name of type "
                        + "string");
    }

    @Test
    void anElementOfTheWrongTypeInAListTypeAttribute() {
        String attribute = SLICE + "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"d\",\"attributes\":{\"a\":";
        String go =
                "json: cannot unmarshal %s into Go struct field DeviceAttribute.spec.devices.attributes.%s of type %s";
        assertThat(problem(attribute + "{\"strings\":[\"a\",1]}}}]}}"))
                .endsWith(String.format(go, "number", "strings", "string"));
        assertThat(problem(attribute + "{\"ints\":[\"x\"]}}}]}}"))
                .endsWith(String.format(go, "string", "ints", "int64"));
        assertThat(problem(attribute + "{\"ints\":[1.5]}}}]}}"))
                .endsWith(String.format(go, "number 1.5", "ints", "int64"));
        assertThat(problem(attribute + "{\"ints\":[{}]}}}]}}")).endsWith(String.format(go, "object", "ints", "int64"));
        assertThat(problem(attribute + "{\"bools\":[1]}}}]}}")).endsWith(String.format(go, "number", "bools", "bool"));
        assertThat(problem(attribute + "{\"versions\":[true]}}}]}}"))
                .endsWith(String.format(go, "bool", "versions", "string"));
        assertThat(problem(attribute + "{\"strings\":\"a\"}}}]}}"))
                .endsWith(String.format(go, "string", "strings", "[]string"));
    }

    @Test
    void aStructGivenAsAScalarIsNotBuiltFromIt() {
        for (String value : List.of("\"x\"", "5", "true")) {
            assertThat(problem(REQUEST + "{\"deviceClassName\":\"x\",\"selectors\":[{\"cel\":" + value + "}]}}]}}}"))
                    .endsWith("json: cannot unmarshal "
                            + (value.equals("5") ? "number" : value.equals("true") ? "bool" : "string")
                            + " into Go struct field DeviceSelector.spec.devices.requests.exactly.selectors.cel of type "
                            + "v1.CELDeviceSelector");
        }
    }
}
