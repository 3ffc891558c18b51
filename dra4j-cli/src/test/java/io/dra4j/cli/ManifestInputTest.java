package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code allocate} and {@code explain} on Kubernetes manifests: one cluster from several inputs, pods, templates. */
class ManifestInputTest {
    /** Two nodes: node-1 with two GPUs, node-2 with one. */
    static final String CLUSTER = """
            apiVersion: v1
            kind: Node
            metadata:
              name: node-1
            ---
            apiVersion: v1
            kind: Node
            metadata:
              name: node-2
            ---
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata:
              name: gpu
            spec:
              selectors:
              - cel:
                  expression: device.driver == "gpu.example.com"
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata:
              name: node-1-gpus
            spec:
              driver: gpu.example.com
              pool: {name: node-1, generation: 1, resourceSliceCount: 1}
              nodeName: node-1
              devices:
              - name: gpu-0
              - name: gpu-1
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata:
              name: node-2-gpus
            spec:
              driver: gpu.example.com
              pool: {name: node-2, generation: 1, resourceSliceCount: 1}
              nodeName: node-2
              devices:
              - name: gpu-0
            """;

    /** A pod whose template asks for two GPUs, a claim for three that no pod uses, and a ConfigMap. */
    static final String WORK = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata:
              name: two-gpus
              namespace: team-a
            spec:
              spec:
                devices:
                  requests:
                  - name: gpus
                    exactly:
                      deviceClassName: gpu
                      count: 2
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: train-0
              namespace: team-a
            spec:
              containers:
              - name: c
                image: x
              resourceClaims:
              - name: gpu
                resourceClaimTemplateName: two-gpus
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata:
              name: three
              namespace: team-a
            spec:
              devices:
                requests:
                - name: gpus
                  exactly:
                    deviceClassName: gpu
                    count: 3
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: web
            """;

    @TempDir
    Path dir;

    private Path cluster;
    private Path work;

    @BeforeEach
    void files() throws IOException {
        cluster = Files.writeString(dir.resolve("cluster.yaml"), CLUSTER);
        work = Files.writeString(dir.resolve("work.yaml"), WORK);
    }

    private static CliRuns.Run run(String... args) {
        return CliRuns.run(args);
    }

    @Test
    void severalFilesFormOneClusterAndEveryClaimGetsALine() throws IOException {
        CliRuns.Run r = run("allocate", "-o", "json", "-f", cluster.toString(), "-f", work.toString());

        assertThat(r.status()).as(r.err()).isZero();
        List<JsonNode> lines = r.jsonLines();
        assertThat(lines).hasSize(2);
        JsonNode train = lines.get(0);
        assertThat(train.get("pod").stringValue()).isEqualTo("team-a/train-0");
        assertThat(train.get("claim").stringValue()).startsWith("team-a/train-0-gpu-");
        assertThat(train.get("template").stringValue()).isEqualTo("two-gpus");
        assertThat(train.get("outcome").stringValue()).isEqualTo("allocated");
        assertThat(train.get("node").stringValue()).isEqualTo("node-1");
        assertThat(train.get("allocation").get("results").toString())
                .contains("\"device\":\"gpu-0\"")
                .contains("\"device\":\"gpu-1\"")
                .contains("\"pool\":\"node-1\"");
        assertThat(train.get("nodes").toString())
                .isEqualTo(
                        "[{\"node\":\"node-1\",\"outcome\":\"allocated\",\"score\":0},{\"node\":\"node-2\",\"outcome\":\"unschedulable\"}]");
        JsonNode three = lines.get(1);
        assertThat(three.get("pod").isNull()).isTrue();
        assertThat(three.get("claim").stringValue()).isEqualTo("team-a/three");
        assertThat(three.get("outcome").stringValue()).isEqualTo("unschedulable");
        assertThat(three.get("reason").stringValue()).startsWith("0/2 nodes are available: 2 ");
        assertThat(r.err()).contains("work.yaml: document 4: ConfigMap web (v1) is not used by allocate, which reads");
        assertThat(Files.readString(work)).as("input unchanged").isEqualTo(WORK);
    }

    @Test
    void aDirectoryIsItsFilesAndTheTextNamesTheNodes() {
        CliRuns.Run r = run("allocate", dir.toString());

        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("pod team-a/train-0 on node-1: allocated")
                .contains("stands for ResourceClaimTemplate team-a/two-gpus")
                .contains("  nodes: fit on node-1 (score 0); not on node-2")
                .contains("claim team-a/three: unschedulable")
                .contains("  why: ");
    }

    @Test
    void nodeOptionAllocatesOnThatNodeOnly() {
        CliRuns.Run r = run("allocate", "-o", "json", "--node", "node-2", "-f", cluster.toString(), work.toString());

        assertThat(r.status()).as(r.err()).isZero();
        JsonNode train = r.jsonLines().get(0);
        assertThat(train.get("outcome").stringValue()).isEqualTo("unschedulable");
        assertThat(train.get("node").stringValue()).isEqualTo("node-2");
        assertThat(train.get("reason").stringValue()).startsWith("0/1 nodes are available: 1 ");

        CliRuns.Run missing = run("allocate", "--node", "node-9", cluster.toString(), work.toString());
        assertThat(missing.status()).isEqualTo(1);
        assertThat(missing.err()).contains("node node-9 is not in the input (its nodes: node-1, node-2)");
    }

    @Test
    void standardInputWithAListAndAScenarioFileTogether() throws IOException {
        Path scenario = CliRuns.scenario(dir.resolve("cluster.yaml").getParent(), "one-gpu", 1);
        String list = """
                {"apiVersion": "v1", "kind": "List", "items": [
                  {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                   "metadata": {"name": "one", "namespace": "default"},
                   "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]}}}]}
                """;
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(list.getBytes(StandardCharsets.UTF_8)));
        CliRuns.Run r;
        try {
            r = run("allocate", "-o", "json", scenario.toString(), "-f", cluster.toString(), "-");
        } finally {
            System.setIn(saved);
        }
        assertThat(r.status()).as(r.err()).isZero();
        List<JsonNode> lines = r.jsonLines();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).get("scenario").stringValue()).isEqualTo("one-gpu");
        assertThat(lines.get(1).get("claim").stringValue()).isEqualTo("default/one");
        assertThat(lines.get(1).get("outcome").stringValue()).isEqualTo("allocated");
    }

    @Test
    void invalidObjectsAreErrorsWithFileObjectAndFieldAndTheRestStillRuns() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata:
                  name: minus
                  namespace: team-a
                spec:
                  devices:
                    requests:
                    - name: gpus
                      exactly:
                        deviceClassName: gpu
                        count: -3
                """);

        CliRuns.Run r = run("allocate", "-o", "json", cluster.toString(), work.toString(), bad.toString());

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err())
                .contains("bad.yaml: document 1, line 12, column 16 (ResourceClaim team-a/minus): "
                        + "spec.devices.requests[0].exactly.count: Invalid value: -3: must be greater than zero");
        assertThat(r.jsonLines()).hasSize(2);
    }

