package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dra4j lint --from-cluster} against a real kube-apiserver: the snapshot rules on what the cluster lists. */
class LintFromClusterIT {
    private static final String MANIFESTS = """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata:
              name: team-gpu
            spec:
              selectors:
              - cel:
                  expression: device.driver == 'gpu.nvidia.com'
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata:
              name: four-gpus
            spec:
              spec:
                devices:
                  requests:
                  - name: gpus
                    exactly:
                      deviceClassName: gpu.nvidia.com
                      count: 4
            """;

    private static ControlPlane plane;

    @BeforeAll
    static void start() {
        plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly());
        KubernetesClient client = plane.client();
        client.resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("gpu-node")
                        .endMetadata()
                        .withNewStatus()
                        .addToAllocatable(Map.of(
                                "cpu",
                                new Quantity("8"),
                                "pods",
                                new Quantity("110"),
                                "nvidia.com/gpu",
                                new Quantity("2")))
                        .addToCapacity(Map.of(
                                "cpu",
                                new Quantity("8"),
                                "pods",
                                new Quantity("110"),
                                "nvidia.com/gpu",
                                new Quantity("2")))
                        .endStatus()
                        .build())
                .create();
        client.resource(new DeviceClassBuilder()
                        .withNewMetadata()
                        .withName("gpu.nvidia.com")
                        .endMetadata()
                        .withNewSpec()
                        .addNewSelector()
                        .withNewCel()
                        .withExpression("device.driver == 'gpu.nvidia.com'")
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
                        .withDriver("gpu.nvidia.com")
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
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    void lintsAgainstWhatTheClusterHolds(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("team.yaml"), MANIFESTS);
        CliRuns.Run run = CliRuns.run(
                "lint",
                "--kubernetes-version",
                "1.37",
                "--from-cluster",
                "--kubeconfig",
                plane.kubeconfig().toString(),
                "--context",
                ControlPlane.CONTEXT,
                file.toString());
        assertThat(run.err()).isEmpty();
        assertThat(run.status()).as(run.out()).isEqualTo(3);
        assertThat(run.out())
                .contains(
                        file + ":5:1: warning: duplicate-device-class: DeviceClass team-gpu: same "
                                + "selectors and config as DeviceClass gpu.nvidia.com",
                        file
                                + ":14:1: error: claim-unsatisfiable: ResourceClaimTemplate default/four-gpus: no node of the "
                                + "snapshot (1) can satisfy it",
                        "warning: device-double-advertised: Node gpu-node: advertises nvidia.com/gpu: 2 through a device "
                                + "plugin while a DRA driver publishes 2 matching device(s)");
        assertThat(Files.readString(file)).isEqualTo(MANIFESTS);
    }
}
