package io.dra4j.drivers.nvidia;

import io.dra4j.kubelet.slices.SliceLayout;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The dynamic MIG fixtures of src/test/resources/nvidia-smi and the slices a node publishes from them. */
final class MigFixtures {
    static final Path DIR = Path.of("src/test/resources/nvidia-smi");

    private MigFixtures() {}

    static Path file(String name, String kind) {
        return DIR.resolve(name + "." + kind);
    }

    /** Discovery of fixture {@code name} with its profiles ({@code .lgip.txt}, {@code .lgipp.txt}). */
    static List<GpuInfo> gpus(String name) throws Exception {
        Path lgi = file(name, "lgi.txt");
        return NvidiaDiscovery.recorded(
                file(name, "xml"),
                file(name, "L.txt"),
                Files.exists(lgi) ? lgi : null,
                file(name, "lgip.txt"),
                file(name, "lgipp.txt"));
    }

    static Device device(NvidiaDevices.Published p, String name) {
        return p.devices().stream()
                .filter(d -> d.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The ResourceSlices of {@code node}'s pool, cut as ResourceSlicePublisher cuts them. */
    static List<ResourceSlice> slices(NvidiaDevices.Published p, String node) {
        List<SliceLayout.Slice> layout = SliceLayout.split(p.devices(), p.counterSets());
        List<ResourceSlice> out = new ArrayList<>();
        for (int i = 0; i < layout.size(); i++) {
            SliceLayout.Slice s = layout.get(i);
            ResourceSliceBuilder b = new ResourceSliceBuilder()
                    .withNewMetadata()
                    .withName(String.format("%05x-%s-%s", i, NvidiaDevices.DRIVER, node))
                    .endMetadata()
                    .withNewSpec()
                    .withDriver(NvidiaDevices.DRIVER)
                    .withNodeName(node)
                    .withNewPool()
                    .withName(node)
                    .withGeneration(1L)
                    .withResourceSliceCount((long) layout.size())
                    .endPool()
                    .endSpec();
            if (!s.devices().isEmpty()) {
                b.editSpec().withDevices(s.devices()).endSpec();
            }
            if (!s.sharedCounters().isEmpty()) {
                b.editSpec().withSharedCounters(s.sharedCounters()).endSpec();
            }
            out.add(b.build());
        }
        return out;
    }
}
