package io.dra4j.drivers.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.kubelet.dra.ClaimPrepared;
import io.dra4j.kubelet.dra.ClaimRef;
import io.dra4j.kubelet.dra.DraPlugin;
import io.dra4j.kubelet.dra.DraPluginOptions;
import io.dra4j.kubelet.dra.PrepareResult;
import io.dra4j.kubelet.dra.PreparedClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic MIG end to end on one node: claims allocated by dra4j's allocator from the published slices, prepared and
 * unprepared by the DRA plugin helper (sockets, checkpoint, CDI specs) running the NVIDIA driver on a simulated GPU,
 * across driver restarts and a crash in the middle of a prepare.
 */
class NvidiaMigPrepareIT {
    private static final String FIXTURE = "a100-80gb-mig";

    @TempDir
    Path tmp;

    private final Map<String, ResourceClaim> store = new ConcurrentHashMap<>();

    private DraPluginOptions options() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        return DraPluginOptions.defaults(NvidiaDevices.DRIVER, MigAllocation.NODE, root)
                .withCdiDirectory(tmp.resolve("cdi"));
    }

    private DraPlugin start(io.dra4j.kubelet.dra.DraDriver driver) throws Exception {
        return DraPlugin.start(driver, (ns, n) -> store.get(ns + "/" + n), options());
    }

    private ClaimRef allocate(MigAllocation allocation, String name, String profile) {
        ResourceClaim claim = MigAllocation.claim(name, profile);
        AllocationOutcome o = allocation.allocate(claim);
        assertThat(o).isInstanceOf(AllocationOutcome.Allocated.class);
        store.put(
                "default/" + name,
                allocation.allocated().get(allocation.allocated().size() - 1));
        return new ClaimRef("default", name, claim.getMetadata().getUid());
    }

    @Test
    void preparedPartitionsSurviveRestartsAndAreDestroyedFromTheCheckpoint() throws Exception {
        SimulatedNvidiaSmi smi = new SimulatedNvidiaSmi(FIXTURE);
        List<GpuInfo> gpus = MigFixtures.gpus(FIXTURE);
        MigAllocation allocation = new MigAllocation(NvidiaDevices.of(gpus, true));
        ClaimRef a = allocate(allocation, "a", "3g.40gb");
        ClaimRef b = allocate(allocation, "b", "1g.10gb");
        Map<String, ClaimPrepared> first;
        try (DraPlugin plugin = start(new NvidiaDriver(gpus, smi, true, s -> {}))) {
            first = plugin.prepare(List.of(a, b));
        }
        assertThat(first.values()).allSatisfy(c -> assertThat(c.error()).isEmpty());
        assertThat(smi.state()).containsExactly("0:9:0+ci", "0:19:4+ci");
        assertThat(smi.commands()).filteredOn(c -> c.contains("-cgi")).hasSize(2);

        // Restarted driver, kubelet repeats the prepare: the checkpoint answers, nothing is created. At start the
        // driver lists the GPU instances and keeps both: the checkpoint's claims use them.
        smi.clearCommands();
        try (DraPlugin plugin = start(new NvidiaDriver(MigFixtures.gpus(FIXTURE), smi, true, s -> {}))) {
            assertThat(smi.commands()).containsExactly("mig -lgi -i 0");
            assertThat(plugin.prepare(List.of(a, b))).isEqualTo(first);
            assertThat(smi.commands()).containsExactly("mig -lgi -i 0");
            assertThat(smi.state()).containsExactly("0:9:0+ci", "0:19:4+ci");
        }

        // Restarted again; claim a is deleted before the unprepare: the checkpoint still says what to destroy.
        store.remove("default/a");
        try (DraPlugin plugin = start(new NvidiaDriver(MigFixtures.gpus(FIXTURE), smi, true, s -> {}))) {
            assertThat(plugin.unprepare(List.of(a))).containsEntry(a.uid(), "");
            assertThat(smi.state()).containsExactly("0:19:4+ci");
            assertThat(plugin.unprepare(List.of(a, b)))
                    .containsEntry(a.uid(), "")
                    .containsEntry(b.uid(), "");
            assertThat(plugin.preparedClaims()).isEmpty();
        }
        assertThat(smi.state()).isEmpty();
        assertThat(smi.commands()).filteredOn(c -> c.contains("-dgi")).hasSize(2);
    }

    /** Creates the MIG device and then dies, as a driver SIGKILLed before it answered. */
    private static final class CrashingDriver implements io.dra4j.kubelet.dra.DraDriver {
        private final NvidiaDriver real;

        CrashingDriver(NvidiaDriver real) {
            this.real = real;
        }

        @Override
        public PrepareResult prepare(ResourceClaim claim, List<DeviceRequestAllocationResult> results) {
            real.prepare(claim, results);
            throw new Crash();
        }

        @Override
        public String unprepare(PreparedClaim claim) {
            return real.unprepare(claim);
        }
    }

    private static final class Crash extends Error {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void aCrashAfterCreatingTheMigDeviceNeitherLeaksNorDoublesIt() throws Exception {
        SimulatedNvidiaSmi smi = new SimulatedNvidiaSmi(FIXTURE);
        List<GpuInfo> gpus = MigFixtures.gpus(FIXTURE);
        MigAllocation allocation = new MigAllocation(NvidiaDevices.of(gpus, true));
        ClaimRef c = allocate(allocation, "c", "2g.20gb");
        ClaimRef d = allocate(allocation, "d", "3g.40gb");
        for (ClaimRef ref : List.of(c, d)) {
            try (DraPlugin plugin = start(new CrashingDriver(new NvidiaDriver(gpus, smi, true, s -> {})))) {
                assertThatThrownBy(() -> plugin.prepare(List.of(ref))).isInstanceOf(Crash.class);
            }
        }
        assertThat(smi.state()).containsExactly("0:14:0+ci", "0:9:4+ci");

        // The kubelet retries c: the interrupted prepare is undone and done again, one MIG device as before.
        try (DraPlugin plugin = start(new NvidiaDriver(gpus, smi, true, s -> {}))) {
            assertThat(plugin.prepare(List.of(c)).get(c.uid()).error()).isEmpty();
            assertThat(smi.state()).containsExactlyInAnyOrder("0:14:0+ci", "0:9:4+ci");
            // Claim d was deleted meanwhile; its unprepare destroys what the interrupted prepare created.
            store.remove("default/d");
            assertThat(plugin.unprepare(List.of(d))).containsEntry(d.uid(), "");
            assertThat(smi.state()).containsExactly("0:14:0+ci");
        }
    }
}
