package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApiConverterTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/convert");
    private final ApiConverter converter = new ApiConverter();

    /**
     * A Helm-rendered file: the Deployment and the documents that cannot be converted stay byte for byte, the
     * v1beta1 template and the 1.32 v1alpha3 slice become v1, and every problem names its line. The v1 output's
     * correctness is the differential test's business (the same shapes are in its manifests); this pins the text.
     */
    @Test
    void helmRenderedFile() throws IOException {
        String input = Files.readString(GOLDEN.resolve("helm-rendered.yaml"));
        ApiConverter.Result result = converter.toV1("helm-rendered.yaml", input);
        assertThat(result.output()).isEqualTo(Files.readString(GOLDEN.resolve("helm-rendered.v1.yaml")));
        assertThat(result.findings().stream().map(Finding::format))
                .containsExactlyElementsOf(Files.readAllLines(GOLDEN.resolve("helm-rendered.findings")));
        assertThat(result.documents()).isEqualTo(6);
        assertThat(result.converted()).isEqualTo(2);
    }

    @Test
    void documentsKeptAsWrittenAreByteForByte() {
        String deployment = "apiVersion: apps/v1   # comment\nkind: Deployment\nmetadata: {name: x}\n";
        String v1 = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n    name: gpu # four spaces\n";
        String text = "# leading comment\n---\n" + deployment + "---\n" + v1 + "---\n# nothing but a comment\n";
        ApiConverter.Result result = converter.toV1("f.yaml", text);
        assertThat(result.output()).isEqualTo(text);
        assertThat(result.documents()).isEqualTo(2);
        assertThat(result.findings()).isEmpty();
        assertThat(result.converted()).isZero();
    }

    /** 1.31's classic DRA fields have no v1 form: an empty controller is dropped, a set one stops the claim. */
    @Test
    void classicDraFieldsOf131() {
        String claim = """
                apiVersion: resource.k8s.io/v1alpha3
                kind: ResourceClaim
                metadata: {name: c, namespace: ns}
                spec:
                  controller: ""
                  devices:
                    requests:
                    - name: gpu
                      deviceClassName: gpu.example.com
                      adminAccess: false
                status:
                  deallocationRequested: false
                """;
        ApiConverter.Result result = converter.toV1("c.yaml", claim);
        assertThat(result.hasErrors()).isFalse();
        assertThat(result.output())
                .contains("apiVersion: resource.k8s.io/v1\n")
                .contains("      exactly:\n        deviceClassName: gpu.example.com\n        adminAccess: false\n")
                .doesNotContain("controller")
                .doesNotContain("deallocationRequested");
        assertThat(result.findings().stream().map(Finding::format))
                .containsExactly(
                        "c.yaml:5:3: info: no-v1-form: ResourceClaim ns/c: spec.controller (1.31 classic DRA) is empty and "
                                + "was dropped",
                        "c.yaml:12:3: warning: no-v1-form: ResourceClaim ns/c: status.deallocationRequested has no v1 form "
                                + "and was dropped: it was used by classic DRA's control-plane controllers (removed in 1.32)");

        ApiConverter.Result controlled =
                converter.toV1("c.yaml", claim.replace("controller: \"\"", "controller: gpu.example.com"));
        assertThat(controlled.hasErrors()).isTrue();
        assertThat(controlled.output()).isEqualTo(claim.replace("controller: \"\"", "controller: gpu.example.com"));
        assertThat(controlled.findings().get(0).format())
                .startsWith("c.yaml:5:3: error: no-v1-form: ResourceClaim "
                        + "ns/c: spec.controller: a claim allocated by a control-plane controller");
    }

    @Test
    void taintRuleSelectingByClassHasNoV1Form() {
        String rule = """
                apiVersion: resource.k8s.io/v1alpha3
                kind: DeviceTaintRule
                metadata: {name: r}
                spec:
                  deviceSelector:
                    deviceClassName: gpu.example.com
                  taint: {key: k, effect: NoSchedule}
                """;
        ApiConverter.Result result = converter.toV1("r.yaml", rule);
        assertThat(result.output()).isEqualTo(rule);
        assertThat(result.findings()).hasSize(1);
        assertThat(result.findings().get(0).format())
                .startsWith("r.yaml:6:5: error: no-v1-form: DeviceTaintRule r: "
                        + "spec.deviceSelector.deviceClassName has no v1 form: 1.35 removed class and CEL selection");
    }

    @Test
    void wrongVersionShapesAreNamed() {
        String v1ShapeInBeta1 = """
                apiVersion: resource.k8s.io/v1beta1
                kind: ResourceClaim
                metadata: {name: c}
                spec:
                  devices:
                    requests:
                    - name: gpu
                      exactly: {deviceClassName: gpu}
                """;
        List<String> findings = converter.toV1("c.yaml", v1ShapeInBeta1).findings().stream()
                .map(Finding::format)
                .toList();
        assertThat(findings)
                .containsExactly("c.yaml:8:7: error: unknown-field: ResourceClaim c: unknown field "
                        + "\"spec.devices.requests[0].exactly\"; exactly is the v1beta2 and v1 form, in v1beta1 the "
                        + "request's fields sit at the request");
        String beta1InV1 = v1ShapeInBeta1
                .replace("v1beta1", "v1")
                .replace("exactly: {deviceClassName: gpu}", "deviceClassName: gpu");
        ApiConverter.Result result = converter.toV1("c.yaml", beta1InV1);
        assertThat(result.output()).isEqualTo(beta1InV1);
        assertThat(result.findings().stream().map(Finding::format))
                .containsExactly("c.yaml:8:7: error: "
                        + "unknown-field: ResourceClaim c: unknown field \"spec.devices.requests[0].deviceClassName\"; in "
                        + "v1beta2 and v1 it sits under exactly (requests[].exactly.deviceClassName)");
    }
}
