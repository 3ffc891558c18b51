package io.dra4j.drivers.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.kubelet.slices.SliceLayout;
import io.dra4j.scenario.ApiValidator;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Dynamic MIG: profiles read from the recorded -lgip/-lgipp, published as partitions, allocated by counters. */
class NvidiaDynamicMigTest {
    private static long value(CounterSet cs, String counter) {
        return cs.getCounters().get(counter).getValue().getNumericalAmount().longValueExact();
    }

    private static Map<String, String> consumed(Device d) {
        return d.getConsumesCounters().get(0).getCounters().entrySet().stream()
                .collect(Collectors.toMap(
                        Map.Entry::getKey, e -> e.getValue().getValue().getAmount()));
    }

    @Test
    void profilesAndPlacementsAreReadFromLgipAndLgipp() throws Exception {
        List<GpuInfo> gpus = MigFixtures.gpus("a100-80gb-mig");
        assertThat(gpus).singleElement().satisfies(g -> {
            assertThat(g.index()).isZero();
            assertThat(g.migProfiles())
                    .extracting(GpuInfo.MigProfile::name)
                    .containsExactly("1g.10gb", "1g.10gb+me", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb");
            GpuInfo.MigProfile p = g.migProfiles().get(4);
            assertThat(p.id()).isEqualTo(9);
            assertThat(p.placementStarts()).containsExactly(0, 4);
            assertThat(p.placementSize()).isEqualTo(4);
            assertThat(p.multiprocessors()).isEqualTo(42);
            assertThat(p.decoders()).isEqualTo(2);
            assertThat(p.copyEngines()).isEqualTo(3);
            assertThat(p.computeSlices()).isEqualTo(3);
            // 39.50 GiB as printed.
            assertThat(p.memoryBytes()).isEqualTo(40448L * 1024 * 1024);
            assertThat(g.migProfiles().get(1).ofaEngines()).isEqualTo(1);
        });
        // Without dynamic MIG nothing reads the profiles, and GPUs without MIG get none.
        assertThat(NvidiaDiscovery.recorded(
                        MigFixtures.file("h100-sxm", "xml"),
                        null,
                        null,
                        MigFixtures.file("h100-sxm-mig", "lgip.txt"),
                        MigFixtures.file("h100-sxm-mig", "lgipp.txt")))
                .allSatisfy(g -> assertThat(g.migProfiles()).isEmpty());
    }

    @Test
    void ampereGpuIsPublishedAsEveryProfilePlacementWithoutTheFullGpu() throws Exception {
        NvidiaDevices.Published p = NvidiaDevices.of(MigFixtures.gpus("a100-80gb-mig"), true);
        // 7 + 7 + 4 + 3 + 2 + 1 + 1 placements; on Ampere the full GPU is not offered next to MIG.
        assertThat(p.devices())
                .hasSize(25)
                .extracting(Device::getName)
                .doesNotContain("gpu-0")
                .contains(
                        "gpu-0-mig-1g10gb-19-0",
                        "gpu-0-mig-1g10gb-19-6",
                        "gpu-0-mig-1g10gb-me-20-3",
                        "gpu-0-mig-3g40gb-9-4",
                        "gpu-0-mig-7g80gb-0-0");
        CounterSet cs = p.counterSets().get(0);
        assertThat(p.counterSets()).hasSize(1);
        assertThat(cs.getName()).isEqualTo("gpu-0-counter-set");
        assertThat(cs.getCounters().keySet())
                .containsExactlyInAnyOrder(
                        "multiprocessors",
                        "copy-engines",
                        "decoders",
                        "encoders",
                        "jpeg-engines",
                        "ofa-engines",
                        "memory",
                        "memory-slice-0",
                        "memory-slice-1",
                        "memory-slice-2",
                        "memory-slice-3",
                        "memory-slice-4",
                        "memory-slice-5",
                        "memory-slice-6",
                        "memory-slice-7");
        assertThat(value(cs, "multiprocessors")).isEqualTo(98);
        assertThat(value(cs, "copy-engines")).isEqualTo(7);
        assertThat(value(cs, "memory")).isEqualTo(81152L * 1024 * 1024);
        Device mig = MigFixtures.device(p, "gpu-0-mig-3g40gb-9-4");
        assertThat(mig.getAttributes().get("type").getString()).isEqualTo("mig");
        assertThat(mig.getAttributes().get("profile").getString()).isEqualTo("3g.40gb");
        assertThat(mig.getAttributes().get("parentUUID").getString())
                .isEqualTo("GPU-4f1d7b3a-2c86-4e95-a1b7-6d3c9e2f8a15");
        assertThat(mig.getAttributes()).doesNotContainKey("uuid");
        assertThat(mig.getCapacity().get("multiprocessors").getValue().getAmount())
                .isEqualTo("42");
        assertThat(mig.getCapacity()).doesNotContainKey("memorySlice4");
        assertThat(consumed(mig))
                .containsEntry("multiprocessors", "42")
                .containsEntry("memory-slice-4", "1")
                .containsEntry("memory-slice-7", "1")
                .doesNotContainKey("memory-slice-3");
    }

    @Test
    void hopperAlsoOffersTheFullGpuConsumingEveryCounter() throws Exception {
        NvidiaDevices.Published p = NvidiaDevices.of(MigFixtures.gpus("h100-sxm-mig"), true);
        assertThat(p.devices()).hasSize(2 * 26);
        assertThat(p.counterSets())
                .extracting(CounterSet::getName)
                .containsExactly("gpu-0-counter-set", "gpu-1-counter-set");
        Device full = MigFixtures.device(p, "gpu-1");
        assertThat(full.getAttributes().get("type").getString()).isEqualTo("gpu");
        assertThat(full.getAttributes().get("uuid").getString()).isEqualTo("GPU-0e8b7d3a-52c1-44f9-a6d2-9b1c7e4f3a08");
        assertThat(full.getConsumesCounters().get(0).getCounterSet()).isEqualTo("gpu-1-counter-set");
        assertThat(consumed(full).keySet())
                .isEqualTo(p.counterSets().get(1).getCounters().keySet());
        assertThat(full.getCapacity().get("multiprocessors").getValue().getAmount())
                .isEqualTo("132");
    }

    @Test
    void hopperWithMigModeOffIsTheFullGpuAloneAsWithoutDynamicMig() throws Exception {
        // h100-sxm: both H100s have MIG mode off. Discovery asks nothing of MIG, and each GPU is the full GPU without
        // counters, exactly what is published without dynamic MIG.
        String xml = Files.readString(MigFixtures.file("h100-sxm", "xml"));
        String listing = Files.readString(MigFixtures.file("h100-sxm", "L.txt"));
        List<String> commands = new ArrayList<>();
        NvidiaSmi smi = args -> {
            commands.add(String.join(" ", args));
            if (args.equals(List.of("-q", "-x"))) {
                return new NvidiaSmi.Output(0, xml);
            }
            return args.equals(List.of("-L"))
                    ? new NvidiaSmi.Output(0, listing)
                    : new NvidiaSmi.Output(6, "No MIG-enabled devices found.");
        };
        NvidiaDevices.Published dynamic = NvidiaDevices.of(NvidiaDiscovery.run(smi, true), true);
        assertThat(commands).containsExactly("-q -x", "-L");
        assertThat(dynamic.counterSets()).isEmpty();
        assertThat(dynamic.devices()).extracting(Device::getName).containsExactly("gpu-0", "gpu-1");
        assertThat(dynamic.devices()).allSatisfy(d -> {
            assertThat(d.getAttributes().get("type").getString()).isEqualTo("gpu");
            assertThat(d.getConsumesCounters()).isEmpty();
        });
        assertThat(dynamic).isEqualTo(NvidiaDevices.of(NvidiaDiscovery.run(smi, false), false));

        // h100-sxm-mig with GPU 1 switched out of MIG mode: GPU 1 is the full GPU alone, GPU 0 stays partitionable.
        SimulatedNvidiaSmi sim = new SimulatedNvidiaSmi("h100-sxm-mig");
        assertThat(sim.run(List.of("-i", "1", "-mig", "0")).exitCode()).isZero();
        NvidiaDevices.Published mixed = NvidiaDevices.of(NvidiaDiscovery.run(sim, true), true);
        assertThat(mixed.counterSets()).extracting(CounterSet::getName).containsExactly("gpu-0-counter-set");
        assertThat(mixed.devices())
                .extracting(Device::getName)
                .filteredOn(n -> n.startsWith("gpu-1"))
                .containsExactly("gpu-1");
        assertThat(MigFixtures.device(mixed, "gpu-1").getConsumesCounters()).isEmpty();
        assertThat(mixed.devices())
                .filteredOn(d -> d.getName().startsWith("gpu-0"))
                .hasSize(26);
    }

    @Test
    void publishedSlicesPassTheApiServersValidationAndTheLimits() throws Exception {
        // Eight H100s (the fixture's two, four times over) exceed one slice: 208 devices with counters, 8 sets.
        List<GpuInfo> two = MigFixtures.gpus("h100-sxm-mig");
        List<GpuInfo> eight = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            GpuInfo g = two.get(i % 2);
            eight.add(new GpuInfo(
                    i,
                    i,
                    g.uuid() + "-" + i,
                    g.productName(),
                    g.brand(),
                    g.architecture(),
                    g.cudaComputeCapability(),
                    g.driverVersion(),
                    g.cudaDriverVersion(),
                    g.pciBusId(),
                    g.memoryBytes(),
                    g.addressingMode(),
                    true,
                    List.of(),
                    g.migProfiles()));
        }
        for (List<GpuInfo> gpus : List.of(MigFixtures.gpus("a100-80gb-mig"), MigFixtures.gpus("a100-mig"), eight)) {
            NvidiaDevices.Published p = NvidiaDevices.of(gpus, true);
            assertThat(SliceLayout.validate(p.devices(), p.counterSets())).isEmpty();
            List<ResourceSlice> slices = MigFixtures.slices(p, "node-1");
            for (ResourceSlice s : slices) {
                ResourceSlice copy = new ResourceSliceBuilder(s).build();
                assertThat(ApiValidator.defaultAndValidate(copy))
                        .as(s.getMetadata().getName())
                        .isEmpty();
                assertThat(s.getSpec().getDevices().isEmpty()
                                || s.getSpec().getSharedCounters().isEmpty())
                        .isTrue();
            }
            assertThat(slices.stream()
                            .mapToInt(s -> s.getSpec().getDevices().size())
                            .sum())
                    .isEqualTo(p.devices().size());
        }
        List<ResourceSlice> big = MigFixtures.slices(NvidiaDevices.of(eight, true), "node-1");
        assertThat(big).extracting(s -> s.getSpec().getDevices().size()).containsExactly(0, 64, 64, 64, 16);
        assertThat(big.get(0).getSpec().getSharedCounters()).hasSize(8);
    }

