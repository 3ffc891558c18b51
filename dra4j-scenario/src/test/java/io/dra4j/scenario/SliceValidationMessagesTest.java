package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ResourceSlice rules of kube-apiserver 1.37: shared counters, counter consumption, device taints, binding
 * conditions and node selectors. The expected messages are what {@code oracle/validate/bin/validate-oracle} printed
 * for the same objects.
 */
class SliceValidationMessagesTest {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
            + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    private static final String NAME_PART_MSG = "name part must consist of alphanumeric characters, '-', '_' or '.', "
            + "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
            + "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

    private static List<ApiValidator.FieldError> errors(String spec) {
        return ApiValidator.defaultAndValidate(SERIALIZATION.unmarshal(
                "{\"apiVersion\":\"resource.k8s.io/v1\","
                        + "\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\"},\"spec\":{\"driver\":\"d.example.com\","
                        + "\"pool\":{\"name\":\"p\",\"resourceSliceCount\":1}," + spec + "}}",
                HasMetadata.class));
    }

    private static String device(String fields) {
        return "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"d\"," + fields + "}]";
    }

    private static ApiValidator.FieldError error(String field, String message) {
        return new ApiValidator.FieldError(field, message);
    }

    @Test
    void sharedCounterSetNameIsAShortName() {
        assertThat(errors("\"nodeName\":\"n1\",\"sharedCounters\":[{\"name\":\"Bad_Name\",\"counters\":{\"mem\":"
                        + "{\"value\":\"1\"}}}]"))
                .containsExactly(error("spec.sharedCounters[0].name", "Invalid value: \"Bad_Name\": " + LABEL_MSG));
        String a64 = "a".repeat(64);
        assertThat(errors("\"nodeName\":\"n1\",\"sharedCounters\":[{\"name\":\"" + a64 + "\",\"counters\":{\"mem\":"
                        + "{\"value\":\"1\"}}}]"))
                .containsExactly(error(
                        "spec.sharedCounters[0].name",
                        "Invalid value: \"" + a64 + "\": must be no more than 63 bytes"));
        assertThat(errors("\"nodeName\":\"n1\",\"sharedCounters\":[{\"name\":\"\",\"counters\":{\"mem\":"
                        + "{\"value\":\"1\"}}},{\"name\":\"cs\",\"counters\":{}}]"))
                .containsExactly(
                        error("spec.sharedCounters[0].name", "Required value"),
                        error("spec.sharedCounters[1].counters", "Required value"));
    }

    @Test
    void sharedCounterKeysAreShortNames() {
        String b64 = "b".repeat(64);
        assertThat(errors("\"nodeName\":\"n1\",\"sharedCounters\":[{\"name\":\"a.b\",\"counters\":{\"a.b\":"
                        + "{\"value\":\"1\"},\"" + b64 + "\":{\"value\":\"1\"}}}]"))
                .containsExactlyInAnyOrder(
                        error("spec.sharedCounters[0].name", "Invalid value: \"a.b\": must not contain dots"),
                        error("spec.sharedCounters[0].counters", "Invalid value: \"a.b\": must not contain dots"),
                        error(
                                "spec.sharedCounters[0].counters",
                                "Invalid value: \"" + b64 + "\": must be no more than 63 bytes"));
    }

    @Test
    void duplicateSharedCounterSetIsPrintedWithCanonicalQuantities() {
        assertThat(errors("\"nodeName\":\"n1\",\"sharedCounters\":[{\"name\":\"cs\",\"counters\":{\"m\":"
                        + "{\"value\":\"1000m\"}}},{\"name\":\"cs\",\"counters\":{\"m\":{\"value\":\"1000m\"},\"a\":"
                        + "{\"value\":\"2Ki\"}}}]"))
                .containsExactly(error(
                        "spec.sharedCounters[1]",
                        "Duplicate value: {\"name\":\"cs\",\"counters\":"
                                + "{\"a\":{\"value\":\"2Ki\"},\"m\":{\"value\":\"1\"}}}"));
    }

