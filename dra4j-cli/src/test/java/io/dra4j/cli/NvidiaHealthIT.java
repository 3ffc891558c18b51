package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.kubelet.UnixSocketChannel;
import io.dra4j.kubelet.UnixSocketServer;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.DevicePluginGrpc;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.Empty;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.ListAndWatchResponse;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.RegisterRequest;
import io.dra4j.kubelet.proto.deviceplugin.v1beta1.RegistrationGrpc;
import io.dra4j.kubelet.proto.health.v1.DRAResourceHealthGrpc;
import io.dra4j.kubelet.proto.health.v1.DeviceHealth;
import io.dra4j.kubelet.proto.health.v1.HealthStatus;
import io.dra4j.kubelet.proto.health.v1.NodeWatchResourcesRequest;
import io.dra4j.kubelet.proto.health.v1.NodeWatchResourcesResponse;
import io.dra4j.kubelet.proto.registration.InfoRequest;
import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.stub.StreamObserver;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GPU health end to end, without a GPU: {@code dra4j driver nvidia --health} and {@code dra4j device-plugin nvidia
 * --health} run on the recorded H100 discovery fixture with a stand-in nvidia-smi that prints the ECC query's
 * documentation-derived CSV, while the test appends XID lines (as NVIDIA's XID documentation shows them, the
 * {@code h100-sxm.xid.log} fixture) to the kernel log they read. A gRPC client acts as the kubelet over the real
 * Unix sockets; the DRA driver publishes to a real kube-apiserver.
 */
class NvidiaHealthIT {
    static final Path FIXTURES =
            Path.of("../dra4j-drivers/src/test/resources/nvidia-smi").toAbsolutePath();
    static final String NODE = "gpu-node";

    @TempDir
    Path tmp;

    /** A stand-in nvidia-smi: answers the ECC query with no uncorrectable errors, anything else fails. */
    private Path nvidiaSmi() throws Exception {
        Path csv = Files.writeString(
                tmp.resolve("ecc.csv"),
                Files.readString(FIXTURES.resolve("h100-sxm.ecc.csv")).replace("Enabled, 2", "Enabled, 0"));
        Path smi = tmp.resolve("nvidia-smi");
        Files.writeString(
                smi,
                "#!/bin/sh\ncase \"$1\" in\n  --query-gpu=*) cat '" + csv + "' ;;\n"
                        + "  *) echo \"unexpected: $*\" >&2; exit 2 ;;\nesac\n");
        Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwx------"));
        return smi;
    }

    /** A kernel log with boot lines and no XID yet. */
    private Path kernelLog() throws Exception {
        return Files.writeString(
                tmp.resolve("kern.log"),
                "[    1.000000] Linux version 6.8.0\n[  102.448213] nvidia-nvlink: Nvlink Core is being initialized\n");
    }

    private void appendXids(Path log) throws Exception {
        Files.writeString(log, Files.readString(FIXTURES.resolve("h100-sxm.xid.log")), StandardOpenOption.APPEND);
    }

    private static Thread background(String[] args, StringWriter out, AtomicInteger status) {
        Thread t = new Thread(() -> status.set(Main.run(args, new PrintWriter(out, true), new PrintWriter(out, true))));
        t.start();
        return t;
    }

