package io.dra4j.drivers.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.kubelet.slices.SliceLayout;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Discovery on the nvidia-smi fixtures (see src/test/resources/nvidia-smi/README.md for what they are). */
class NvidiaDiscoveryTest {
    static final Path DIR = Path.of("src/test/resources/nvidia-smi");

    static List<GpuInfo> load(String name, boolean lgi) throws Exception {
        return NvidiaDiscovery.recorded(
                DIR.resolve(name + ".xml"), DIR.resolve(name + ".L.txt"), lgi ? DIR.resolve(name + ".lgi.txt") : null);
    }

    static Device device(NvidiaDevices.Published p, String name) {
        return p.devices().stream()
                .filter(d -> d.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void h100SxmGpusGetTheAttributesOfNvidiasDriver() throws Exception {
        List<GpuInfo> gpus = load("h100-sxm", false);
        assertThat(gpus).hasSize(2);
        NvidiaDevices.Published p = NvidiaDevices.of(gpus);
        assertThat(p.devices()).extracting(Device::getName).containsExactly("gpu-0", "gpu-1");
        assertThat(p.counterSets()).isEmpty();
        Device d = device(p, "gpu-0");
        assertThat(d.getAttributes().get("type").getString()).isEqualTo("gpu");
        assertThat(d.getAttributes().get("uuid").getString()).isEqualTo("GPU-6a5c2f4e-91d3-8b27-0c4e-3f1a9d7b5e21");
        assertThat(d.getAttributes().get("productName").getString()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(d.getAttributes().get("architecture").getString()).isEqualTo("Hopper");
        assertThat(d.getAttributes().get("cudaComputeCapability").getVersion()).isEqualTo("9.0.0");
        assertThat(d.getAttributes().get("driverVersion").getVersion()).isEqualTo("570.158.1");
        assertThat(d.getAttributes().get("cudaDriverVersion").getVersion()).isEqualTo("12.8.0");
        assertThat(d.getAttributes().get("resource.kubernetes.io/pciBusID").getString())
                .isEqualTo("0000:18:00.0");
        assertThat(d.getCapacity().get("memory").getValue().getNumericalAmount().longValueExact())
                .isEqualTo(81559L * 1024 * 1024);
        assertThat(device(p, "gpu-1")
                        .getAttributes()
                        .get("resource.kubernetes.io/pciBusID")
                        .getString())
                .isEqualTo("0000:2a:00.0");
    }

    @Test
    void a100MigDevicesArePartitionsOfTheirGpuThroughMemorySliceCounters() throws Exception {
        List<GpuInfo> gpus = load("a100-mig", true);
        NvidiaDevices.Published p = NvidiaDevices.of(gpus);
        // GPU 0 has MIG on (Ampere: the full GPU is not announced); GPU 1 is a plain GPU.
        assertThat(p.devices())
                .extracting(Device::getName)
                .containsExactly(
                        "gpu-0-mig-3g20gb-9-4",
                        "gpu-0-mig-2g10gb-14-0",
                        "gpu-0-mig-1g5gb-19-2",
                        "gpu-0-mig-1g5gb-19-3",
                        "gpu-1");
        assertThat(p.counterSets()).singleElement().satisfies(cs -> {
            assertThat(cs.getName()).isEqualTo("gpu-0-counter-set");
            assertThat(cs.getCounters()).hasSize(8);
        });
        Device mig = device(p, "gpu-0-mig-3g20gb-9-4");
        assertThat(mig.getAttributes().get("type").getString()).isEqualTo("mig");
        assertThat(mig.getAttributes().get("profile").getString()).isEqualTo("3g.20gb");
        assertThat(mig.getAttributes().get("uuid").getString()).isEqualTo("MIG-5e2b8c1d-93a4-5f7e-b2d6-8c1e4a9f3b72");
        assertThat(mig.getAttributes().get("parentUUID").getString())
                .isEqualTo("GPU-3b9e1c5d-7a24-4f8e-b6c1-2d9a8e7f4c53");
        assertThat(mig.getAttributes().get("cudaComputeCapability").getVersion())
                .isEqualTo("8.0.0");
        assertThat(mig.getCapacity().get("multiprocessors").getValue().getAmount())
                .isEqualTo("42");
        assertThat(mig.getCapacity())
                .containsKeys("memorySlice4", "memorySlice7")
                .doesNotContainKey("memorySlice3");
        assertThat(mig.getConsumesCounters()).singleElement().satisfies(c -> {
            assertThat(c.getCounterSet()).isEqualTo("gpu-0-counter-set");
            assertThat(c.getCounters())
                    .containsOnlyKeys("memory-slice-4", "memory-slice-5", "memory-slice-6", "memory-slice-7");
        });
        // The placements do not overlap, as MIG guarantees for existing instances.
        assertThat(SliceLayout.validate(p.devices(), p.counterSets())).isEmpty();
    }

    @Test
    void l4WithoutMigSupport() throws Exception {
        NvidiaDevices.Published p = NvidiaDevices.of(load("l4", false));
        assertThat(p.devices()).singleElement().satisfies(d -> {
            assertThat(d.getName()).isEqualTo("gpu-0");
            assertThat(d.getAttributes().get("architecture").getString()).isEqualTo("Ada Lovelace");
            assertThat(d.getAttributes().get("cudaComputeCapability").getVersion())
                    .isEqualTo("8.9.0");
            assertThat(d.getAttributes().get("driverVersion").getVersion()).isEqualTo("535.230.2");
            assertThat(d.getAttributes().get("resource.kubernetes.io/pciBusID").getString())
                    .isEqualTo("0000:00:03.0");
        });
    }

    @Test
    void brokenOutputIsAnErrorNamingTheSource() throws Exception {
        Path xml = Files.createTempFile("nvidia-smi", ".xml");
        Files.writeString(xml, Files.readString(DIR.resolve("l4.xml")).substring(0, 400));
        assertThatThrownBy(() -> NvidiaDiscovery.recorded(xml, null, null))
                .hasMessageStartingWith(xml + ": not nvidia-smi XML");
        Files.writeString(xml, Files.readString(DIR.resolve("a100-mig.xml")));
        assertThatThrownBy(() -> NvidiaDiscovery.recorded(xml, null, null))
                .hasMessageContaining("GPU instance 2 is not in the nvidia-smi mig -lgi output");
        Files.delete(xml);
    }
}
