package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code dra4j simulate --from-cluster} against a real kube-apiserver: the snapshot it lists, and the one it saves. */
class SimulateFromClusterIT {
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
        client.resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("gpu-node")
                        .endMetadata()
                        .withNewStatus()
                        .addToAllocatable(Map.of("cpu", new Quantity("8"), "pods", new Quantity("110")))
                        .addToCapacity(Map.of("cpu", new Quantity("8"), "pods", new Quantity("110")))
                        .endStatus()
                        .build())
                .create();
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
        client.resource(new ResourceSliceBuilder()
                        .withNewMetadata()
                        .withName("gpu-node-gpus")
                        .endMetadata()
                        .withNewSpec()
                        .withDriver("gpu.example.com")
                        .withNodeName("gpu-node")
                        .withNewPool()
                        .withName("gpu-node")
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
        // A ReplicaSet whose controller does not run here: it has none of its pods, and dra4j makes none up.
        client.resource(new ReplicaSetBuilder()
                        .withNewMetadata()
                        .withName("inference")
                        .withNamespace("ml")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(2)
                        .withNewSelector()
                        .addToMatchLabels("app", "inference")
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .addToLabels("app", "inference")
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("main")
                        .withImage("pause")
                        .endContainer()
                        .endSpec()
                        .endTemplate()
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
    void simulatesTheLiveClusterAndTheSavedSnapshotAlike(@TempDir Path dir) throws Exception {
        Path saved = dir.resolve("snapshot.yaml");
        CliRuns.Run live = CliRuns.run(
                "simulate",
                "--from-cluster",
                "--kubeconfig",
                plane.kubeconfig().toString(),
                "--context",
                ControlPlane.CONTEXT,
                "--save-snapshot",
                saved.toString(),
                "-o",
                "json");

        assertThat(live.status()).as(live.err()).isZero();
        JsonNode root = JsonMapper.builder().build().readTree(live.out());
        assertThat(root.path("summary").path("placed").asLong()).isEqualTo(1);
        assertThat(root.path("summary").path("pending").asLong()).isEqualTo(1);
        // Queue order ties on priority and creation time (same second) go to input order: the server lists by name.
        assertThat(root.path("pods").findValuesAsString("node")).contains("gpu-node");
        assertThat(root.path("pods").size()).isEqualTo(2);
        assertThat(root.path("notes").toString())
                .contains(
                        "ReplicaSet ml/inference:"
                                + " 0 of 2 pods exist in the cluster; only those are simulated (its controller creates the others there)");
        assertThat(Files.readString(saved))
                .contains("kind: \"List\"", "two-gpus", "gpu-node-gpus", "kind: \"ReplicaSet\"");

        CliRuns.Run offline = CliRuns.run("simulate", "-o", "json", saved.toString());
        assertThat(offline.status()).as(offline.err()).isZero();
        assertThat(offline.out()).isEqualTo(live.out());
    }

    @Test
    void aClusterThatRefusesTheTokenIsAClearError(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("kubeconfig");
        Files.writeString(config, Files.readString(plane.kubeconfig()).replace(plane.token(), "not-the-token"));

        CliRuns.Run run = CliRuns.run("simulate", "--from-cluster", "--kubeconfig", config.toString());

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).startsWith("dra4j: ").doesNotContain("Exception", "\tat ");
        assertThat(run.out()).isEmpty();
    }
}