    private static void awaitFile(Path p, Thread owner, StringWriter out) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(p) && System.nanoTime() < deadline && owner.isAlive()) {
            Thread.sleep(50);
        }
        assertThat(p).as(out.toString()).exists();
    }

    /** Device name to "STATUS" or "STATUS message" from one health update. */
    private static Map<String, String> health(NodeWatchResourcesResponse r) {
        Map<String, String> out = new TreeMap<>();
        for (DeviceHealth d : r.getDevicesList()) {
            assertThat(d.getDevice().getPoolName()).isEqualTo(NODE);
            out.put(
                    d.getDevice().getDeviceName(),
                    d.getHealth() + (d.getMessage().isEmpty() ? "" : " " + d.getMessage()));
        }
        return out;
    }

    /** Device name to its taints as key=value:effect, from every slice of the node. */
    private static Map<String, List<String>> taints(KubernetesClient client) {
        Map<String, List<String>> out = new TreeMap<>();
        for (ResourceSlice s : client.resources(ResourceSlice.class)
                .withField("spec.nodeName", NODE)
                .list()
                .getItems()) {
            for (Device d : s.getSpec().getDevices()) {
                out.put(
                        d.getName(),
                        d.getTaints() == null
                                ? List.of()
                                : d.getTaints().stream()
                                        .map(t -> t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
                                        .toList());
            }
        }
        return out;
    }

    private static <T> T awaitValue(String what, java.util.function.Supplier<T> read, Predicate<T> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        T v = read.get();
        while (!done.test(v)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what + "; last: " + v);
            }
            Thread.sleep(200);
            v = read.get();
        }
        return v;
    }

    @Test
    void driverStreamsHealthToTheKubeletAndTaintsTheSlicesFromXidsAppendedWhileRunning() throws Exception {
        try (ControlPlane plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly())) {
            KubernetesClient client = plane.client();
            client.resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(NODE)
                            .endMetadata()
                            .build())
                    .create();
            Path root = Files.createDirectories(tmp.resolve("kubelet"));
            Files.createDirectories(root.resolve("plugins_registry"));
            Path log = kernelLog();
            StringWriter out = new StringWriter();
            AtomicInteger status = new AtomicInteger(-1);
            Thread driver = background(
                    new String[] {
                        "driver",
                        "nvidia",
                        "--node-name",
                        NODE,
                        "--kubelet-root",
                        root.toString(),
                        "--cdi-dir",
                        tmp.resolve("cdi").toString(),
                        "--kubeconfig",
                        plane.kubeconfig().toString(),
                        "--nvidia-smi",
                        nvidiaSmi().toString(),
                        "--nvidia-smi-xml",
                        FIXTURES.resolve("h100-sxm.xml").toString(),
                        "--nvidia-smi-list",
                        FIXTURES.resolve("h100-sxm.L.txt").toString(),
                        "--health",
                        "--kernel-log",
                        log.toString(),
                        "--health-interval",
                        "1",
                        "--sync-delay",
                        "1"
                    },
                    out,
                    status);
            try {
                Path registration = root.resolve("plugins_registry/gpu.nvidia.com-reg.sock");
                awaitFile(registration, driver, out);
                // The kubelet's first step: GetInfo lists the health service it will watch.
                try (UnixSocketChannel ch = UnixSocketChannel.dial(registration)) {
                    assertThat(io.dra4j.kubelet.proto.registration.RegistrationGrpc.newBlockingStub(ch.channel())
                                    .withDeadlineAfter(5, TimeUnit.SECONDS)
                                    .getInfo(InfoRequest.getDefaultInstance())
                                    .getSupportedVersionsList())
                            .contains("v1.DRAResourceHealth");
                }
                Map<String, List<String>> clean =
                        awaitValue("the GPUs are published", () -> taints(client), t -> t.size() == 2);
                assertThat(clean)
                        .containsOnlyKeys("gpu-0", "gpu-1")
                        .allSatisfy((d, t) -> assertThat(t).isEmpty());

                try (UnixSocketChannel ch = UnixSocketChannel.dial(root.resolve("plugins/gpu.nvidia.com/dra.sock"))) {
                    Iterator<NodeWatchResourcesResponse> stream = DRAResourceHealthGrpc.newBlockingStub(ch.channel())
                            .withDeadlineAfter(60, TimeUnit.SECONDS)
                            .nodeWatchResources(NodeWatchResourcesRequest.getDefaultInstance());
                    assertThat(health(stream.next()))
                            .containsExactly(Map.entry("gpu-0", "HEALTHY"), Map.entry("gpu-1", "HEALTHY"));

                    appendXids(log);
                    Map<String, String> after = health(stream.next());
                    while (after.get("gpu-1").startsWith("HEALTHY")) {
                        after = health(stream.next());
                    }
                    assertThat(after)
                            .containsExactly(
                                    Map.entry(
                                            "gpu-0",
                                            "HEALTHY XID 13: pid=48211, name=python3, Graphics Exception: "
                                                    + "ESR 0x404600=0x80000002"),
                                    Map.entry(
                                            "gpu-1",
                                            "UNHEALTHY XID 79: pid='<unknown>', name=<unknown>, GPU has fallen "
                                                    + "off the bus."));
                    assertThat(stream.next().getDevicesList())
                            .extracting(DeviceHealth::getHealth)
                            .as("the report is sent again, complete")
                            .containsExactly(HealthStatus.HEALTHY, HealthStatus.UNHEALTHY);
                }
                Map<String, List<String>> tainted = awaitValue(
                        "the slices carry the XID taints",
                        () -> taints(client),
                        t -> !t.getOrDefault("gpu-1", List.of()).isEmpty());
                assertThat(tainted)
                        .containsExactly(
                                Map.entry("gpu-0", List.of("gpu.nvidia.com/xid=13:None")),
                                Map.entry("gpu-1", List.of("gpu.nvidia.com/xid=79:NoSchedule")));
            } finally {
                driver.interrupt();
                driver.join(20_000);
            }
            assertThat(status.get()).as(out.toString()).isZero();
        }
    }

    @Test
    void devicePluginAdvertisesAGpuWithACriticalXidUnhealthyInListAndWatch() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("device-plugins"));
        List<RegisterRequest> registered = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (UnixSocketServer kubelet = UnixSocketServer.start(
                dir.resolve("kubelet.sock"), List.of(new RegistrationGrpc.RegistrationImplBase() {
                    @Override
                    public void register(RegisterRequest request, StreamObserver<Empty> response) {
                        registered.add(request);
                        response.onNext(Empty.getDefaultInstance());
                        response.onCompleted();
                    }
                }))) {
            Path log = kernelLog();
            StringWriter out = new StringWriter();
            AtomicInteger status = new AtomicInteger(-1);
            Thread plugin = background(
                    new String[] {
                        "device-plugin",
                        "nvidia",
                        "--device-plugin-dir",
                        dir.toString(),
                        "--nvidia-smi",
                        nvidiaSmi().toString(),
                        "--nvidia-smi-xml",
                        FIXTURES.resolve("h100-sxm.xml").toString(),
                        "--health",
                        "--kernel-log",
                        log.toString(),
                        "--health-interval",
                        "1"
                    },
                    out,
                    status);
            try {
                Path socket = dir.resolve("nvidia-gpu.sock");
                awaitFile(socket, plugin, out);
                awaitValue("the plugin registered", registered::size, n -> n == 1);
                assertThat(registered.get(0).getResourceName()).isEqualTo("nvidia.com/gpu");
                try (UnixSocketChannel ch = UnixSocketChannel.dial(socket)) {
                    Iterator<ListAndWatchResponse> stream = DevicePluginGrpc.newBlockingStub(ch.channel())
                            .withDeadlineAfter(60, TimeUnit.SECONDS)
                            .listAndWatch(Empty.getDefaultInstance());
                    assertThat(stream.next().getDevicesList())
                            .extracting(d -> d.getID() + " " + d.getHealth())
                            .containsExactly(
                                    "GPU-6a5c2f4e-91d3-8b27-0c4e-3f1a9d7b5e21 Healthy",
                                    "GPU-0e8b7d3a-52c1-44f9-a6d2-9b1c7e4f3a08 Healthy");
                    appendXids(log);
                    // XID 13 on gpu-0 is an application error (stays Healthy); XID 79 on gpu-1 is critical.
                    assertThat(stream.next().getDevicesList())
                            .extracting(d -> d.getID() + " " + d.getHealth())
                            .containsExactly(
                                    "GPU-6a5c2f4e-91d3-8b27-0c4e-3f1a9d7b5e21 Healthy",
                                    "GPU-0e8b7d3a-52c1-44f9-a6d2-9b1c7e4f3a08 Unhealthy");
                }
            } finally {
                plugin.interrupt();
                plugin.join(20_000);
            }
            assertThat(status.get()).as(out.toString()).isZero();
        }
    }
}
