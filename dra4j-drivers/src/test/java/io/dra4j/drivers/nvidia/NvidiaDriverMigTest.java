package io.dra4j.drivers.nvidia;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.kubelet.dra.ClaimRef;
import io.dra4j.kubelet.dra.PrepareResult;
import io.dra4j.kubelet.dra.PreparedClaim;
import io.dra4j.kubelet.dra.PreparedDevice;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Prepare and unprepare of dynamic MIG partitions, as nvidia-smi commands on a simulated GPU. */
class NvidiaDriverMigTest {
    private final List<String> log = new ArrayList<>();

    static DeviceRequestAllocationResult result(String device) {
        return new DeviceRequestAllocationResultBuilder()
                .withRequest("gpu")
                .withDriver(NvidiaDevices.DRIVER)
                .withPool("node-1")
                .withDevice(device)
                .build();
    }

    static ResourceClaim claim(String name) {
        return MigAllocation.claim(name, "1g.10gb");
    }

    private NvidiaDriver driver(SimulatedNvidiaSmi smi, String fixture) throws Exception {
        return new NvidiaDriver(MigFixtures.gpus(fixture), smi, true, log::add);
    }

    private static PreparedClaim prepared(String name, PrepareResult r) {
        return new PreparedClaim(new ClaimRef("default", name, "uid-" + name), ((PrepareResult.Prepared) r).devices());
    }

    private static String visibleDevices(PrepareResult r) {
        return ((PrepareResult.Prepared) r).devices().get(0).edits().env().get(0);
    }

    @Test
    void prepareCreatesTheInstanceOfThePlacementAndARepeatReusesIt() throws Exception {
        SimulatedNvidiaSmi smi = new SimulatedNvidiaSmi("a100-80gb-mig");
        PrepareResult first = driver(smi, "a100-80gb-mig").prepare(claim("c"), List.of(result("gpu-0-mig-3g40gb-9-4")));
        assertThat(smi.commands()).contains("mig -i 0 -cgi 9:4 -C");
        assertThat(smi.state()).containsExactly("0:9:4+ci");
        assertThat(visibleDevices(first)).startsWith("NVIDIA_VISIBLE_DEVICES=MIG-");
        assertThat(((PrepareResult.Prepared) first).devices().get(0).edits().deviceNodes())
                .extracting(n -> n.path())
                .contains("/dev/nvidia0", "/dev/nvidiactl");

        // A new driver process (a restart) prepares the same claim again: nothing is created, the UUID is the same.
        smi.clearCommands();
        PrepareResult again = driver(smi, "a100-80gb-mig").prepare(claim("c"), List.of(result("gpu-0-mig-3g40gb-9-4")));
        assertThat(smi.commands()).noneMatch(c -> c.contains("-cgi") || c.contains("-dgi"));
        assertThat(visibleDevices(again)).isEqualTo(visibleDevices(first));
        assertThat(smi.state()).containsExactly("0:9:4+ci");
    }

    @Test
    void atStartTheMigDevicesNoCheckpointedClaimUsesAreDestroyed() throws Exception {
        SimulatedNvidiaSmi smi = new SimulatedNvidiaSmi("a100-80gb-mig");
        PrepareResult kept = driver(smi, "a100-80gb-mig").prepare(claim("c"), List.of(result("gpu-0-mig-1g10gb-19-5")));
        // Left behind: a MIG device no claim uses, and a GPU instance without compute instance.
        assertThat(smi.run(List.of("mig", "-i", "0", "-cgi", "9:0", "-C")).ok()).isTrue();
        assertThat(smi.run(List.of("mig", "-i", "0", "-cgi", "19:6")).ok()).isTrue();
        assertThat(smi.state()).containsExactlyInAnyOrder("0:19:5+ci", "0:9:0+ci", "0:19:6");

        driver(smi, "a100-80gb-mig").started(List.of(prepared("c", kept)));
        assertThat(smi.state()).containsExactly("0:19:5+ci");
        assertThat(log)
                .filteredOn(l -> l.startsWith("destroyed"))
                .hasSize(2)
                .allMatch(l -> l.endsWith("on GPU 0: no prepared claim uses it"))
                .anyMatch(l -> l.contains("profile 9 at placement 0"))
                .anyMatch(l -> l.contains("profile 19 at placement 6"));

        // Nothing left to clean up: a second start only lists the instances.
        smi.clearCommands();
        driver(smi, "a100-80gb-mig").started(List.of(prepared("c", kept)));
        assertThat(smi.commands()).containsExactly("mig -lgi -i 0");
        assertThat(smi.state()).containsExactly("0:19:5+ci");
    }