    @Test
    void staticGpusStayAsTheyWereNextToDynamicOnes() throws Exception {
        // a100-mig: GPU 0 has MIG on (dynamic: its existing MIG devices are not announced), GPU 1 is plain.
        NvidiaDevices.Published p = NvidiaDevices.of(MigFixtures.gpus("a100-mig"), true);
        assertThat(p.devices())
                .hasSize(26)
                .extracting(Device::getName)
                .contains("gpu-1", "gpu-0-mig-1g5gb-me-20-6")
                .doesNotContain("gpu-0");
        assertThat(MigFixtures.device(p, "gpu-1").getConsumesCounters()).isEmpty();
        assertThat(NvidiaDevices.of(MigFixtures.gpus("a100-mig"), false).devices())
                .extracting(Device::getName)
                .containsExactly(
                        "gpu-0-mig-3g20gb-9-4",
                        "gpu-0-mig-2g10gb-14-0",
                        "gpu-0-mig-1g5gb-19-2",
                        "gpu-0-mig-1g5gb-19-3",
                        "gpu-1");
    }

    @Test
    void allocatorPlacesMigDevicesWithoutOverlapUntilTheGpuIsFull() throws Exception {
        NvidiaDevices.Published p = NvidiaDevices.of(MigFixtures.gpus("a100-80gb-mig"), true);
        MigAllocation a = new MigAllocation(p);
        Set<String> slicesUsed = new HashSet<>();
        for (int i = 0; i < 7; i++) {
            AllocationOutcome o = a.allocate(MigAllocation.claim("small-" + i, "1g.10gb"));
            assertThat(o).as("claim %d", i).isInstanceOf(AllocationOutcome.Allocated.class);
            Set<String> mine = memorySlices(MigFixtures.device(p, MigAllocation.device(o)));
            assertThat(mine).hasSize(1);
            assertThat(slicesUsed).as("memory slices taken before claim %d", i).doesNotContainAnyElementsOf(mine);
            slicesUsed.addAll(mine);
        }
        // Seven SM groups are gone (7 x 14 = 98) although memory slice 7 is free.
        assertThat(a.allocate(MigAllocation.claim("eighth", "1g.10gb")))
                .isInstanceOf(AllocationOutcome.Unschedulable.class);
        assertThat(a.allocate(MigAllocation.claim("whole", "7g.80gb")))
                .isInstanceOf(AllocationOutcome.Unschedulable.class);
    }