    @Test
    void consumedCounterSetIsAShortNameAndUnique() {
        assertThat(errors(device("\"consumesCounters\":[{\"counterSet\":\"Bad\",\"counters\":{\"mem\":"
                        + "{\"value\":\"1\"}}}]")))
                .containsExactly(error(
                        "spec.devices[0].consumesCounters[0].counterSet", "Invalid value: \"Bad\": " + LABEL_MSG));
        assertThat(errors(device("\"consumesCounters\":[{\"counterSet\":\"cs\",\"counters\":{\"mem\":{\"value\":"
                        + "\"1\"}}},{\"counterSet\":\"cs\",\"counters\":{\"mem\":{\"value\":\"1\"}}}]")))
                .containsExactly(error(
                        "spec.devices[0].consumesCounters[1]",
                        "Duplicate value: {\"counterSet\":" + "\"cs\",\"counters\":{\"mem\":{\"value\":\"1\"}}}"));
    }

    @Test
    void deviceTaintsAreValidatedLikeTaintRuleTaints() {
        assertThat(errors(device("\"taints\":[{\"key\":\"k\",\"effect\":\"Bogus\"},{\"key\":\"k\"}]")))
                .containsExactly(
                        error(
                                "spec.devices[0].taints[0].effect",
                                "Unsupported value: \"Bogus\": supported values: "
                                        + "\"NoExecute\", \"NoSchedule\", \"None\""),
                        error("spec.devices[0].taints[1].effect", "Required value"));
        assertThat(errors(device(
                        "\"taints\":[{\"key\":\"bad key\",\"value\":\"bad value!\",\"effect\":\"NoSchedule\"}]")))
                .containsExactly(
                        error("spec.devices[0].taints[0].key", "Invalid value: \"bad key\": " + NAME_PART_MSG),
                        error(
                                "spec.devices[0].taints[0].value",
                                "Invalid value: \"bad value!\": a valid label must be "
                                        + "an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
                                        + "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
                                        + "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"));
    }

    @Test
    void atMostSixteenDeviceTaints() {
        StringBuilder taints = new StringBuilder();
        for (int i = 0; i < 17; i++) {
            taints.append(i == 0 ? "" : ",").append("{\"key\":\"k").append(i).append("\",\"effect\":\"NoSchedule\"}");
        }
        assertThat(errors(device("\"taints\":[" + taints + "]")))
                .containsExactly(error("spec.devices[0].taints", "Too many: 17: must have at most 16 items"));
    }

    @Test
    void atMostFourBindingConditionsOfEachKind() {
        assertThat(errors(device(
                        "\"bindingConditions\":[\"a\",\"b\",\"c\",\"d\",\"e\"],\"bindingFailureConditions\":[\"f\"]")))
                .containsExactly(error("spec.devices[0].bindingConditions", "Too many: 5: must have at most 4 items"));
        assertThat(errors(device(
                        "\"bindingConditions\":[\"a\"],\"bindingFailureConditions\":[\"a\",\"b\",\"c\",\"d\",\"e\"]")))
                .containsExactlyInAnyOrder(
                        error(
                                "spec.devices[0].bindingFailureConditions[0]",
                                "Invalid value: \"a\": "
                                        + "bindingFailureConditions must not overlap with bindingConditions"),
                        error("spec.devices[0].bindingFailureConditions", "Too many: 5: must have at most 4 items"));
    }