    @Test
    void aFractionalCountIsTheApiServersDecodeErrorWithFileObjectAndField() throws IOException {
        String text = """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata:
                  name: half
                  namespace: team-a
                spec:
                  devices:
                    requests:
                    - name: gpus
                      exactly:
                        deviceClassName: gpu
                        count: 1.5
                """;
        Path bad = Files.writeString(dir.resolve("half.yaml"), text);

        CliRuns.Run r = run("allocate", "-o", "json", cluster.toString(), work.toString(), bad.toString());

        assertThat(r.status()).isEqualTo(1);
        // The decode error is validate-oracle's (kube-apiserver's strict decoder) for the same claim as JSON.
        assertThat(r.err())
                .contains("half.yaml: document 1, line 12, column 16 (ResourceClaim team-a/half): "
                        + "spec.devices.requests[0].exactly.count: json: cannot unmarshal number 1.5 into Go struct "
                        + "field ExactDeviceRequest.spec.devices.requests.exactly.count of type int64");
        assertThat(r.err()).doesNotContain("Exception");
        assertThat(r.jsonLines()).hasSize(2);
        assertThat(Files.readString(bad)).isEqualTo(text);
    }

    @Test
    void aCelRuntimeErrorGetsTheGuardWithTheCorrectedExpression() throws IOException {
        // gpu-0 has the model but not the attribute "extra" the selector reads: a CEL runtime error upstream.
        String slices = """
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata:
                  name: gpu
                spec:
                  selectors:
                  - cel:
                      expression: device.driver == "gpu.example.com"
                ---
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata:
                  name: node-1-gpus
                spec:
                  driver: gpu.example.com
                  nodeName: node-1
                  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
                  devices:
                  - name: gpu-0
                    attributes:
                      model: {string: H100}
                  - name: gpu-1
                    attributes:
                      model: {string: H100}
                      extra: {string: x}
                """;
        String claim = """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata:
                  name: c
                  namespace: default
                spec:
                  devices:
                    requests:
                    - name: gpu
                      exactly:
                        deviceClassName: gpu
                        count: 2
                        selectors:
                        - cel:
                            expression: device.attributes["gpu.example.com"].model == "H100" && device.attributes["gpu.example.com"].extra == "x"
                """;
        Path base = Files.writeString(dir.resolve("slices.yaml"), slices);
        Path c = Files.writeString(dir.resolve("claim.yaml"), claim);

        CliRuns.Run text = run("explain", base.toString(), c.toString());
        CliRuns.Run json = run("explain", "-o", "json", base.toString(), c.toString());

        String guarded = "has(device.attributes[\"gpu.example.com\"].extra) && (device.attributes[\"gpu.example.com\"]"
                + ".model == \"H100\" && device.attributes[\"gpu.example.com\"].extra == \"x\")";
        assertThat(text.out()).contains("no such key: extra");
        // Guarded, only gpu-1 matches and the claim asks for two: the guard fixes the error, the claim stays short.
        assertThat(text.out())
                .contains("fixes the error: claim default/c, request gpu: guard selector #0 with "
                        + "`has(device.attributes[\"gpu.example.com\"].extra)`")
                .contains(": `" + guarded + "`; then unschedulable: ");
        JsonNode suggestion = json.jsonLines().get(0).get("suggestions").get(0);
        assertThat(suggestion.get("change").stringValue()).isEqualTo("GuardSelector");
        assertThat(suggestion.get("description").stringValue()).endsWith("`" + guarded + "`");
        assertThat(suggestion.get("remains").stringValue()).isNotBlank();
        assertThat(Files.readString(base)).isEqualTo(slices);
        assertThat(Files.readString(c)).isEqualTo(claim);
    }

