package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestReaderTest {
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: %s
              namespace: team-a
            spec:
              containers:
              - name: c
                image: busybox
                resources:
                  requests:
                    cpu: %s
            """;

    private static Manifests parse(String text) {
        return ManifestReader.parse(text.getBytes(StandardCharsets.UTF_8), "in.yaml");
    }

    @Test
    void readsWhatKubectlGetPrintsWithManagedFieldsStatusAndIgnoredKinds() throws IOException {
        Path file = Path.of("src/test/resources/manifests/kubectl-get-list.yaml");
        byte[] before = Files.readAllBytes(file);
        Manifests m = ManifestReader.read(file);

        assertThat(m.problems()).isEmpty();
        assertThat(m.nodes()).extracting(n -> n.getMetadata().getName()).containsExactly("gpu-node-1");
        assertThat(m.nodes().get(0).getStatus().getAllocatable().get("cpu").toString())
                .isEqualTo("96");
        Pod pod = m.pods().get(0);
        assertThat(pod.getSpec().getNodeName()).isEqualTo("gpu-node-1");
        assertThat(pod.getStatus().getResourceClaimStatuses().get(0).getResourceClaimName())
                .isEqualTo("trainer-7d9f8b6c5-x2kqp-gpus-4xq8n");
        assertThat(m.resourceSlices().get(0).getSpec().getDevices()).hasSize(2);
        assertThat(m.deviceClasses()).hasSize(1);
        assertThat(m.resourceClaims().get(0).getStatus().getReservedFor()).hasSize(1);
        assertThat(m.resourceClaimTemplates()).hasSize(1);
        assertThat(m.priorityClasses().get(0).getValue()).isEqualTo(2000000000);
        assertThat(m.skipped())
                .extracting(SkippedObject::kind, SkippedObject::name)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ConfigMap", "kube-root-ca.crt"));
        assertThat(m.services()).extracting(s -> s.getMetadata().getName()).containsExactly("kubernetes");
        assertThat(m.originOf(m.services().get(0))).isEqualTo(new ManifestOrigin(file.toString(), 1, 2));
        assertThat(m.originOf(pod)).isEqualTo(new ManifestOrigin(file.toString(), 1, 1));
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void multiDocumentYamlKeepsGoodDocumentsAndNamesTheBadOneByDocumentObjectAndField() {
        Manifests m = parse(
                POD.formatted("a", "1") + "---\n" + POD.formatted("b", "lots") + "---\n" + POD.formatted("c", "500m"));

        assertThat(m.pods()).extracting(p -> p.getMetadata().getName()).containsExactly("a", "c");
        assertThat(m.problems()).hasSize(1);
        ManifestProblem p = m.problems().get(0);
        assertThat(p.origin()).isEqualTo(new ManifestOrigin("in.yaml", 2, -1));
        assertThat(p.object()).isEqualTo("Pod team-a/b");
        assertThat(p.field()).isEqualTo("spec.containers[0].resources.requests.cpu");
        assertThat(p.describe())
                .startsWith("in.yaml: document 2, line 25, column 14 (Pod team-a/b): "
                        + "spec.containers[0].resources.requests.cpu: "
                        + "quantity \"lots\" cannot be parsed");
    }

    @Test
    void unknownFieldsAreProblemsButManagedFieldsAreNot() {
        Manifests m = parse("""
                apiVersion: v1
                kind: Node
                metadata:
                  name: n1
                  managedFields:
                  - manager: kubelet
                    fieldsType: FieldsV1
                    fieldsV1:
                      f:status: {}
                spec:
                  unschedulabel: true
                """);
        assertThat(m.nodes()).isEmpty();
        assertThat(m.problems()).extracting(ManifestProblem::field).containsExactly("spec.unschedulabel");
        assertThat(m.problems().get(0).message()).isEqualTo("unknown field \"unschedulabel\"");
    }

    @Test
    void olderResourceVersionsAndWorkloadVersionsAreRefusedWithWhatToChange() {
        Manifests m = parse("""
                apiVersion: resource.k8s.io/v1beta1
                kind: ResourceClaim
                metadata: {name: c, namespace: ns}
                spec:
                  devices:
                    requests:
                    - name: gpu
                      deviceClassName: gpu
                ---
                apiVersion: apps/v1beta2
                kind: Deployment
                metadata: {name: d}
                """);
        assertThat(m.problems()).hasSize(2);
        assertThat(m.problems().get(0).field()).isEqualTo("apiVersion");
        assertThat(m.problems().get(0).message())
                .contains("spec.devices.requests[0].deviceClassName -> "
                        + "spec.devices.requests[0].exactly.deviceClassName");
        assertThat(m.problems().get(1).describe())
                .isEqualTo(
                        "in.yaml: document 2, line 10, column 13 (Deployment d): apiVersion: "
                                + "apiVersion apps/v1beta2 is not supported for Deployment, only apps/v1 (the version Kubernetes 1.37 serves)");
    }

    @Test
    void jsonObjectsTypedListsAndMissingKindsOfItems() {
        Manifests m = parse("""
                {"apiVersion": "v1", "kind": "PodList", "items": [
                  {"metadata": {"name": "p", "namespace": "x"}, "spec": {"containers": [{"name": "c"}]}},
                  {"metadata": {"namespace": "x"}, "spec": {"containers": [{"name": "c"}]}}
                ]}
                {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}
                """);
        assertThat(m.pods()).extracting(p -> p.getMetadata().getName()).containsExactly("p");
        assertThat(m.nodes()).hasSize(1);
        assertThat(m.problems()).hasSize(1);
        assertThat(m.problems().get(0).describe())
                .isEqualTo("in.yaml: document 1: items[1] (Pod): metadata.name: "
                        + "Required value: name or generateName is required");
    }

    @Test
    void duplicatesAreReportedWithWhereTheFirstWasRead() {
        Manifests m = parse(POD.formatted("a", "1") + "---\n" + POD.formatted("a", "2"));
        assertThat(m.pods()).hasSize(1);
        assertThat(m.problems().get(0).message())
                .isEqualTo("pods \"team-a/a\" already exists (first read at in.yaml: " + "document 1)");
    }

    @Test
    void malformedYamlEndsThatSourceOnlyAndNamesTheDocument(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.yaml"), POD.formatted("a", "1") + "---\nkind: [unclosed\n");
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/b.yml"), POD.formatted("b", "1"));
        Files.writeString(dir.resolve("notes.txt"), "not a manifest");

        Manifests m = ManifestReader.read(dir);

        assertThat(m.pods()).extracting(p -> p.getMetadata().getName()).containsExactly("a", "b");
        assertThat(m.problems()).hasSize(1);
        assertThat(m.problems().get(0).origin())
                .isEqualTo(new ManifestOrigin(dir.resolve("a.yaml").toString(), 2, -1));
        assertThat(m.problems().get(0).message()).startsWith("malformed YAML at line");
    }

    @Test
    void dashReadsStandardInputAndMissingFilesAreProblems() {
        InputStream stdin = new ByteArrayInputStream(POD.formatted("s", "1").getBytes(StandardCharsets.UTF_8));
        Manifests m = ManifestReader.read(List.of("-", "/no/such/file.yaml"), stdin);
        assertThat(m.pods()).hasSize(1);
        assertThat(m.originOf(m.pods().get(0)).source()).isEqualTo(ManifestReader.STDIN);
        assertThat(m.problems())
                .extracting(ManifestProblem::describe)
                .containsExactly("/no/such/file.yaml: no such file or directory");
    }

    @Test
    void namespaceDefaultsOnlyForNamespacedKinds() {
        Manifests m = parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec: {containers: [{name: c}]}
                ---
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata: {name: gpu}
                """);
        assertThat(Manifests.namespaceOf(m.pods().get(0))).isEqualTo("default");
        assertThat(Manifests.namespaceOf(m.deviceClasses().get(0))).isEmpty();
        assertThat(m.pods().get(0).getMetadata().getNamespace()).isNull();
    }
}
