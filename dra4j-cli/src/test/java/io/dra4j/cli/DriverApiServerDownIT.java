package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.kubelet.UnixSocketChannel;
import io.dra4j.kubelet.proto.dra.v1.Claim;
import io.dra4j.kubelet.proto.dra.v1.DRAPluginGrpc;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourceResponse;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourcesRequest;
import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dra4j driver fake} against a real kube-apiserver that goes away: a prepare that needs a claim read fails
 * with the cause well inside the kubelet's 45 s call deadline (fabric8's default retries alone take about 100 s),
 * and works again once the server is back.
 */
class DriverApiServerDownIT {
    static final String DRIVER = "gpu.fake.dra4j.io";
    static final String NODE = "down-node";

    @TempDir
    Path tmp;

    @Test
    void prepareFailsWithTheCauseBeforeTheKubeletsDeadlineWhileTheApiServerIsDown() throws Exception {
        try (ControlPlane plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly())) {
            KubernetesClient client = plane.client();
            client.resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(NODE)
                            .endMetadata()
                            .build())
                    .create();
            client.resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("ml")
                            .endMetadata()
                            .build())
                    .create();
            ResourceClaim claim = allocatedClaim(client);
            Path root = Files.createDirectories(tmp.resolve("kubelet"));
            Files.createDirectories(root.resolve("plugins_registry"));
            Path devices = Files.writeString(tmp.resolve("devices.yaml"), """
                    driver: gpu.fake.dra4j.io
                    devices:
                      - name: gpu-0
                      - name: gpu-1
                    """);
            StringWriter driverOut = new StringWriter();
            AtomicInteger driverStatus = new AtomicInteger(-1);
            Thread driver = new Thread(() -> driverStatus.set(Main.run(
                    new String[] {
                        "driver",
                        "fake",
                        "--config",
                        devices.toString(),
                        "--node-name",
                        NODE,
                        "--kubelet-root",
                        root.toString(),
                        "--cdi-dir",
                        tmp.resolve("cdi").toString(),
                        "--kubeconfig",
                        plane.kubeconfig().toString()
                    },
                    new PrintWriter(driverOut, true),
                    new PrintWriter(driverOut, true))));
            driver.start();
            try {
                Path socket = root.resolve("plugins").resolve(DRIVER).resolve("dra.sock");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!Files.exists(socket) && System.nanoTime() < deadline && driver.isAlive()) {
                    Thread.sleep(50);
                }
                assertThat(socket).as(driverOut.toString()).exists();

                plane.stopApiServer();
                NodePrepareResourceResponse down;
                long started = System.nanoTime();
                try {
                    down = prepare(socket, claim);
                } finally {
                    plane.startApiServer();
                }
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(took)
                        .as("prepare while the API server is down took %s", took)
                        .isLessThan(Duration.ofSeconds(40));
                assertThat(down.getError())
                        .as(driverOut.toString())
                        .startsWith("retrieve claim ml/train: API server "
                                + plane.server().toString().replaceAll("/$", "")
                                + " unreachable (gave up after 2 attempts): ")
                        // The cause depends on where the connection broke: refused, or closed under a pooled one.
                        .containsPattern("attempts\\): \\w+(Exception|Error)");

                NodePrepareResourceResponse back = prepare(socket, claim);
                assertThat(back.getError()).as(driverOut.toString()).isEmpty();
                assertThat(back.getDevicesList())
                        .extracting(d -> d.getDeviceName())
                        .containsExactly("gpu-1");
            } finally {
                driver.interrupt();
                driver.join(20_000);
            }
            assertThat(driverStatus.get()).as(driverOut.toString()).isZero();
        }
    }

    private static ResourceClaim allocatedClaim(KubernetesClient client) {
        ResourceClaim created = client.resource(new ResourceClaimBuilder()
                        .withNewMetadata()
                        .withName("train")
                        .withNamespace("ml")
                        .endMetadata()
                        .withNewSpec()
                        .withNewDevices()
                        .addNewRequest()
                        .withName("gpu")
                        .withNewExactly()
                        .withDeviceClassName(DRIVER)
                        .endExactly()
                        .endRequest()
                        .endDevices()
                        .endSpec()
                        .build())
                .create();
        return client.resource(new ResourceClaimBuilder(created)
                        .withNewStatus()
                        .withNewAllocation()
                        .withNodeSelector(new NodeSelectorBuilder()
                                .addNewNodeSelectorTerm()
                                .addNewMatchField()
                                .withKey("metadata.name")
                                .withOperator("In")
                                .withValues(NODE)
                                .endMatchField()
                                .endNodeSelectorTerm()
                                .build())
                        .withNewDevices()
                        .addNewResult()
                        .withRequest("gpu")
                        .withDriver(DRIVER)
                        .withPool(NODE)
                        .withDevice("gpu-1")
                        .endResult()
                        .endDevices()
                        .endAllocation()
                        .endStatus()
                        .build())
                .updateStatus();
    }

    /** NodePrepareResources as the kubelet calls it (v1, its 45 s deadline). */
    private static NodePrepareResourceResponse prepare(Path socket, ResourceClaim c) {
        try (UnixSocketChannel ch = UnixSocketChannel.dial(socket)) {
            return DRAPluginGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(45, TimeUnit.SECONDS)
                    .nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
                            .addClaims(Claim.newBuilder()
                                    .setNamespace("ml")
                                    .setName("train")
                                    .setUid(c.getMetadata().getUid()))
                            .build())
                    .getClaimsMap()
                    .get(c.getMetadata().getUid());
        }
    }
}