    @Test
    void aClaimWithAnEmptySpecHasNoRequestsAndIsAllocatedWithNoDevicesAsKubernetesDoes() throws IOException {
        // Go holds spec and spec.devices by value: `spec: {}` (or no spec) is a claim without requests, which the
        // API server accepts; explain and allocate go on to the other claims.
        Path empty = Files.writeString(dir.resolve("empty.yaml"), """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata:
                  name: empty
                  namespace: team-a
                spec: {}
                ---
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata:
                  name: no-spec
                  namespace: team-a
                """);

        for (String command : List.of("allocate", "explain")) {
            CliRuns.Run r = run(command, "-o", "json", cluster.toString(), work.toString(), empty.toString());

            assertThat(r.err()).as(command).doesNotContain("Exception");
            assertThat(r.status()).as(command).isZero();
            List<JsonNode> lines = r.jsonLines();
            assertThat(lines)
                    .as(command)
                    .extracting(l -> l.get("claim").stringValue())
                    .contains("team-a/empty", "team-a/no-spec", "team-a/three");
            for (JsonNode l : lines) {
                String claim = l.get("claim").stringValue();
                if (claim.equals("team-a/empty") || claim.equals("team-a/no-spec")) {
                    assertThat(l.get("outcome").stringValue())
                            .as(command + " " + claim)
                            .isEqualTo("allocated");
                }
            }
        }
    }

