package io.dra4j.testkit.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.scenario.LiveSnapshot;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ControlPlaneIT {
    @Test
    void servesResourceV1WithValidationAndStopsWithoutATrace() throws Exception {
        ControlPlane plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly());
        Path kubeconfig = plane.kubeconfig();
        Path directory = kubeconfig.getParent();
        int port = plane.server().getPort();
        try (plane) {
            KubernetesClient client = plane.client();
            ControlPlaneVersions versions = ControlPlaneVersions.load();
            assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo(versions.kubernetes());
            assertThat(Files.readString(kubeconfig)).contains("current-context: " + ControlPlane.CONTEXT);

            DeviceClass gpu = new DeviceClassBuilder()
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
                    .build();
            client.resource(gpu).create();
            try (KubernetesClient second = plane.newClient()) {
                assertThat(second.resources(DeviceClass.class)
                                .withName("gpu")
                                .get()
                                .getSpec()
                                .getSelectors()
                                .get(0)
                                .getCel()
                                .getExpression())
                        .isEqualTo("device.driver == \"gpu.example.com\"");
            }

            // Server-side validation runs: the CEL compiler rejects the expression with its own message.
            DeviceClass bad = new DeviceClassBuilder()
                    .withNewMetadata()
                    .withName("bad")
                    .endMetadata()
                    .withNewSpec()
                    .addNewSelector()
                    .withNewCel()
                    .withExpression("device.driver ==")
                    .endCel()
                    .endSelector()
                    .endSpec()
                    .build();
            assertThatThrownBy(() -> client.resource(bad).create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(422);
                        assertThat(e.getMessage())
                                .contains("spec.selectors[0].cel.expression")
                                .contains("compilation failed");
                    });

            // Beta APIs stay off unless asked for: the snapshot says Workload and PodGroup are not served here.
            LiveSnapshot snapshot = LiveSnapshot.take(client);
            assertThat(snapshot.notServed())
                    .containsExactly("workloads (scheduling.k8s.io)", "podgroups (scheduling.k8s.io)");
            assertThat(snapshot.objects())
                    .filteredOn(o -> o instanceof DeviceClass)
                    .extracting(o -> o.getMetadata().getName())
                    .containsExactly("gpu");
        }
        assertThat(directory).doesNotExist();
        assertThat(listening(port)).as("API server port after close").isFalse();
        plane.close();
    }

    @Test
    void startsTheSchedulerAndTheClaimControllerWhenAsked() {
        try (ControlPlane plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.scheduling())) {
            assertThat(plane.logs())
                    .containsOnlyKeys("etcd", "kube-apiserver", "kube-scheduler", "kube-controller-manager");
            // That the claim controller and the scheduler do their work is RealSchedulerIT's test.
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