    @Test
    void bindingConditionsAreUniqueLabelNamesAndComeInPairs() {
        assertThat(
                        errors(
                                device(
                                        "\"bindingConditions\":[\"a\",\"a\",\"bad key\"],\"bindingFailureConditions\":[\"b\",\"b\",\"\"]")))
                .containsExactlyInAnyOrder(
                        error("spec.devices[0].bindingConditions[2]", "Invalid value: \"bad key\": " + NAME_PART_MSG),
                        error(
                                "spec.devices[0].bindingFailureConditions[2]",
                                "Invalid value: \"\": name part must be non-empty"),
                        error("spec.devices[0].bindingFailureConditions[2]", "Invalid value: \"\": " + NAME_PART_MSG),
                        error("spec.devices[0].bindingConditions[1]", "Duplicate value: \"a\""),
                        error("spec.devices[0].bindingFailureConditions[1]", "Duplicate value: \"b\""));
        assertThat(errors(device("\"bindingFailureConditions\":[\"b\"]")))
                .containsExactly(error(
                        "spec.devices[0].bindingConditions",
                        "Invalid value: null: bindingConditions are required to use bindingFailureConditions"));
        assertThat(errors(device("\"bindingConditions\":[\"a\"]")))
                .containsExactly(error(
                        "spec.devices[0].bindingFailureConditions",
                        "Invalid value: null: bindingFailureConditions are required to use bindingConditions"));
    }

    @Test
    void nodeSelectorLabelRequirements() {
        String selector =
                "\"devices\":[{\"name\":\"d\"}],\"nodeSelector\":{\"nodeSelectorTerms\":[{\"matchExpressions\":["
                        + "{\"key\":\"k\",\"operator\":\"Gt\",\"values\":[\"1\",\"2\"]},{\"key\":\"k\",\"operator\":\"Exists\","
                        + "\"values\":[\"x\"]},{\"key\":\"k\",\"operator\":\"In\"},{\"key\":\"\",\"operator\":\"NotIn\",\"values\":"
                        + "[\"bad value!\"]},{\"key\":\"bad key\",\"operator\":\"Bogus\",\"values\":[\"x\"]}]}]}";
        String at = "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions";
        assertThat(errors(selector))
                .containsExactly(
                        error(
                                at + "[0].values",
                                "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"),
                        error(
                                at + "[1].values",
                                "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
                        error(
                                at + "[2].values",
                                "Required value: must be specified when `operator` is 'In' or 'NotIn'"),
                        error(at + "[3].key", "Invalid value: \"\": name part must be non-empty"),
                        error(at + "[3].key", "Invalid value: \"\": " + NAME_PART_MSG),
                        error(
                                at + "[3].values[0]",
                                "Invalid value: \"bad value!\": a valid label must be an empty string or "
                                        + "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                                        + "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
                                        + "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
                        error(at + "[4].operator", "Invalid value: \"Bogus\": not a valid selector operator"),
                        error(at + "[4].key", "Invalid value: \"bad key\": " + NAME_PART_MSG));
    }

    @Test
    void nodeSelectorFieldRequirementsAndTerms() {
        String selector = "\"devices\":[{\"name\":\"d\"}],\"nodeSelector\":{\"nodeSelectorTerms\":[{\"matchFields\":["
                + "{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"Bad_\"]},{\"key\":\"metadata.uid\","
                + "\"operator\":\"Exists\"},{\"key\":\"metadata.name\",\"operator\":\"NotIn\",\"values\":[\"a\",\"b\"]}]}]}";
        String at = "spec.nodeSelector.nodeSelectorTerms[0].matchFields";
        assertThat(errors(selector))
                .containsExactly(
                        error(
                                at + "[0].values[0]",
                                "Invalid value: \"Bad_\": a lowercase RFC 1123 subdomain must consist of "
                                        + "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
                                        + "character (e.g. 'example.com', regex used for validation is "
                                        + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
                        error(at + "[1].operator", "Invalid value: \"Exists\": not a valid selector operator"),
                        error(at + "[1].key", "Invalid value: \"metadata.uid\": not a valid field selector key"),
                        error(
                                at + "[2].values",
                                "Required value: must be only one value when `operator` is 'In' or 'NotIn' "
                                        + "for node field selector"));
        assertThat(errors("\"devices\":[{\"name\":\"d\"}],\"nodeSelector\":{\"nodeSelectorTerms\":[]}"))
                .containsExactly(
                        error(
                                "spec.nodeSelector.nodeSelectorTerms",
                                "Required value: must have at least one node selector term"),
                        error(
                                "spec.nodeSelector.nodeSelectorTerms",
                                "Invalid value: []: must have exactly one node " + "selector term"));
    }
}
