package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code dra4j explain pod --from-cluster} against a real kube-apiserver: two GPU nodes with two GPUs each, one of
 * them tainted; two pods that each want two GPUs, so one of them is placed and the other stays pending, with the
 * tainted node as the place it would fit with a toleration.
 */
class ExplainPodFromClusterIT {
    private static ControlPlane plane;

    @BeforeAll
    static void start() {
        plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly());
        KubernetesClient client = plane.client();
        client.resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("ml")
                        .endMetadata()
                        .build())
                .create();
        for (String node : new String[] {"gpu-a", "gpu-b"}) {
            NodeBuilder nb = new NodeBuilder()
                    .withNewMetadata()
                    .withName(node)
                    .endMetadata()
                    .withNewStatus()
                    .addToAllocatable(Map.of("cpu", new Quantity("8"), "pods", new Quantity("110")))
                    .addToCapacity(Map.of("cpu", new Quantity("8"), "pods", new Quantity("110")))
                    .endStatus();
            if (node.equals("gpu-b")) {
                nb.withNewSpec()
                        .addNewTaint()
                        .withKey("xid")
                        .withValue("79")
                        .withEffect("NoSchedule")
                        .endTaint()
                        .endSpec();
            }
            client.resource(nb.build()).create();
            client.resource(new ResourceSliceBuilder()
                            .withNewMetadata()
                            .withName(node + "-gpus")
                            .endMetadata()
                            .withNewSpec()
                            .withDriver("gpu.example.com")
                            .withNodeName(node)
                            .withNewPool()
                            .withName(node)
                            .withGeneration(1L)
                            .withResourceSliceCount(1L)
                            .endPool()
                            .addNewDevice()
                            .withName("gpu-0")
                            .endDevice()
                            .addNewDevice()
                            .withName("gpu-1")
                            .endDevice()
                            .endSpec()
                            .build())
                    .create();
        }
        client.resource(new DeviceClassBuilder()
                        .withNewMetadata()
                        .withName("gpu")
                        .endMetadata()
                        .withNewSpec()
                        .addNewSelector()
                        .withNewCel()
                        .withExpression("device.driver == \"gpu.example.com\"")
                        .endCel()
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
        client.resource(new ResourceClaimTemplateBuilder()
                        .withNewMetadata()
                        .withName("two-gpus")
                        .withNamespace("ml")
                        .endMetadata()
                        .withNewSpec()
                        .withNewSpec()
                        .withNewDevices()
                        .addNewRequest()
                        .withName("gpus")
                        .withNewExactly()
                        .withDeviceClassName("gpu")
                        .withCount(2L)
                        .endExactly()
                        .endRequest()
                        .endDevices()
                        .endSpec()
                        .endSpec()
                        .build())
                .create();
        for (String name : new String[] {"trainer", "second-trainer"}) {
            client.resource(new PodBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .withNamespace("ml")
                            .endMetadata()
                            .withNewSpec()
                            .addNewContainer()
                            .withName("main")
                            .withImage("pause")
                            .endContainer()
                            .addNewResourceClaim()
                            .withName("gpus")
                            .withResourceClaimTemplateName("two-gpus")
                            .endResourceClaim()
                            .endSpec()
                            .build())
                    .create();
        }
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    void explainsThePendingPodOfTheLiveClusterAsItsSavedSnapshot(@TempDir Path dir) throws Exception {
        String[] live = {
            "--from-cluster", "--kubeconfig", plane.kubeconfig().toString(), "--context", ControlPlane.CONTEXT
        };
        List<JsonNode> answers = new ArrayList<>();
        for (String pod : new String[] {"ml/trainer", "ml/second-trainer"}) {
            List<String> args = new ArrayList<>(List.of("explain", "pod", pod, "-o", "json"));
            args.addAll(List.of(live));
            CliRuns.Run run = CliRuns.run(args.toArray(String[]::new));
            assertThat(run.status()).as(run.err()).isZero();
            answers.add(JsonMapper.builder().build().readTree(run.out()));
        }
        assertThat(answers).extracting(a -> a.get("status").asString()).containsExactlyInAnyOrder("placed", "pending");
        JsonNode pending = answers.stream()
                .filter(a -> a.get("status").asString().equals("pending"))
                .findFirst()
                .orElseThrow();
        JsonNode placed = answers.stream()
                .filter(a -> a.get("status").asString().equals("placed"))
                .findFirst()
                .orElseThrow();
        assertThat(placed.get("node").asString()).isEqualTo("gpu-a");
        // gpu-a's GPUs are taken by the placed pod: DynamicResources is the closest rejection; gpu-b's taint the other.
        assertThat(pending.get("groups")).hasSize(2);
        assertThat(pending.get("groups").get(0).get("plugin").asString()).isEqualTo("DynamicResources");
        assertThat(pending.get("groups").get(0).get("nodes").get(0).asString()).isEqualTo("gpu-a");
        assertThat(pending.get("groups").get(1).get("reason").asString()).isEqualTo("node(s) had untolerated taint(s)");
        assertThat(pending.get("fixes").findValuesAsString("kind")).contains("TOLERATION", "WHAT_IF_NODE");

        Path saved = dir.resolve("snapshot.yaml");
        List<String> save = new ArrayList<>(List.of("simulate", "--save-snapshot", saved.toString()));
        save.addAll(List.of(live));
        assertThat(CliRuns.run(save.toArray(String[]::new)).status()).isZero();
        String name =
                pending.get("namespace").asString() + "/" + pending.get("name").asString();
        CliRuns.Run offline = CliRuns.run("explain", "pod", name, "-o", "json", "--snapshot", saved.toString());
        assertThat(offline.status()).as(offline.err()).isZero();
        assertThat(JsonMapper.builder().build().readTree(offline.out())).isEqualTo(pending);
    }

    @Test
    void asKubectlPluginTheKubeconfigsClusterIsTheDefault() {
        System.setProperty(KubectlPlugin.PROPERTY, "true");
        try {
            CliRuns.Run explain = CliRuns.run(
                    "explain",
                    "pod",
                    "trainer",
                    "-n",
                    "ml",
                    "-o",
                    "json",
                    "--kubeconfig",
                    plane.kubeconfig().toString(),
                    "--context",
                    ControlPlane.CONTEXT);
            assertThat(explain.status()).as(explain.err()).isZero();
            assertThat(JsonMapper.builder()
                            .build()
                            .readTree(explain.out())
                            .get("nodeCount")
                            .asInt())
                    .isEqualTo(2);
            CliRuns.Run simulate = CliRuns.run(
                    "simulate",
                    "-o",
                    "json",
                    "--kubeconfig",
                    plane.kubeconfig().toString(),
                    "--context",
                    ControlPlane.CONTEXT);
            assertThat(simulate.status()).as(simulate.err()).isZero();
            assertThat(JsonMapper.builder()
                            .build()
                            .readTree(simulate.out())
                            .get("summary")
                            .get("pending")
                            .asInt())
                    .isEqualTo(1);
        } finally {
            System.clearProperty(KubectlPlugin.PROPERTY);
        }
    }

    @Test
    void aClusterThatRefusesTheTokenIsAClearError(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("kubeconfig");
        java.nio.file.Files.writeString(
                config, java.nio.file.Files.readString(plane.kubeconfig()).replace(plane.token(), "not-the-token"));

        CliRuns.Run run =
                CliRuns.run("explain", "pod", "ml/trainer", "--from-cluster", "--kubeconfig", config.toString());

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).startsWith("dra4j: ").doesNotContain("Exception", "\tat ");
        assertThat(run.out()).isEmpty();
    }
}
