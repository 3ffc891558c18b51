package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class LintTest {
    private static String resource(String name) throws IOException {
        try (InputStream in = LintTest.class.getResourceAsStream("/lint/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<Finding> lint(String release, Map<String, Boolean> gates, String text, boolean snapshot)
            throws IOException {
        return Lint.forRelease(release, gates)
                .lint(
                        List.of(new Lint.Input("m.yaml", text)),
                        snapshot ? List.of(new Lint.Input("snap.yaml", resource("snapshot.yaml"))) : List.of(),
                        snapshot);
    }

    private static List<String> lines(List<Finding> findings) {
        return findings.stream()
                .map(f -> f.source() + ":" + f.line() + " " + f.severity().word() + " " + f.rule())
                .toList();
    }

    @Test
    void teamManifestsAgainstTheSnapshotOn137() throws IOException {
        String text = resource("team-a.yaml");
        List<Finding> findings = lint("1.37", Map.of(), text, true);
        assertThat(lines(findings))
                .containsExactly(
                        "m.yaml:3 warning api-version-off-by-default",
                        "m.yaml:7 warning duplicate-device-class",
                        "m.yaml:12 warning api-version-off-by-default",
                        "m.yaml:17 error claim-unsatisfiable",
                        "m.yaml:23 warning selector-matches-nothing",
                        "m.yaml:32 error claim-unsatisfiable",
                        "m.yaml:54 error cel-compile",
                        "m.yaml:86 info node-label-hardware",
                        "m.yaml:104 warning quota-no-longer-limits",
                        "snap.yaml:13 warning device-double-advertised");
        assertThat(findings.get(0).message())
                .contains("--runtime-config=resource.k8s.io/v1beta1=true", "deprecated since 1.35, removed in 1.38");
        assertThat(findings.get(1).message()).contains("DeviceClass team-a-gpu", "DeviceClass gpu.nvidia.com");
        assertThat(findings.get(5).message())
                .contains("ResourceClaimTemplate team-a/four-gpus", "no node of the snapshot (2)");
        // Three trainer pods each with four GPUs, the fallback claim's two and the broken claim's one.
        assertThat(findings.get(8).message())
                .contains("gpu.nvidia.com.deviceclass.resource.k8s.io/devices", "charge 15");
        assertThat(findings.get(9).message()).contains("Node gpu-a", "nvidia.com/gpu: 2", "2 matching device(s)");
    }

    @Test
    void daemonSetsChargeTheirTemplatesOncePerNodeTheyRunOn() throws IOException {
        String text = """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: one-gpu, namespace: team-b}
                spec:
                  spec:
                    devices:
                      requests:
                      - name: gpu
                        exactly: {deviceClassName: gpu.nvidia.com}
                ---
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: everywhere, namespace: team-b}
                spec:
                  selector: {matchLabels: {app: e}}
                  template:
                    metadata: {labels: {app: e}}
                    spec:
                      containers:
                      - {name: c, image: x, resources: {claims: [{name: gpu}]}}
                      resourceClaims:
                      - {name: gpu, resourceClaimTemplateName: one-gpu}
                ---
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: only-b, namespace: team-b}
                spec:
                  selector: {matchLabels: {app: b}}
                  template:
                    metadata: {labels: {app: b}}
                    spec:
                      nodeSelector: {kubernetes.io/hostname: gpu-b}
                      containers:
                      - {name: c, image: x, resources: {claims: [{name: gpu}]}}
                      resourceClaims:
                      - {name: gpu, resourceClaimTemplateName: one-gpu}
                ---
                apiVersion: v1
                kind: ResourceQuota
                metadata: {name: gpus, namespace: team-b}
                spec:
                  hard:
                    requests.nvidia.com/gpu: "8"
                """;
        List<Finding> quota = lint("1.37", Map.of(), text, true).stream()
                .filter(f -> f.rule().equals("quota-no-longer-limits"))
                .toList();
        // The snapshot's two nodes run a pod of "everywhere" each, and gpu-b one of "only-b".
        assertThat(quota)
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .contains("gpu.nvidia.com.deviceclass.resource.k8s.io/devices", "charge 3"));
        // Without the nodes a DaemonSet's pods are unknown: nothing charged.
        assertThat(lint("1.37", Map.of(), text, false))
                .filteredOn(f -> f.rule().equals("quota-no-longer-limits"))
                .singleElement()
                .satisfies(f -> assertThat(f.message()).doesNotContain("claims charge"));
    }

    @Test
    void jobsChargeTheirTemplatesForThePodsTheirControllerKeepsActive() throws IOException {
        String text = """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: one-gpu, namespace: team-b}
                spec:
                  spec:
                    devices:
                      requests:
                      - name: gpu
                        exactly: {deviceClassName: gpu.nvidia.com}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: two-left, namespace: team-b}
                spec:
                  parallelism: 4
                  completions: 5
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - {name: c, image: x, resources: {claims: [{name: gpu}]}}
                      resourceClaims:
                      - {name: gpu, resourceClaimTemplateName: one-gpu}
                status: {succeeded: 3}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: held, namespace: team-b}
                spec:
                  parallelism: 8
                  suspend: true
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - {name: c, image: x, resources: {claims: [{name: gpu}]}}
                      resourceClaims:
                      - {name: gpu, resourceClaimTemplateName: one-gpu}
                ---
                apiVersion: v1
                kind: ResourceQuota
                metadata: {name: gpus, namespace: team-b}
                spec:
                  hard:
                    requests.nvidia.com/gpu: "8"
                """;
        // two-left: 5 completions, 3 succeeded, so 2 pods however large its parallelism; held: suspended, none.
        assertThat(lint("1.37", Map.of(), text, false))
                .filteredOn(f -> f.rule().equals("quota-no-longer-limits"))
                .singleElement()
                .satisfies(f -> assertThat(f.message())
                        .contains("gpu.nvidia.com.deviceclass.resource.k8s.io/devices", "charge 2"));
    }

    @Test
    void selectorsOverTheEstimatedCostLimitAreReportedOnce() throws IOException {
        String text = """
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata:
                  name: costly
                spec:
                  selectors:
                  - cel:
                      expression: device.attributes["gpu.example.com"].labels.all(l, l.matches("^a+$"))
                  - cel:
                      expression: device.driver == "gpu.example.com"
                """;
        String before = text;
        List<Finding> findings = lint("1.37", Map.of(), text, false);
        assertThat(text).isEqualTo(before);
        assertThat(lines(findings)).containsExactly("m.yaml:8 error cel-cost");
        assertThat(findings.get(0).message())
                .contains(
                        "DeviceClass costly",
                        "spec.selectors[0].cel.expression",
                        "Forbidden: too complex, exceeds cost limit",
                        "the limit is 1000000");
    }

    @Test
    void olderReleasesLackTheGatesAndVersions() throws IOException {
        String text = resource("team-a.yaml");
        List<Finding> on132 = lint("1.32", Map.of(), text, false);
        // 1.32 serves no v1 and has DRA off by default; firstAvailable's gate does not exist yet.
        assertThat(on132).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo("api-version-not-served");
            assertThat(f.line()).isEqualTo(27);
            assertThat(f.message())
                    .contains("it serves resource.k8s.io/v1alpha3 (off by default), "
                            + "resource.k8s.io/v1beta1 (off by default)");
        });
        assertThat(on132).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo("feature-gate-off");
            assertThat(f.message())
                    .contains(
                            "ResourceClaim team-a/fallback",
                            "DRAPrioritizedList",
                            "KEP-4816",
                            "Kubernetes 1.32 does not have");
        });
        assertThat(on132)
                .anySatisfy(f -> assertThat(f.message())
                        .contains("DynamicResourceAllocation feature gate (KEP-4381), Beta and off by default"));
        // Turned on, an alpha gate is a warning; the 1.33 beta gate on by default is none.
        List<Finding> on133 =
                lint("1.33", Map.of("DynamicResourceAllocation", true, "DRAPrioritizedList", true), text, false);
        assertThat(on133).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo("feature-gate-alpha");
            assertThat(f.message()).contains("DRAPrioritizedList");
        });
        assertThat(on133).noneMatch(f -> f.rule().equals("feature-gate-off"));
    }

    @Test
    void oldShapesAreLocatedWhereTheyWereWrittenAndTaintRulesFollowTheirGate() throws IOException {
        String text;
        try (InputStream in = LintTest.class.getResourceAsStream("/convert/example-driver.yaml")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Finding> findings = lint("1.34", Map.of(), text, false).stream()
                .filter(f -> f.rule().equals("feature-gate-off"))
                .toList();
        // A v1beta1 device's fields sit under basic; v1 has no wrapper.
        assertThat(findings).anySatisfy(f -> {
            assertThat(f.line()).isEqualTo(74);
            assertThat(f.message()).contains("ResourceSlice network-attached: Device.taints needs the DRADeviceTaints");
        });
        assertThat(findings).anySatisfy(f -> {
            assertThat(f.line()).isEqualTo(71);
            assertThat(f.message()).contains("Device.bindsToNode needs the DRADeviceBindingConditions");
        });
        // Before 1.35 DeviceTaintRules came with DRADeviceTaints (alpha in 1.34), not a gate of their own.
        assertThat(findings).anySatisfy(f -> {
            assertThat(f.line()).isEqualTo(79);
            assertThat(f.message())
                    .contains(
                            "DeviceTaintRule gpu-0-broken: DeviceTaintRule needs the DRADeviceTaints "
                                    + "feature gate (KEP-5055), Alpha and off by default in Kubernetes 1.34",
                            "does not serve the kind");
        });
    }

    @Test
    void celLengthIsCheckedBeforeCompiling() throws IOException {
        String expr = "device.driver == '" + "x".repeat(10 * 1024) + "'";
        String text =
                "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: long\nspec:\n  selectors:\n"
                        + "  - cel:\n      expression: \"" + expr + "\"\n";
        List<Finding> findings = lint("1.37", Map.of(), text, false);
        assertThat(lines(findings)).containsExactly("m.yaml:8 error cel-too-long");
        assertThat(findings.get(0).message()).contains("Too long: may not be more than 10240 bytes");
    }

    @Test
    void badInputIsReportedAndTheRestStillLinted() throws IOException {
        String text = "a: [1\n---\napiVersion: resource.k8s.io/v1beta2\nkind: DeviceClass\nmetadata:\n  name: x\n";
        List<Finding> findings = lint("1.36", Map.of(), text, false);
        assertThat(lines(findings))
                .containsExactly("m.yaml:2 error invalid-yaml", "m.yaml:3 warning api-version-off-by-default");
    }

    @Test
    void unknownReleaseOrGateIsRefused() {
        assertThatThrownBy(() -> Lint.forRelease("1.31", Map.of())).hasMessageContaining("1.32, 1.33");
        assertThatThrownBy(() -> Lint.forRelease("1.37", Map.of("Bogus", true))).hasMessageContaining("Bogus");
        assertThat(Lint.forRelease("v1.35.4", Map.of()).release()).isEqualTo("1.35");
    }

    @Test
    void sarifNamesEveryRuleAndLocation() throws IOException {
        List<Finding> findings = lint("1.37", Map.of(), resource("team-a.yaml"), true);
        JsonNode log = JsonMapper.builder().build().readTree(Lint.sarif(findings, "0.1.0"));
        assertThat(log.path("version").asString()).isEqualTo("2.1.0");
        JsonNode run = log.path("runs").get(0);
        JsonNode rules = run.path("tool").path("driver").path("rules");
        JsonNode results = run.path("results");
        assertThat(results.size()).isEqualTo(findings.size());
        for (int i = 0; i < results.size(); i++) {
            JsonNode r = results.get(i);
            assertThat(rules.get(r.path("ruleIndex").asInt()).path("id").asString())
                    .isEqualTo(findings.get(i).rule());
            assertThat(r.path("locations")
                            .get(0)
                            .path("physicalLocation")
                            .path("region")
                            .path("startLine")
                            .asInt())
                    .isEqualTo(findings.get(i).line());
        }
        assertThat(results.get(7).path("level").asString()).isEqualTo("note");
    }

    @Test
    void everyRuleIsDocumentedWithAnExample() throws IOException {
        java.nio.file.Path root = java.nio.file.Path.of("").toAbsolutePath();
        while (!java.nio.file.Files.isDirectory(root.resolve("docs"))
                || !java.nio.file.Files.exists(root.resolve("pom.xml"))) {
            root = root.getParent();
        }
        String docs = java.nio.file.Files.readString(root.resolve("docs").resolve("lint.md"));
        for (Lint.Rule r : Lint.RULES) {
            int at = docs.indexOf("### `" + r.id() + "`");
            assertThat(at).as("docs/lint.md section for " + r.id()).isGreaterThanOrEqualTo(0);
            int next = docs.indexOf("### ", at + 4);
            assertThat(docs.substring(at, next < 0 ? docs.length() : next))
                    .as("example for " + r.id())
                    .contains("```yaml");
        }
    }

    @Test
    void inputsAreNotChanged() throws IOException {
        String text = resource("team-a.yaml");
        String copy = new String(text.toCharArray());
        lint("1.37", Map.of(), text, true);
        assertThat(text).isEqualTo(copy);
    }
}
