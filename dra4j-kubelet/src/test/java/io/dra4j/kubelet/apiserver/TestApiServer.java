package io.dra4j.kubelet.apiserver;

import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * One real kube-apiserver with etcd for this module's integration tests, started on first use and stopped when the
 * test JVM exits (the harness's shutdown hook); tests that restart it leave it running. Skips the calling test when
 * the binaries are not built (unless {@code DRA4J_CONTROL_PLANE_REQUIRED=1}).
 */
public final class TestApiServer {
    private static ControlPlane shared;

    private TestApiServer() {}

    /** The shared control plane, 1.37's default gates. */
    public static synchronized ControlPlane get() {
        if (shared == null) {
            shared = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly());
        }
        return shared;
    }

    /**
     * A new client that gives up on a refused connection after one retry, so that an API server outage shows as an
     * error to the code under test (whose own retry is what a test checks) instead of a minute of client retries.
     */
    public static KubernetesClient impatientClient(ControlPlane plane) {
        try {
            Config config = new ConfigBuilder(Config.fromKubeconfig(Files.readString(plane.kubeconfig())))
                    .withRequestRetryBackoffLimit(1)
                    .withRequestRetryBackoffInterval(100)
                    .build();
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates the Node (slices are owned by it) unless it exists. */
    public static void node(KubernetesClient client, String name) {
        if (client.nodes().withName(name).get() == null) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .endMetadata()
                            .build())
                    .create();
        }
    }
}
