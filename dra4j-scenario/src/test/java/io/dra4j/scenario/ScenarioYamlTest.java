package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The YAML problems of issue 9 through the scenario reader: aliases, merge keys, numbers, positions in errors. */
class ScenarioYamlTest {
    private static final String SCENARIO = """
            name: yaml
            node:
              name: node-1
            gpu: &gpu
              model:
                string: h100
            resourceSlices:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceSlice
              metadata:
                name: slice-1
              spec:
                driver: gpu.example.com
                pool: {name: pool-1, generation: 1, resourceSliceCount: 1}
                nodeName: node-1
                devices:
                - name: gpu-0
                  attributes: *gpu
                - name: gpu-1
                  attributes:
                    <<: *gpu
                    numa:
                      int: 1
            claims:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceClaim
              metadata:
                name: claim-0
              spec:
                devices:
                  requests:
                  - name: req-0
                    exactly:
                      deviceClassName: gpu
                      count: 1
            """;

    @TempDir
    Path dir;

    private Path write(String content) throws IOException {
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, content);
        return file;
    }

    private String failure(String content) throws IOException {
        Path file = write(content);
        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioReader.read(file));
        assertThat(e).as("reading should fail").isNotNull();
        return e.getMessage();
    }

    /** SCENARIO without anchors, aliases and merge keys. */
    private static final String PLAIN = SCENARIO.replace("gpu: &gpu\n  model:\n    string: h100\n", "")
            .replace("      attributes: *gpu\n", "")
            .replace("      attributes:\n        <<: *gpu\n        numa:\n          int: 1\n", "");

    @Test
    void aliasAndMergeKeyResolveInsideObjects() throws Exception {
        String text = SCENARIO.replace("name: yaml\n", "name: yaml\nnotes: &n shared note\nsource: *n\n")
                .replace("gpu: &gpu\n  model:\n    string: h100\n", "");
        text = text.replace("attributes: *gpu", "attributes: &gpu\n        model:\n          string: h100");
        Scenario s = ScenarioReader.read(write(text));
        assertThat(s.source()).isEqualTo("shared note");
        Device gpu0 = s.resourceSlices().get(0).getSpec().getDevices().get(0);
        Device gpu1 = s.resourceSlices().get(0).getSpec().getDevices().get(1);
        assertThat(gpu0.getAttributes().get("model").getString()).isEqualTo("h100");
        assertThat(gpu1.getAttributes().get("model").getString()).isEqualTo("h100");
        assertThat(gpu1.getAttributes().get("numa").getInt()).isEqualTo(1L);
        assertThat(gpu1.getAttributes()).doesNotContainKey("<<");
    }

    @Test
    void unknownTopLevelKeyHoldingAnAnchorIsStillUnknown() throws IOException {
        assertThat(failure(SCENARIO)).contains("line 4, column 6: gpu: unknown key \"gpu\"");
    }

    @Test
    void fractionalCountIsRejectedNotTruncated() throws IOException {
        String text = PLAIN.replace("count: 1", "count: 1.5");
        assertThat(failure(text))
                .contains(
                        "line 27, column 18: claims[0] (ResourceClaim claim-0): spec.devices.requests[0].exactly.count: "
                                // validate-oracle's words for the same claim as JSON (kube-apiserver's decoder).
                                + "json: cannot unmarshal number 1.5 into Go struct field "
                                + "ExactDeviceRequest.spec.devices.requests.exactly.count of type int64");
    }

    @Test
    void countAsStringIsRejected() throws IOException {
        String text = PLAIN.replace("count: 1", "count: \"2\"");
        assertThat(failure(text))
                .contains("spec.devices.requests[0].exactly.count: json: cannot unmarshal string into Go struct "
                        + "field ExactDeviceRequest.spec.devices.requests.exactly.count of type int64");
    }

    @Test
    void integralFloatCountIsAnIntegerAsForKubectl() throws Exception {
        String text = PLAIN.replace("count: 1", "count: 2.0");
        Scenario s = ScenarioReader.read(write(text));
        assertThat(s.claims()
                        .get(0)
                        .getSpec()
                        .getDevices()
                        .getRequests()
                        .get(0)
                        .getExactly()
                        .getCount())
                .isEqualTo(2L);
    }

    @Test
    void yaml11BooleanIntoAStringFieldBecomesItsTextAsInSigsYaml() throws Exception {
        String text = PLAIN.replace(
                "- name: gpu-1\n",
                "- name: gpu-1\n      attributes:\n        flag: {string: Y}\n        hex: {string: 0x10}\n");
        Scenario s = ScenarioReader.read(write(text));
        var attributes = s.resourceSlices().get(0).getSpec().getDevices().get(1).getAttributes();
        assertThat(attributes.get("flag").getString()).isEqualTo("true");
        assertThat(attributes.get("hex").getString()).isEqualTo("16");
    }

    @Test
    void aliasOfAnAttributeValueGivesTheValue() throws Exception {
        String text = PLAIN.replace(
                "- name: gpu-1\n",
                "- name: gpu-1\n      attributes:\n        model: {string: &m h100}\n        model2: {string: *m}\n");
        Scenario s = ScenarioReader.read(write(text));
        assertThat(s.resourceSlices()
                        .get(0)
                        .getSpec()
                        .getDevices()
                        .get(1)
                        .getAttributes()
                        .get("model2")
                        .getString())
                .isEqualTo("h100");
    }

    @Test
    void unknownFieldErrorNamesItsLine() throws IOException {
        String text = PLAIN.replace("- name: gpu-0\n", "- name: gpu-0\n      colour: red\n");
        assertThat(failure(text))
                .contains(
                        "line 15, column 15: resourceSlices[0] (ResourceSlice slice-1): spec.devices[0].colour: unknown field \"colour\"");
    }
}