    @Test
    void aPodWhoseClaimIsMissingIsUnschedulableWithUpstreamsReason() throws IOException {
        Path pod = Files.writeString(dir.resolve("work.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p
                spec:
                  containers: [{name: c, image: x}]
                  resourceClaims:
                  - name: gpu
                    resourceClaimName: nowhere
                """);

        CliRuns.Run r = run("allocate", "-o", "json", cluster.toString(), pod.toString());

        assertThat(r.status()).as(r.err()).isZero();
        JsonNode line = r.jsonLines().get(0);
        assertThat(line.get("pod").stringValue()).isEqualTo("default/p");
        assertThat(line.get("claim").stringValue()).isEqualTo("default/nowhere");
        assertThat(line.get("outcome").stringValue()).isEqualTo("unschedulable");
        assertThat(line.get("reason").stringValue()).contains("could not find ResourceClaim \"default/nowhere\"");
        assertThat(line.get("nodes").size()).isZero();
    }

    @Test
    void withoutNodeObjectsTheSlicesNodeNamesAreTheNodes() throws IOException {
        String slicesOnly = CLUSTER.substring(CLUSTER.indexOf("apiVersion: resource.k8s.io/v1"));
        Path c = Files.writeString(dir.resolve("cluster.yaml"), slicesOnly);

        CliRuns.Run r = run("allocate", "-o", "json", c.toString(), work.toString());

        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.err())
                .contains("note: the input holds no Node objects: taken as node(s) without labels: node-1, node-2");
        assertThat(r.jsonLines().get(0).get("node").stringValue()).isEqualTo("node-1");
    }

    @Test
    void aFileWithoutObjectsIsAnError() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.yaml"), "# nothing here\n---\n");

        CliRuns.Run r = run("allocate", "-o", "json", cluster.toString(), work.toString(), empty.toString());

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains("empty.yaml: holds no Kubernetes objects");
        assertThat(r.jsonLines()).hasSize(2);
    }

    @Test
    void nodesAreRankedByTheDynamicResourcesScore() throws IOException {
        // firstAvailable: two GPUs first (score 8), else one (score 7): node-1 has two, node-2 one.
        Path pod = Files.writeString(dir.resolve("work.yaml"), """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata:
                  name: flexible
                spec:
                  devices:
                    requests:
                    - name: gpus
                      firstAvailable:
                      - name: two
                        deviceClassName: gpu
                        count: 2
                      - name: one
                        deviceClassName: gpu
                        count: 1
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p
                spec:
                  containers: [{name: c, image: x}]
                  resourceClaims:
                  - name: gpu
                    resourceClaimName: flexible
                """);

        // node-2 first in node order, so that only the score puts node-1 first.
        Path swapped = Files.writeString(
                dir.resolve("cluster.yaml"),
                CLUSTER.replaceFirst("  name: node-1\n", "  name: X\n")
                        .replaceFirst("  name: node-2\n", "  name: node-1\n")
                        .replaceFirst("  name: X\n", "  name: node-2\n"));

        CliRuns.Run r = run("allocate", "-o", "json", swapped.toString(), pod.toString());

        assertThat(r.status()).as(r.err()).isZero();
        JsonNode line = r.jsonLines().get(0);
        assertThat(line.get("node").stringValue()).isEqualTo("node-1");
        assertThat(line.get("nodes").toString())
                .isEqualTo("[{\"node\":\"node-1\",\"outcome\":\"allocated\",\"score\":8},"
                        + "{\"node\":\"node-2\",\"outcome\":\"allocated\",\"score\":7}]");
        assertThat(line.get("allocation").get("results").get(0).get("request").stringValue())
                .isEqualTo("gpus/two");
    }

    @Test
    void explainGivesOneRecordPerClaimWithItsPodAndNode() {
        CliRuns.Run r = run("explain", "-o", "json", cluster.toString(), work.toString());

        assertThat(r.status()).as(r.err()).isZero();
        List<JsonNode> lines = r.jsonLines();
        assertThat(lines).hasSize(2);
        JsonNode train = lines.get(0);
        assertThat(train.get("scenario").stringValue()).isEqualTo("pod team-a/train-0");
        assertThat(train.get("pod").stringValue()).isEqualTo("team-a/train-0");
        assertThat(train.get("node").stringValue()).isEqualTo("node-1");
        assertThat(train.get("outcome").stringValue()).isEqualTo("allocated");
        assertThat(train.get("claims")).hasSize(1);
        JsonNode three = lines.get(1);
        assertThat(three.get("outcome").stringValue()).isEqualTo("unschedulable");
        assertThat(three.get("node").stringValue())
                .as("the node that came closest")
                .isEqualTo("node-1");
        assertThat(three.get("decisive").stringValue()).contains("3 device(s) requested, only 2");
        assertThat(three.get("claims").get(0).get("claim").stringValue()).isEqualTo("three");

        CliRuns.Run text = run("explain", cluster.toString(), work.toString());
        assertThat(text.out())
                .contains("claim team-a/three on node-1: unschedulable")
                .contains("  why: claim team-a/three, request gpus: 3 device(s) requested, only 2");
    }
}
