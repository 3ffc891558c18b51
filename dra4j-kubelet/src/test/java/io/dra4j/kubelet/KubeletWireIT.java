package io.dra4j.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dra4j.kubelet.cdi.ContainerEdits;
import io.dra4j.kubelet.deviceplugin.ContainerAllocation;
import io.dra4j.kubelet.deviceplugin.DevicePlugin;
import io.dra4j.kubelet.deviceplugin.DevicePluginServer;
import io.dra4j.kubelet.deviceplugin.PluginDevice;
import io.dra4j.kubelet.dra.DeviceHealth;
import io.dra4j.kubelet.dra.DraDriver;
import io.dra4j.kubelet.dra.DraPlugin;
import io.dra4j.kubelet.dra.DraPluginOptions;
import io.dra4j.kubelet.dra.PrepareResult;
import io.dra4j.kubelet.dra.PreparedClaim;
import io.dra4j.kubelet.dra.PreparedDevice;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wire compatibility with upstream's own generated code: {@code oracle/kubeletwire} (a Go client and server on
 * k8s.io/kubelet v0.37.2) registers with and calls the Java DRA plugin over its Unix sockets, and serves
 * {@code kubelet.sock} to the Java device plugin. It prints what upstream's decoder read; this test checks it.
 * Skipped when no Go toolchain is installed.
 */
class KubeletWireIT {
    static final Path MODULE =
            Path.of("..", "oracle", "kubeletwire").toAbsolutePath().normalize();
    static final JsonMapper JSON = JsonMapper.builder().build();
    static Path binary;

    @TempDir
    Path tmp;

    @BeforeAll
    static void build() throws Exception {
        binary = Path.of("target", "kubeletwire").toAbsolutePath();
        Process go;
        try {
            go = new ProcessBuilder("go", "build", "-o", binary.toString(), ".")
                    .directory(MODULE.toFile())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            assumeTrue(false, "no Go toolchain to build " + MODULE + ": " + e.getMessage());
            return;
        }
        String log = new String(go.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(go.waitFor(600, TimeUnit.SECONDS))
                .as("go build of " + MODULE)
                .isTrue();
        assertThat(go.exitValue()).as("go build of " + MODULE + ":\n" + log).isZero();
    }

    private static JsonNode run(List<String> args, Runnable whileRunning) throws Exception {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(args);
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            whileRunning.run();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            return JSON.readTree(out);
        } finally {
            p.destroyForcibly();
        }
    }

    /** Prepares every allocated device with one environment variable, the share ID passed on. */
    static final class EnvDriver implements DraDriver {
        final List<String> calls = new ArrayList<>();

        @Override
        public PrepareResult prepare(ResourceClaim claim, List<DeviceRequestAllocationResult> results) {
            calls.add("prepare " + claim.getMetadata().getName());
            return PrepareResult.prepared(results.stream()
                    .map(r -> new PreparedDevice(
                            List.of(r.getRequest()),
                            r.getPool(),
                            r.getDevice(),
                            r.getShareID(),
                            ContainerEdits.env(List.of("DEV_" + r.getDevice().replace('-', '_') + "=1"))))
                    .toList());
        }

        @Override
        public String unprepare(PreparedClaim claim) {
            calls.add("unprepare " + claim.claim().name());
            return null;
        }
    }