    @Test
    void engineCountersLimitTheMediaExtensionsAndTheHalvesFit() throws Exception {
        NvidiaDevices.Published p = NvidiaDevices.of(MigFixtures.gpus("a100-80gb-mig"), true);
        MigAllocation a = new MigAllocation(p);
        assertThat(a.allocate(MigAllocation.claim("me-1", "1g.10gb+me")))
                .isInstanceOf(AllocationOutcome.Allocated.class);
        // One OFA engine on the GPU: a second +me profile does not fit, a plain 1g.10gb does.
        assertThat(a.allocate(MigAllocation.claim("me-2", "1g.10gb+me")))
                .isInstanceOf(AllocationOutcome.Unschedulable.class);
        assertThat(a.allocate(MigAllocation.claim("plain", "1g.10gb"))).isInstanceOf(AllocationOutcome.Allocated.class);

        MigAllocation halves = new MigAllocation(p);
        // The allocator takes the first placement that fits and never moves an earlier claim: 4g.40gb first.
        String four = MigAllocation.device(halves.allocate(MigAllocation.claim("four", "4g.40gb")));
        String three = MigAllocation.device(halves.allocate(MigAllocation.claim("three", "3g.40gb")));
        assertThat(four).isEqualTo("gpu-0-mig-4g40gb-5-0");
        assertThat(three).isEqualTo("gpu-0-mig-3g40gb-9-4");
        assertThat(halves.allocate(MigAllocation.claim("more", "1g.10gb")))
                .isInstanceOf(AllocationOutcome.Unschedulable.class);
    }

