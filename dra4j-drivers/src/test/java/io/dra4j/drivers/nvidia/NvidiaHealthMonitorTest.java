package io.dra4j.drivers.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.kubelet.deviceplugin.PluginDevice;
import io.dra4j.kubelet.dra.DeviceHealth;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Checks over time on the documentation-derived health fixtures, through a stand-in nvidia-smi. */
class NvidiaHealthMonitorTest {
    private final AtomicReference<String> ecc = new AtomicReference<>();
    private final AtomicReference<String> log = new AtomicReference<>("");
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-02T10:00:00Z"));
    private final List<List<String>> calls = new java.util.concurrent.CopyOnWriteArrayList<>();

    private NvidiaHealthMonitor monitor() throws Exception {
        NvidiaSmi smi = args -> {
            calls.add(args);
            return new NvidiaSmi.Output(0, ecc.get());
        };
        Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
        return new NvidiaHealthMonitor(NvidiaDiscoveryTest.load("h100-sxm", false), smi, log::get, clock);
    }

    private static String read(String name) throws Exception {
        return Files.readString(NvidiaDiscoveryTest.DIR.resolve(name));
    }

    private static List<Device> published() throws Exception {
        return NvidiaDevices.of(NvidiaDiscoveryTest.load("h100-sxm", false), false)
                .devices();
    }

    private static List<String> taints(List<Device> devices) {
        return devices.stream()
                .flatMap(d -> d.getTaints() == null
                        ? java.util.stream.Stream.<String>empty()
                        : d.getTaints().stream()
                                .map(t -> d.getName() + " " + t.getKey() + "=" + t.getValue() + ":" + t.getEffect()
                                        + "@" + t.getTimeAdded()))
                .toList();
    }

    @Test
    void anXidTaintsAndReportsItsGpuWithAStableDateUntilItIsGone() throws Exception {
        ecc.set(read("h100-sxm.ecc.csv").replace("Enabled, 2", "Enabled, 0"));
        NvidiaHealthMonitor m = monitor();
        assertThat(m.report("node-a", published()))
                .extracting(DeviceHealth::status)
                .containsOnly(DeviceHealth.Status.UNKNOWN);
        assertThat(m.check()).isTrue();
        assertThat(calls).containsExactly(NvidiaHealth.ECC_QUERY);
        assertThat(taints(m.taint(published()))).isEmpty();
        assertThat(m.check()).isFalse();

        now.set(now.get().plusSeconds(10));
        log.set(read("h100-sxm.xid.log"));
        assertThat(m.check()).isTrue();
        assertThat(taints(m.taint(published())))
                .containsExactly(
                        "gpu-0 gpu.nvidia.com/xid=13:None@2026-12-02T10:00:10Z",
                        "gpu-1 gpu.nvidia.com/xid=79:NoSchedule@2026-12-02T10:00:10Z");
        assertThat(m.report("node-a", published()))
                .extracting(h -> h.device() + " " + h.status() + " " + h.lastUpdated())
                .containsExactly("gpu-0 HEALTHY 2026-12-02T10:00:10Z", "gpu-1 UNHEALTHY 2026-12-02T10:00:10Z");

        // Later checks that see the same keep the date: nothing to publish.
        now.set(now.get().plusSeconds(10));
        assertThat(m.check()).isFalse();
        assertThat(taints(m.taint(published())))
                .contains("gpu-1 gpu.nvidia.com/xid=79:NoSchedule@2026-12-02T10:00:10Z");
        assertThat(m.report("node-a", published()).get(1).lastUpdated()).isEqualTo("2026-12-02T10:00:20Z");

        // New uncorrectable ECC errors add a taint with the GPU's first date; a rotated log drops the XIDs.
        ecc.set(read("h100-sxm.ecc.csv"));
        assertThat(m.check()).isTrue();
        assertThat(taints(m.taint(published())))
                .contains("gpu-1 gpu.nvidia.com/ecc=uncorrectable:NoSchedule@2026-12-02T10:00:10Z");
        log.set("");
        ecc.set(read("h100-sxm.ecc.csv").replace("Enabled, 2", "Enabled, 0"));
        now.set(now.get().plusSeconds(10));
        assertThat(m.check()).isTrue();
        assertThat(taints(m.taint(published()))).isEmpty();
        assertThat(m.report("node-a", published()))
                .extracting(DeviceHealth::status)
                .containsOnly(DeviceHealth.Status.HEALTHY);
    }

    @Test
    void theDevicePluginAdvertisesTheGpusTheSameChecksFindUnhealthy() throws Exception {
        ecc.set(read("h100-sxm.ecc.csv").replace("Enabled, 2", "Enabled, 0"));
        NvidiaHealthMonitor m = monitor();
        List<GpuInfo> gpus = NvidiaDiscoveryTest.load("h100-sxm", false);
        NvidiaDevicePlugin plugin = new NvidiaDevicePlugin(gpus);
        String uuid0 = gpus.get(0).uuid();
        String uuid1 = gpus.get(1).uuid();
        m.check();
        assertThat(plugin.devices(m)).allMatch(PluginDevice::healthy).hasSize(gpus.size());

        // gpu-0 got application XID 13 (stays healthy), gpu-1 critical XID 79 (Unhealthy), as the taints say.
        log.set(read("h100-sxm.xid.log"));
        assertThat(m.check()).isTrue();
        assertThat(plugin.devices(m))
                .filteredOn(d -> !d.healthy())
                .extracting(PluginDevice::id)
                .containsExactly(uuid1);
        assertThat(plugin.devices(m))
                .filteredOn(d -> d.id().equals(uuid0))
                .singleElement()
                .extracting(PluginDevice::healthy)
                .isEqualTo(true);

        // Uncorrectable ECC errors alone make a GPU unhealthy too; a rotated log and clean counters restore it.
        log.set("");
        ecc.set(read("h100-sxm.ecc.csv"));
        m.check();
        assertThat(plugin.devices(m))
                .filteredOn(d -> !d.healthy())
                .extracting(PluginDevice::id)
                .containsExactly(uuid1);
        ecc.set(read("h100-sxm.ecc.csv").replace("Enabled, 2", "Enabled, 0"));
        m.check();
        assertThat(plugin.devices(m)).allMatch(PluginDevice::healthy);
    }

    @Test
    void aFailingQueryIsAnErrorNamingTheCommand() throws Exception {
        NvidiaSmi smi = args -> new NvidiaSmi.Output(9, "NVIDIA-SMI has failed");
        NvidiaHealthMonitor m =
                new NvidiaHealthMonitor(NvidiaDiscoveryTest.load("h100-sxm", false), smi, () -> "", Clock.systemUTC());
        assertThatThrownBy(m::check)
                .hasMessage("nvidia-smi " + String.join(" ", NvidiaHealth.ECC_QUERY)
                        + " exited with 9: NVIDIA-SMI has failed");
    }
}