    @Test
    void upstreamsKubeletCodeRegistersAndCallsTheDraPluginOverV1AndV1beta1() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        DraPluginOptions o = DraPluginOptions.defaults("wire.dra4j.io", "node-a", root)
                .withCdiDirectory(tmp.resolve("cdi"))
                .withHealth(true);
        DeviceRequestAllocationResult shared = TestClaims.result("gpu/big", "wire.dra4j.io", "node-a", "dev-1");
        shared.setShareID("7d3c1e2a-0b5f-4c6d-8e9f-112233445566");
        ResourceClaim claim = TestClaims.allocated(
                "ns",
                "c1",
                "uid-1",
                "node-a",
                List.of(
                        TestClaims.result("gpu/big", "wire.dra4j.io", "node-a", "dev-0"),
                        shared,
                        TestClaims.result("other", "other.example.com", "node-a", "x-0")));
        EnvDriver driver = new EnvDriver();
        JsonNode out;
        try (DraPlugin plugin = DraPlugin.start(driver, (ns, n) -> "ns/c1".equals(ns + "/" + n) ? claim : null, o)) {
            plugin.reportHealth(List.of(
                    DeviceHealth.of("node-a", "dev-0", true, Instant.ofEpochSecond(1_800_000_000L), ""),
                    new DeviceHealth(
                            "node-a",
                            "dev-1",
                            DeviceHealth.Status.UNHEALTHY,
                            Instant.ofEpochSecond(1_800_000_001L),
                            Duration.ofSeconds(60),
                            "XID 79")));
            out = run(
                    List.of(
                            "dra",
                            "-registration",
                            o.registrationSocket().toString(),
                            "-claim",
                            "ns/c1/uid-1",
                            "-claim",
                            "ns/gone/uid-2"),
                    () -> {});
            assertThat(plugin.registrationStatus().registered())
                    .as(out.toString())
                    .isTrue();
        }
        assertThat(out.path("info").path("type").asString()).isEqualTo("DRAPlugin");
        assertThat(out.path("info").path("name").asString()).isEqualTo("wire.dra4j.io");
        assertThat(out.path("info").path("endpoint").asString())
                .isEqualTo(o.draSocket().toString());
        assertThat(out.path("info")
                        .path("supported_versions")
                        .valueStream()
                        .map(JsonNode::asString)
                        .toList())
                .containsExactly(
                        "v1.DRAPlugin", "v1beta1.DRAPlugin", "v1.DRAResourceHealth", "v1alpha1.DRAResourceHealth");
        assertThat(out.path("notify").isObject()).as(out.toString()).isTrue();

        JsonNode v1 = out.path("v1_prepare").path("claims");
        assertThat(v1.path("uid-1").path("error").asString()).as(out.toString()).isEmpty();
        JsonNode devices = v1.path("uid-1").path("devices");
        assertThat(devices.size()).isEqualTo(2);
        assertThat(devices.get(0).path("request_names").get(0).asString()).isEqualTo("gpu");
        assertThat(devices.get(0).path("pool_name").asString()).isEqualTo("node-a");
        assertThat(devices.get(0).path("device_name").asString()).isEqualTo("dev-0");
        assertThat(devices.get(0).path("cdi_device_ids").get(0).asString())
                .isEqualTo("k8s.wire.dra4j.io/claim=uid-1-dev-0");
        assertThat(devices.get(0).has("share_id")).isFalse();
        assertThat(devices.get(1).path("share_id").asString()).isEqualTo("7d3c1e2a-0b5f-4c6d-8e9f-112233445566");
        assertThat(v1.path("uid-2").path("error").asString())
                .isEqualTo("retrieve claim ns/gone: resourceclaims.resource.k8s.io \"gone\" not found");

        // v1beta1 carries the same answer without the share ID, which it does not have.
        JsonNode beta = out.path("v1beta1_prepare").path("claims").path("uid-1").path("devices");
        assertThat(beta.size()).isEqualTo(2);
        assertThat(beta.get(1).path("device_name").asString()).isEqualTo("dev-1");
        assertThat(beta.get(1).has("share_id")).isFalse();
        assertThat(beta.get(1).path("cdi_device_ids").get(0).asString())
                .isEqualTo("k8s.wire.dra4j.io/claim=uid-1-dev-1-7d3c1e2a-0b5f-4c6d-8e9f-112233445566");

        for (String key : List.of("v1beta1_unprepare", "v1_unprepare")) {
            JsonNode claims = out.path(key).path("claims");
            assertThat(claims.propertyNames()).as(key).containsExactlyInAnyOrder("uid-1", "uid-2");
            assertThat(claims.path("uid-1").path("error").asString()).as(key).isEmpty();
        }
        assertThat(driver.calls).containsExactly("prepare c1", "unprepare c1");

