package io.dra4j.drivers.nvidia;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The devices NVIDIA's DRA driver ({@code gpu.nvidia.com}) publishes, with its attribute names and types, so that
 * DeviceClasses written for it select the same devices: {@code gpu-<minor>} with {@code type=gpu}, {@code uuid},
 * {@code productName}, {@code brand}, {@code architecture}, {@code cudaComputeCapability}, {@code driverVersion},
 * {@code cudaDriverVersion} (versions), {@code resource.kubernetes.io/pciBusID}, {@code addressingMode} when known,
 * capacity {@code memory}; existing MIG devices as {@code gpu-<minor>-mig-<profile>-<giProfileId>-<start>} with
 * {@code type=mig}, {@code uuid}, {@code parentUUID}, {@code profile} and the parent's attributes, capacities
 * {@code multiprocessors}, {@code copyEngines}, {@code decoders}, {@code encoders}, {@code jpegEngines},
 * {@code ofaEngines}, {@code memory} and {@code memorySlice<i>}.
 *
 * <p>A MIG-enabled GPU is partitionable: it gets a counter set {@code gpu-<minor>-counter-set} with one counter
 * {@code memory-slice-<i>} per memory slice, each MIG device consumes the slices of its placement, and the full GPU,
 * where it is announced, consumes all of them, so that the scheduler never hands out a GPU and one of its MIG devices
 * together. On Ampere with MIG enabled the full GPU is not announced (leaving MIG mode needs a GPU reset).
 *
 * <p>With dynamic MIG (NVIDIA's {@code DynamicMIG} gate, KEP-4815 partitionable devices) a MIG-enabled GPU is
 * announced by what it could become rather than by the MIG devices that exist: one counter set
 * {@code gpu-<minor>-counter-set} holding, for each of {@code multiprocessors}, {@code copy-engines},
 * {@code decoders}, {@code encoders}, {@code jpeg-engines}, {@code ofa-engines} and {@code memory}, the largest value
 * any profile has, plus {@code memory-slice-0..N-1} (N the largest placement size); one device per profile and
 * placement, {@code gpu-<minor>-mig-<profile>-<profileId>-<start>}, with the MIG attributes (no {@code uuid}: the
 * device does not exist yet), the profile's capacities, and consuming its capacities and the memory slices of its
 * placement; and, except on Ampere, the full GPU with the largest capacities, consuming every counter. So the
 * scheduler places MIG devices without overlap and within the GPU's engines, and never a partition together with
 * its full GPU; the driver creates the MIG device when a claim is prepared.
 */
public final class NvidiaDevices {
    public static final String DRIVER = "gpu.nvidia.com";
    /** A100 and H100 have 8 memory slices for MIG. */
    static final int MEMORY_SLICES = 8;

    private NvidiaDevices() {}

    public record Published(List<Device> devices, List<CounterSet> counterSets) {}

    public static Published of(List<GpuInfo> gpus) {
        return of(gpus, false);
    }

    /** The devices of {@code gpus}; with {@code dynamicMig}, MIG-enabled GPUs with known profiles as partitions. */
    public static Published of(List<GpuInfo> gpus, boolean dynamicMig) {
        List<Device> devices = new ArrayList<>();
        List<CounterSet> sets = new ArrayList<>();
        for (GpuInfo g : gpus) {
            if (dynamic(g, dynamicMig)) {
                addDynamic(g, devices, sets);
                continue;
            }
            String gpuName = "gpu-" + g.minor();
            String setName = gpuName + "-counter-set";
            Map<String, DeviceAttribute> common = commonAttributes(g);
            boolean partitionable = g.migEnabled() && !g.migDevices().isEmpty();
            if (partitionable) {
                Map<String, Counter> counters = new LinkedHashMap<>();
                for (int i = 0; i < MEMORY_SLICES; i++) {
                    counters.put("memory-slice-" + i, new Counter(new Quantity("1")));
                }
                sets.add(new CounterSetBuilder()
                        .withName(setName)
                        .withCounters(counters)
                        .build());
            }
            if (!(g.migEnabled() && "Ampere".equals(g.architecture()))) {
                Map<String, DeviceAttribute> attrs = new LinkedHashMap<>();
                attrs.put("type", str("gpu"));
                attrs.put("uuid", str(g.uuid()));
                attrs.putAll(common);
                DeviceBuilder b = new DeviceBuilder()
                        .withName(gpuName)
                        .withAttributes(attrs)
                        .withCapacity(Map.of("memory", capacity(g.memoryBytes())));
                if (partitionable) {
                    b.withConsumesCounters(new DeviceCounterConsumptionBuilder()
                            .withCounterSet(setName)
                            .withCounters(slices(0, MEMORY_SLICES))
                            .build());
                }
                devices.add(b.build());
            }
            for (GpuInfo.MigInfo m : g.migDevices()) {
                Map<String, DeviceAttribute> attrs = new LinkedHashMap<>();
                attrs.put("type", str("mig"));
                if (m.uuid() != null) {
                    attrs.put("uuid", str(m.uuid()));
                }
                attrs.put("parentUUID", str(g.uuid()));
                attrs.put("profile", str(m.profile()));
                attrs.putAll(common);
                Map<String, DeviceCapacity> cap = new LinkedHashMap<>();
                cap.put("multiprocessors", capacity(m.multiprocessors()));
                cap.put("copyEngines", capacity(m.copyEngines()));
                cap.put("decoders", capacity(m.decoders()));
                cap.put("encoders", capacity(m.encoders()));
                cap.put("jpegEngines", capacity(m.jpegEngines()));
                cap.put("ofaEngines", capacity(m.ofaEngines()));
                cap.put("memory", capacity(m.memoryBytes()));
                for (int i = m.placementStart(); i < m.placementStart() + m.placementSize(); i++) {
                    cap.put("memorySlice" + i, capacity(1));
                }
                devices.add(new DeviceBuilder()
                        .withName(migName(g.minor(), m.profile(), m.giProfileId(), m.placementStart()))
                        .withAttributes(attrs)
                        .withCapacity(cap)
                        .withConsumesCounters(new DeviceCounterConsumptionBuilder()
                                .withCounterSet(setName)
                                .withCounters(slices(m.placementStart(), m.placementStart() + m.placementSize()))
                                .build())
                        .build());
            }
        }
        return new Published(devices, sets);
    }

    /** Whether {@code g} is published as partitions created on demand. */
    static boolean dynamic(GpuInfo g, boolean dynamicMig) {
        return dynamicMig && g.migEnabled() && !g.migProfiles().isEmpty();
    }

    /** Whether the full GPU is announced next to its partitions: not on Ampere, where leaving MIG needs a reset. */
    static boolean fullGpuWithMig(GpuInfo g) {
        return !"Ampere".equals(g.architecture());
    }

    private static void addDynamic(GpuInfo g, List<Device> devices, List<CounterSet> sets) {
        String setName = "gpu-" + g.minor() + "-counter-set";
        Map<String, Long> max = new LinkedHashMap<>();
        int slices = 0;
        for (GpuInfo.MigProfile p : g.migProfiles()) {
            capacities(p).forEach((k, v) -> max.merge(k, v, Math::max));
            slices = Math.max(slices, p.placementSize());
        }
        Map<String, Counter> all = counters(max, 0, slices);
        sets.add(new CounterSetBuilder().withName(setName).withCounters(all).build());
        Map<String, DeviceAttribute> common = commonAttributes(g);
        if (fullGpuWithMig(g)) {
            Map<String, DeviceAttribute> attrs = new LinkedHashMap<>();
            attrs.put("type", str("gpu"));
            attrs.put("uuid", str(g.uuid()));
            attrs.putAll(common);
            devices.add(new DeviceBuilder()
                    .withName("gpu-" + g.minor())
                    .withAttributes(attrs)
                    .withCapacity(capacityMap(max))
                    .withConsumesCounters(new DeviceCounterConsumptionBuilder()
                            .withCounterSet(setName)
                            .withCounters(all)
                            .build())
                    .build());
        }
        for (GpuInfo.MigProfile p : g.migProfiles()) {
            Map<String, DeviceAttribute> attrs = new LinkedHashMap<>();
            attrs.put("type", str("mig"));
            attrs.put("parentUUID", str(g.uuid()));
            attrs.put("profile", str(p.name()));
            attrs.putAll(common);
            Map<String, Long> own = capacities(p);
            for (int start : p.placementStarts()) {
                devices.add(new DeviceBuilder()
                        .withName(migName(g.minor(), p.name(), p.id(), start))
                        .withAttributes(attrs)
                        .withCapacity(capacityMap(own))
                        .withConsumesCounters(new DeviceCounterConsumptionBuilder()
                                .withCounterSet(setName)
                                .withCounters(counters(own, start, start + p.placementSize()))
                                .build())
                        .build());
            }
        }
    }

    /** A profile's capacities under NVIDIA's names, in NVIDIA's order. */
    private static Map<String, Long> capacities(GpuInfo.MigProfile p) {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("multiprocessors", p.multiprocessors());
        c.put("copyEngines", p.copyEngines());
        c.put("decoders", p.decoders());
        c.put("encoders", p.encoders());
        c.put("jpegEngines", p.jpegEngines());
        c.put("ofaEngines", p.ofaEngines());
        c.put("memory", p.memoryBytes());
        return c;
    }

    private static Map<String, DeviceCapacity> capacityMap(Map<String, Long> values) {
        Map<String, DeviceCapacity> out = new LinkedHashMap<>();
        values.forEach((k, v) -> out.put(k, capacity(v)));
        return out;
    }

    /** Capacities as counters (camelCase names as DNS labels: copyEngines is copy-engines) and memory slices. */
    private static Map<String, Counter> counters(Map<String, Long> capacities, int fromSlice, int toSlice) {
        Map<String, Counter> c = new LinkedHashMap<>();
        capacities.forEach((k, v) -> c.put(
                k.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT),
                new Counter(new Quantity(Long.toString(v)))));
        c.putAll(slices(fromSlice, toSlice));
        return c;
    }

    /** {@code gpu-<minor>-mig-<profile without dots>-<giProfileId>-<placementStart>}, e.g. gpu-0-mig-1g5gb-19-2. */
    static String migName(int minor, String profile, int giProfileId, int placementStart) {
        return "gpu-" + minor + "-mig-"
                + profile.replace(".", "").replace("+", "-").toLowerCase(Locale.ROOT) + "-" + giProfileId + "-"
                + placementStart;
    }

    private static Map<String, DeviceAttribute> commonAttributes(GpuInfo g) {
        Map<String, DeviceAttribute> a = new LinkedHashMap<>();
        a.put("productName", str(g.productName()));
        a.put("brand", str(g.brand()));
        a.put("architecture", str(g.architecture()));
        if (g.cudaComputeCapability() != null) {
            a.put("cudaComputeCapability", version(g.cudaComputeCapability()));
        }
        a.put("driverVersion", version(g.driverVersion()));
        a.put("cudaDriverVersion", version(g.cudaDriverVersion()));
        if (g.pciBusId() != null) {
            a.put("resource.kubernetes.io/pciBusID", str(g.pciBusId()));
        }
        if (g.addressingMode() != null) {
            a.put("addressingMode", str(g.addressingMode()));
        }
        return a;
    }

    private static Map<String, Counter> slices(int from, int to) {
        Map<String, Counter> c = new LinkedHashMap<>();
        for (int i = from; i < to; i++) {
            c.put("memory-slice-" + i, new Counter(new Quantity("1")));
        }
        return c;
    }

    private static DeviceAttribute str(String s) {
        DeviceAttribute a = new DeviceAttribute();
        a.setString(s);
        return a;
    }

    private static DeviceAttribute version(String v) {
        DeviceAttribute a = new DeviceAttribute();
        a.setVersion(v);
        return a;
    }

    private static DeviceCapacity capacity(long value) {
        DeviceCapacity c = new DeviceCapacity();
        c.setValue(new Quantity(Long.toString(value)));
        return c;
    }
}
