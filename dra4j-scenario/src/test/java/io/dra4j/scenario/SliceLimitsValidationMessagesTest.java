package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * ResourceSlice rules of kube-apiserver 1.37 on counter limits, per-device node selection, explicitly empty lists
 * and the fields that disabled gates drop. The expected messages, in their order, are what
 * {@code oracle/validate/bin/validate-oracle} printed for the same objects (1.37's default gates).
 */
class SliceLimitsValidationMessagesTest {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final FeatureGates DEFAULTS = FeatureGates.defaults(KubernetesVersion.V1_37);
    private static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
            + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    private static final String PER_DEVICE = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required "
            + "when `perDeviceNodeSelection` is set to true in the ResourceSlice spec";

    private static String slice(String spec) {
        return "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\"},"
                + "\"spec\":{\"driver\":\"d.example.com\",\"pool\":{\"name\":\"p\",\"resourceSliceCount\":1}," + spec
                + "}}";
    }

    private static List<ApiValidator.FieldError> errors(String spec, FeatureGates gates) {
        String json = slice(spec);
        return ApiValidator.defaultAndValidate(SERIALIZATION.unmarshal(json, HasMetadata.class), json, gates);
    }

    private static List<ApiValidator.FieldError> errors(String spec) {
        return errors(spec, DEFAULTS);
    }

    private static ApiValidator.FieldError error(String field, String message) {
        return new ApiValidator.FieldError(field, message);
    }

    private static String counters(int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> "\"c" + i + "\":{\"value\":\"1\"}")
                .collect(Collectors.joining(",", "{", "}"));
    }

    @Test
    void atMostEightCounterSets() {
        String sets = IntStream.range(0, 9)
                .mapToObj(i -> "{\"name\":\"s" + i + "\",\"counters\":{\"c\":{\"value\":\"1\"}}}")
                .collect(Collectors.joining(",", "[", "]"));
        assertThat(errors("\"nodeName\":\"n1\",\"sharedCounters\":" + sets))
                .containsExactly(error("spec.sharedCounters", "Too many: 9: must have at most 8 items"));
        String eight = IntStream.range(0, 8)
                .mapToObj(i -> "{\"name\":\"s" + i + "\",\"counters\":" + counters(32) + "}")
                .collect(Collectors.joining(",", "[", "]"));
        assertThat(errors("\"nodeName\":\"n1\",\"sharedCounters\":" + eight)).isEmpty();
    }

    @Test
    void atMostThirtyTwoCountersPerSetAndPerConsumption() {
        assertThat(errors("\"nodeName\":\"n1\",\"sharedCounters\":[{\"name\":\"Bad\",\"counters\":" + counters(33)
                        + "}]"))
                .containsExactly(
                        error("spec.sharedCounters[0].counters", "Too many: 33: must have at most 32 items"),
                        error("spec.sharedCounters[0].name", "Invalid value: \"Bad\": " + LABEL_MSG));
        assertThat(errors(
                        "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"d\",\"consumesCounters\":[{\"counterSet\":\"s\","
                                + "\"counters\":" + counters(33) + "}]}]"))
                .containsExactly(error(
                        "spec.devices[0].consumesCounters[0].counters", "Too many: 33: must have at most 32 items"));
    }

    @Test
    void perDeviceNodeSelection() {
        assertThat(errors("\"perDeviceNodeSelection\":true,\"devices\":[{\"name\":\"a\",\"nodeName\":\"n1\"},"
                        + "{\"name\":\"b\"},{\"name\":\"c\",\"nodeName\":\"\",\"allNodes\":false},{\"name\":\"d\",\"allNodes\":true,"
                        + "\"nodeSelector\":{\"nodeSelectorTerms\":[]}}]"))
                .containsExactly(
                        error("spec.devices[1]", "Required value: " + PER_DEVICE),
                        error("spec.devices[2].nodeName", "Invalid value: \"\": must not be empty"),
                        error("spec.devices[2].allNodes", "Invalid value: false: must be either unset or set to true"),
                        error("spec.devices[2]", "Required value: " + PER_DEVICE),
                        error(
                                "spec.devices[3].nodeSelector.nodeSelectorTerms",
                                "Required value: must have at least one node selector term"),
                        error("spec.devices[3]", "Invalid value: \"{`nodeSelector`, `allNodes`}\": " + PER_DEVICE));
        assertThat(errors("\"nodeName\":\"n1\",\"devices\":[{\"name\":\"a\",\"nodeName\":\"n1\"}]"))
                .containsExactly(
                        error(
                                "spec.devices[0]",
                                "Invalid value: null: `nodeName`, `nodeSelector` and "
                                        + "`allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec"));
    }

    @Test
    void explicitlyEmptyListsAreNotAbsentOnes() {
        assertThat(errors("\"nodeName\":\"n1\",\"devices\":[{\"name\":\"a\",\"bindingConditions\":[],"
                        + "\"bindingFailureConditions\":[\"x\"]},{\"name\":\"b\",\"bindingConditions\":[\"y\"],"
                        + "\"bindingFailureConditions\":[]}]"))
                .containsExactly(
                        error(
                                "spec.devices[0].bindingConditions",
                                "Invalid value: []: bindingConditions are required to use bindingFailureConditions"),
                        error(
                                "spec.devices[1].bindingFailureConditions",
                                "Invalid value: []: bindingFailureConditions are required to use bindingConditions"));
        assertThat(errors("\"nodeName\":\"n1\",\"devices\":[],\"sharedCounters\":[{\"name\":\"s\",\"counters\":"
                        + "{\"c\":{\"value\":\"1\"}}}]"))
                .containsExactly(
                        error("spec", "Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed"));
    }

    @Test
    void disabledGatesDropTheirFieldsBeforeValidation() {
        String spec = "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"a\",\"attributes\":{\"l\":{\"strings\":[\"a\"]},"
                + "\"m\":{\"int\":1,\"bools\":[true]}},\"nodeAllocatableResources\":{\"bogus\":{}}}]";
        assertThat(errors(spec))
                .containsExactly(
                        error(
                                "spec.devices[0].attributes[l]",
                                "Invalid value: \"\": must "
                                        + "specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`"));
        // With DRAListTypeAttributes on the lists stay: l is valid, m has two values.
        String json = slice(spec);
        ResourceSlice kept = SERIALIZATION.unmarshal(json, ResourceSlice.class);
        List<ApiValidator.FieldError> on =
                ApiValidator.defaultAndValidate(kept, json, DEFAULTS.with(DraFeature.DRAListTypeAttributes, true));
        assertThat(on).extracting(ApiValidator.FieldError::field).containsExactly("spec.devices[0].attributes[m]");
        assertThat(kept.getSpec().getDevices().get(0).getAttributes().get("l").getStrings())
                .containsExactly("a");
        ResourceSlice dropped = SERIALIZATION.unmarshal(json, ResourceSlice.class);
        ApiValidator.defaultAndValidate(dropped, DEFAULTS);
        assertThat(dropped.getSpec()
                        .getDevices()
                        .get(0)
                        .getAttributes()
                        .get("l")
                        .getStrings())
                .isEmpty();
        assertThat(dropped.getSpec().getDevices().get(0).getNodeAllocatableResources())
                .isEmpty();
    }

    @Test
    void theReaderValidatesWithTheGatesItIsGiven() {
        String json = slice(
                "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"a\",\"attributes\":{\"l\":{\"strings\":[\"a\"]}}}]");
        List<ManifestReader.Source> sources =
                List.of(new ManifestReader.Source("s.json", json.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        Manifests off = ManifestReader.parse(sources, true, DEFAULTS);
        assertThat(off.objects()).isEmpty();
        assertThat(off.problems()).extracting(ManifestProblem::field).containsExactly("spec.devices[0].attributes[l]");
        Manifests on = ManifestReader.parse(sources, true, DEFAULTS.with(DraFeature.DRAListTypeAttributes, true));
        assertThat(on.problems()).isEmpty();
        assertThat(on.resourceSlices()
                        .get(0)
                        .getSpec()
                        .getDevices()
                        .get(0)
                        .getAttributes()
                        .get("l")
                        .getStrings())
                .containsExactly("a");
    }
}