        // The first message of the health stream the kubelet keeps open: the last complete report, the same over v1
        // (the kubelet's choice) and over v1alpha1 read through upstream's client wrapper.
        for (String key : List.of("health_v1", "health_v1alpha1")) {
            JsonNode health = out.path(key).path("devices");
            assertThat(health.valueStream()
                            .map(d -> d.path("device").path("pool_name").asString() + "/"
                                    + d.path("device").path("device_name").asString() + ":"
                                    + d.path("health").asString() + ":"
                                    + d.path("last_updated_time").asString() + ":"
                                    + d.path("health_check_timeout_seconds").asString()
                                    + ":" + d.path("message").asString())
                            .toList())
                    .as(key + " in " + out)
                    .containsExactly(
                            "node-a/dev-0:HEALTHY:1800000000:0:", "node-a/dev-1:UNHEALTHY:1800000001:60:XID 79");
        }
    }

    @Test
    void upstreamsKubeletCodeServesKubeletSockToTheDevicePlugin() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("device-plugins"));
        DevicePlugin plugin = new DevicePlugin() {
            @Override
            public String resourceName() {
                return "wire.dra4j.io/gpu";
            }

            @Override
            public ContainerAllocation allocate(List<String> deviceIds) {
                return new ContainerAllocation(
                        Map.of("WIRE_DEVICES", String.join(",", deviceIds)),
                        List.of(new ContainerAllocation.Mount("/opt/wire", "/var/lib/wire", true)),
                        List.of(new ContainerAllocation.DeviceNode("/dev/wire0", "/dev/null", "rw")),
                        Map.of("wire.dra4j.io/ids", String.join(",", deviceIds)),
                        deviceIds.stream().map(id -> "wire.dra4j.io/gpu=" + id).toList());
            }

            @Override
            public boolean preStartRequired() {
                return true;
            }
        };
        List<PluginDevice> devices = List.of(
                new PluginDevice("gpu-0", true, List.of(0L), "nvl-a"),
                new PluginDevice("gpu-1", true, List.of(0L), "nvl-a"),
                new PluginDevice("gpu-2", false, List.of(1L), null));
        DevicePluginServer[] server = new DevicePluginServer[1];
        JsonNode out;
        try {
            out = run(List.of("kubelet", "-dir", dir.toString()), () -> {
                try {
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (!Files.exists(dir.resolve("kubelet.sock")) && System.nanoTime() < deadline) {
                        Thread.sleep(20);
                    }
                    server[0] = DevicePluginServer.start(plugin, dir, "wire.sock", devices, 100, m -> {});
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        } finally {
            if (server[0] != null) {
                server[0].close();
            }
        }
        assertThat(out.path("register").path("version").asString()).isEqualTo("v1beta1");
        assertThat(out.path("register").path("endpoint").asString()).isEqualTo("wire.sock");
        assertThat(out.path("register").path("resource_name").asString()).isEqualTo("wire.dra4j.io/gpu");
        assertThat(out.path("register")
                        .path("options")
                        .path("pre_start_required")
                        .asBoolean())
                .isTrue();
        assertThat(out.path("options")
                        .path("get_preferred_allocation_available")
                        .asBoolean())
                .isTrue();
        JsonNode listed = out.path("list_and_watch").path("devices");
        assertThat(listed.valueStream()
                        .map(d ->
                                d.path("ID").asString() + ":" + d.path("health").asString() + ":"
                                        + d.path("topology")
                                                .path("nodes")
                                                .get(0)
                                                .path("ID")
                                                .asLong())
                        .toList())
                .containsExactly("gpu-0:Healthy:0", "gpu-1:Healthy:0", "gpu-2:Unhealthy:1");
        JsonNode preferred =
                out.path("preferred").path("container_responses").get(0).path("deviceIDs");
        assertThat(preferred.valueStream().map(JsonNode::asString).toList())
                .containsExactlyInAnyOrder("gpu-0", "gpu-1");
        JsonNode allocated = out.path("allocate").path("container_responses").get(0);
        assertThat(allocated.path("envs").path("WIRE_DEVICES").asString()).isEqualTo("gpu-0");
        assertThat(allocated.path("mounts").get(0).path("container_path").asString())
                .isEqualTo("/opt/wire");
        assertThat(allocated.path("mounts").get(0).path("read_only").asBoolean())
                .isTrue();
        assertThat(allocated.path("devices").get(0).path("permissions").asString())
                .isEqualTo("rw");
        assertThat(allocated.path("annotations").path("wire.dra4j.io/ids").asString())
                .isEqualTo("gpu-0");
        assertThat(allocated.path("cdi_devices").get(0).path("name").asString()).isEqualTo("wire.dra4j.io/gpu=gpu-0");
        assertThat(out.path("prestart").isObject()).as(out.toString()).isTrue();
    }
}
