package io.dra4j.drivers.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.kubelet.dra.DeviceHealth;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The health mapping on the documentation-derived fixtures (src/test/resources/nvidia-smi/README.md). */
class NvidiaHealthTest {
    private static final Instant AT = Instant.parse("2026-12-02T10:00:00.250Z");

    private static String read(String name) throws Exception {
        return Files.readString(NvidiaDiscoveryTest.DIR.resolve(name));
    }

    private static String taints(NvidiaHealth.GpuHealth h) {
        return String.join(
                " ",
                h.taints().stream()
                        .map(t -> t.getKey() + "=" + t.getValue() + ":" + t.getEffect() + "@" + t.getTimeAdded())
                        .toList());
    }

    @Test
    void kernelLogLinesBecomeXidsOnTheirBus() throws Exception {
        assertThat(NvidiaHealth.parseXids(read("h100-sxm.xid.log")))
                .containsExactly(
                        new NvidiaHealth.Xid(
                                "0000:18:00",
                                13,
                                "pid=48211, name=python3, Graphics Exception: ESR 0x404600=0x80000002"),
                        new NvidiaHealth.Xid(
                                "0000:18:00",
                                13,
                                "pid=48211, name=python3, Graphics Exception: ESR 0x404600=0x80000002"),
                        new NvidiaHealth.Xid(
                                "0000:2a:00", 79, "pid='<unknown>', name=<unknown>, GPU has fallen off the bus."));
        // Older drivers print the address without "PCI:".
        assertThat(NvidiaHealth.parseXids("NVRM: Xid (0000:03:00): 48, An uncorrectable double bit error"))
                .containsExactly(new NvidiaHealth.Xid("0000:03:00", 48, "An uncorrectable double bit error"));
    }

    @Test
    void eccQueryLinesAreParsedAndNotApplicableIsNoCount() throws Exception {
        assertThat(NvidiaHealth.parseEcc(read("h100-sxm.ecc.csv")))
                .containsExactly(
                        new NvidiaHealth.Ecc(0, "0000:18:00", true, 0), new NvidiaHealth.Ecc(1, "0000:2a:00", true, 2));
        assertThat(NvidiaHealth.parseEcc(read("l4.ecc.csv")))
                .containsExactly(new NvidiaHealth.Ecc(0, "0000:00:03", false, -1));
        assertThatThrownBy(() -> NvidiaHealth.parseEcc("0, 00000000:18:00.0, Enabled, 0\n1, 00000000:2A:00.0\n"))
                .hasMessage(
                        "nvidia-smi --query-gpu=index,pci.bus_id,ecc.mode.current,"
                                + "ecc.errors.uncorrected.volatile.total --format=csv,noheader,nounits, line 2: expected index, "
                                + "pci.bus_id, ecc.mode.current, ecc.errors.uncorrected.volatile.total, got: 1, 00000000:2A:00.0");
        assertThatThrownBy(() -> NvidiaHealth.parseEcc("0, 00000000:18:00.0, Enabled, many"))
                .hasMessageEndingWith("line 1: not a number: 0, 00000000:18:00.0, Enabled, many");
    }

    @Test
    void applicationXidsTaintForInformationCriticalXidsAndEccMakeTheGpuUnhealthy() throws Exception {
        List<GpuInfo> gpus = NvidiaDiscoveryTest.load("h100-sxm", false);
        List<NvidiaHealth.GpuHealth> h = NvidiaHealth.evaluate(
                gpus,
                NvidiaHealth.parseEcc(read("h100-sxm.ecc.csv")),
                NvidiaHealth.parseXids(read("h100-sxm.xid.log")),
                AT);
        assertThat(h).extracting(NvidiaHealth.GpuHealth::device).containsExactly("gpu-0", "gpu-1");

        assertThat(h.get(0).status()).isEqualTo(DeviceHealth.Status.HEALTHY);
        assertThat(taints(h.get(0))).isEqualTo("gpu.nvidia.com/xid=13:None@2026-12-02T10:00:00Z");
        assertThat(h.get(0).message())
                .isEqualTo("XID 13: pid=48211, name=python3, Graphics Exception: ESR 0x404600=0x80000002");

        assertThat(h.get(1).status()).isEqualTo(DeviceHealth.Status.UNHEALTHY);
        assertThat(taints(h.get(1)))
                .isEqualTo("gpu.nvidia.com/xid=79:NoSchedule@2026-12-02T10:00:00Z "
                        + "gpu.nvidia.com/ecc=uncorrectable:NoSchedule@2026-12-02T10:00:00Z");
        assertThat(h.get(1).message())
                .isEqualTo("XID 79: pid='<unknown>', name=<unknown>, GPU has fallen off the "
                        + "bus.; 2 uncorrectable ECC error(s) since the driver loaded");
    }

    @Test
    void aGpuWithoutEventsIsHealthyAndUntainted() throws Exception {
        List<GpuInfo> gpus = NvidiaDiscoveryTest.load("l4", false);
        List<NvidiaHealth.GpuHealth> h = NvidiaHealth.evaluate(
                gpus, NvidiaHealth.parseEcc(read("l4.ecc.csv")), NvidiaHealth.parseXids(read("h100-sxm.xid.log")), AT);
        assertThat(h).singleElement().satisfies(g -> {
            assertThat(g.status()).isEqualTo(DeviceHealth.Status.HEALTHY);
            assertThat(g.taints()).isEmpty();
            assertThat(g.message()).isEmpty();
        });
    }

    @Test
    void uncorrectableEccAloneMakesTheGpuUnhealthyButADisabledCounterDoesNot() throws Exception {
        List<GpuInfo> gpus = NvidiaDiscoveryTest.load("h100-sxm", false);
        List<NvidiaHealth.GpuHealth> h = NvidiaHealth.evaluate(
                gpus,
                List.of(
                        new NvidiaHealth.Ecc(0, "0000:18:00", false, 5),
                        new NvidiaHealth.Ecc(1, "0000:2a:00", true, 1)),
                List.of(),
                AT);
        assertThat(h.get(0).status()).isEqualTo(DeviceHealth.Status.HEALTHY);
        assertThat(h.get(1).status()).isEqualTo(DeviceHealth.Status.UNHEALTHY);
        assertThat(taints(h.get(1))).isEqualTo("gpu.nvidia.com/ecc=uncorrectable:NoSchedule@2026-12-02T10:00:00Z");
    }
}