    @Test
    void aFullGpuAndItsPartitionsExcludeEachOther() throws Exception {
        NvidiaDevices.Published p = NvidiaDevices.of(MigFixtures.gpus("h100-sxm-mig"), true);
        MigAllocation a = new MigAllocation(p);
        String mig = MigAllocation.device(a.allocate(MigAllocation.claim("mig", "1g.10gb")));
        String full = MigAllocation.device(a.allocate(MigAllocation.claim("full", null)));
        assertThat(full).isNotEqualTo(mig.substring(0, mig.indexOf("-mig-")));
        assertThat(a.allocate(MigAllocation.claim("full-2", null))).isInstanceOf(AllocationOutcome.Unschedulable.class);
        String other = mig.startsWith("gpu-0-") ? "gpu-1" : "gpu-0";
        assertThat(full).isEqualTo(other);
        assertThat(MigAllocation.device(a.allocate(MigAllocation.claim("mig-2", "2g.20gb"))))
                .startsWith(mig.substring(0, mig.indexOf("-mig-")));
    }

    @Test
    void aProfileWithoutPlacementsOrABrokenRowIsAnErrorNamingTheSource() throws Exception {
        Path lgipp = Files.createTempFile("lgipp", ".txt");
        Files.writeString(
                lgipp,
                Files.readString(MigFixtures.file("a100-80gb-mig", "lgipp.txt"))
                        .replace("GPU  0 Profile ID  9 Placements: {0,4}:4\n", ""));
        Path xml = MigFixtures.file("a100-80gb-mig", "xml");
        assertThatThrownBy(() ->
                        NvidiaDiscovery.recorded(xml, null, null, MigFixtures.file("a100-80gb-mig", "lgip.txt"), lgipp))
                .hasMessage(xml + ": profile 3g.40gb (ID 9) of GPU 0 has no placements in the nvidia-smi mig -lgipp "
                        + "output");
        Files.writeString(lgipp, "GPU  0 Profile 19 {0}\n");
        assertThatThrownBy(() ->
                        NvidiaDiscovery.recorded(xml, null, null, MigFixtures.file("a100-80gb-mig", "lgip.txt"), lgipp))
                .hasMessage(xml + ": nvidia-smi mig -lgipp line \"GPU  0 Profile 19 {0}\" is not a profile's "
                        + "placements");
        Files.delete(lgipp);
    }

    static Set<String> memorySlices(Device d) {
        return d.getConsumesCounters().get(0).getCounters().keySet().stream()
                .filter(k -> k.startsWith("memory-slice-"))
                .collect(Collectors.toSet());
    }
}