    @Test
    void unprepareDestroysComputeThenGpuInstanceAndARepeatDoesNothing() throws Exception {
        SimulatedNvidiaSmi smi = new SimulatedNvidiaSmi("a100-80gb-mig");
        NvidiaDriver d = driver(smi, "a100-80gb-mig");
        PrepareResult r = d.prepare(claim("c"), List.of(result("gpu-0-mig-1g10gb-19-5")));
        smi.clearCommands();
        assertThat(driver(smi, "a100-80gb-mig").unprepare(prepared("c", r))).isNull();
        assertThat(smi.commands()).containsExactly("mig -lgi -i 0", "mig -i 0 -gi 1 -dci", "mig -i 0 -dgi -gi 1");
        assertThat(smi.state()).isEmpty();
        smi.clearCommands();
        assertThat(d.unprepare(prepared("c", r))).isNull();
        assertThat(smi.commands()).containsExactly("mig -lgi -i 0");
    }

    @Test
    void aGpuInstanceLeftWithoutComputeInstanceIsCreatedAfresh() throws Exception {
        SimulatedNvidiaSmi smi = new SimulatedNvidiaSmi("a100-80gb-mig");
        // What a crash between creating the GPU instance and its compute instance leaves.
        assertThat(smi.run(List.of("mig", "-i", "0", "-cgi", "14:2")).ok()).isTrue();
        assertThat(smi.state()).containsExactly("0:14:2");
        smi.clearCommands();
        PrepareResult r = driver(smi, "a100-80gb-mig").prepare(claim("c"), List.of(result("gpu-0-mig-2g20gb-14-2")));
        assertThat(r).isInstanceOf(PrepareResult.Prepared.class);
        assertThat(smi.commands()).containsSubsequence("mig -i 0 -dgi -gi 1", "mig -i 0 -cgi 14:2 -C");
        assertThat(smi.state()).containsExactly("0:14:2+ci");
    }

    @Test
    void aTakenPlacementFailsWithNvidiaSmisWordsAndUndoesTheClaimsOtherDevices() throws Exception {
        SimulatedNvidiaSmi smi = new SimulatedNvidiaSmi("a100-80gb-mig");
        NvidiaDriver d = driver(smi, "a100-80gb-mig");
        assertThat(d.prepare(claim("a"), List.of(result("gpu-0-mig-3g40gb-9-4"))))
                .isInstanceOf(PrepareResult.Prepared.class);
        // Slices 0..1 are free, slice 4 is not: the first device is created, the second refused, the first undone.
        PrepareResult r =
                d.prepare(claim("b"), List.of(result("gpu-0-mig-1g20gb-15-0"), result("gpu-0-mig-1g10gb-19-4")));
        assertThat(r)
                .isInstanceOfSatisfying(
                        PrepareResult.Failed.class,
                        f -> assertThat(f.error())
                                .startsWith(
                                        "device gpu-0-mig-1g10gb-19-4: nvidia-smi mig -i 0 -cgi 19:4 -C exited with 2: "
                                                + "Unable to create a GPU instance on GPU 0 using profile 19: Insufficient Resources"));
        assertThat(smi.state()).containsExactly("0:9:4+ci");
        assertThat(d.prepare(claim("x"), List.of(result("gpu-9"))))
                .isInstanceOfSatisfying(
                        PrepareResult.Failed.class,
                        f -> assertThat(f.error()).isEqualTo("device gpu-9 is not a GPU of this node"));
    }

    @Test
    void theFullGpuOfAPartitionableHopperLeavesMigModeWhilePrepared() throws Exception {
        SimulatedNvidiaSmi smi = new SimulatedNvidiaSmi("h100-sxm-mig");
        NvidiaDriver d = driver(smi, "h100-sxm-mig");
        PrepareResult r = d.prepare(claim("full"), List.of(result("gpu-1")));
        assertThat(smi.commands()).containsExactly("-i 1 -mig 0");
        assertThat(smi.migEnabled(1)).isFalse();
        assertThat(visibleDevices(r)).isEqualTo("NVIDIA_VISIBLE_DEVICES=GPU-0e8b7d3a-52c1-44f9-a6d2-9b1c7e4f3a08");
        // A restart while it is prepared whole: out of MIG mode it has no MIG devices to clean up, GPU 0 does.
        smi.clearCommands();
        driver(smi, "h100-sxm-mig").started(List.of(prepared("full", r)));
        assertThat(smi.commands()).contains("mig -lgi -i 0").noneMatch(c -> c.contains("-i 1"));
        assertThat(d.unprepare(prepared("full", r))).isNull();
        assertThat(smi.migEnabled(1)).isTrue();
        // The interrupted prepare's undo gets the allocated devices without edits; it must work on them too.
        PreparedClaim interrupted = new PreparedClaim(
                new ClaimRef("default", "m", "uid-m"),
                List.of(new PreparedDevice(List.of("gpu"), "node-1", "gpu-0-mig-1g10gb-19-3", null, null)));
        smi.clearCommands();
        assertThat(d.unprepare(interrupted)).isNull();
        assertThat(smi.commands()).containsExactly("mig -lgi -i 0");
    }
}
