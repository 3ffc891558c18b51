package io.dra4j.kubelet.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.kubelet.TestClaims;
import io.dra4j.kubelet.cdi.ContainerEdits;
import io.dra4j.kubelet.internal.Checkpoint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Faults around the DRA plugin helper: restarts, crashes mid-prepare, a corrupt checkpoint, lost CDI specs. */
class DraPluginFaultIT {
    static final String DRIVER = "test.dra4j.io";
    static final String NODE = "node-a";

    @TempDir
    Path tmp;

    final Map<String, ResourceClaim> store = new ConcurrentHashMap<>();

    private DraPluginOptions options() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        return DraPluginOptions.defaults(DRIVER, NODE, root).withCdiDirectory(tmp.resolve("cdi"));
    }

    private ClaimRef add(String name, String device) {
        String uid = "uid-" + name;
        store.put(
                "ns/" + name,
                TestClaims.allocated("ns", name, uid, NODE, List.of(TestClaims.result("gpu", DRIVER, NODE, device))));
        return new ClaimRef("ns", name, uid);
    }

    private DraPlugin start(DraDriver driver, DraPluginOptions o) throws IOException {
        return DraPlugin.start(driver, (ns, n) -> store.get(ns + "/" + n), o);
    }

    @Test
    void afterARestartPrepareIsIdempotentAndUnprepareWorksForADeletedClaim() throws Exception {
        DraPluginOptions o = options();
        ClaimRef c = add("c1", "dev-0");
        RecordingDriver before = new RecordingDriver(Set.of("dev-0"));
        ClaimPrepared first;
        try (DraPlugin p = start(before, o)) {
            first = p.prepare(List.of(c)).get(c.uid());
            assertThat(first.error()).isEmpty();
        }
        store.clear();
        RecordingDriver after = new RecordingDriver(Set.of("dev-0"));
        try (DraPlugin p = start(after, o)) {
            assertThat(p.prepare(List.of(c)).get(c.uid())).isEqualTo(first);
            assertThat(p.unprepare(List.of(c))).containsEntry(c.uid(), "");
            assertThat(p.unprepare(List.of(c))).containsEntry(c.uid(), "");
            assertThat(p.preparedClaims()).isEmpty();
        }
        assertThat(after.calls).containsExactly("unprepare c1");
        assertThat(o.cdiDirectory().resolve("k8s.test.dra4j.io-claim_uid-c1.json"))
                .doesNotExist();
    }

    @Test
    void aPrepareInterruptedByACrashIsRolledBackBeforeItIsRetried() throws Exception {
        DraPluginOptions o = options();
        ClaimRef c = add("c1", "dev-0");
        // What a SIGKILL between "prepare started" and "prepare completed" leaves behind.
        new Checkpoint(o.checkpointFile())
                .store(new Checkpoint.Data(
                        Checkpoint.VERSION,
                        List.of(new Checkpoint.Entry(c, Checkpoint.State.PrepareStarted, List.of()))));
        RecordingDriver driver = new RecordingDriver(Set.of("dev-0"));
        try (DraPlugin p = start(driver, o)) {
            assertThat(p.prepare(List.of(c)).get(c.uid()).error()).isEmpty();
            assertThat(p.preparedClaims())
                    .singleElement()
                    .satisfies(pc -> assertThat(pc.claim()).isEqualTo(c));
        }
        assertThat(driver.calls).containsExactly("unprepare c1", "prepare c1");
    }

    @Test
    void aTruncatedCheckpointFailsTheStartWithItsPathAndIsLeftUnchanged() throws Exception {
        DraPluginOptions o = options();
        ClaimRef c = add("c1", "dev-0");
        try (DraPlugin p = start(new RecordingDriver(Set.of("dev-0")), o)) {
            p.prepare(List.of(c));
        }
        byte[] whole = Files.readAllBytes(o.checkpointFile());
        byte[] half = Arrays.copyOf(whole, whole.length / 2);
        Files.write(o.checkpointFile(), half);
        assertThatThrownBy(() -> start(new RecordingDriver(Set.of("dev-0")), o))
                .isInstanceOf(Checkpoint.CorruptCheckpointException.class)
                .hasMessageContaining("checkpoint " + o.checkpointFile() + " is corrupt")
                .hasMessageContaining("left unchanged");
        assertThat(Files.readAllBytes(o.checkpointFile())).isEqualTo(half);
        assertThat(o.draSocket()).doesNotExist();
    }

    @Test
    void aCdiSpecLostWithTheTmpfsIsRecreatedOnTheAlreadyPreparedPath() throws Exception {
        DraPluginOptions o = options();
        ClaimRef c = add("c1", "dev-0");
        RecordingDriver driver = new RecordingDriver(Set.of("dev-0"));
        try (DraPlugin p = start(driver, o)) {
            p.prepare(List.of(c));
            Path spec = o.cdiDirectory().resolve("k8s.test.dra4j.io-claim_uid-c1.json");
            String content = Files.readString(spec);
            Files.delete(spec);
            assertThat(p.prepare(List.of(c)).get(c.uid()).error()).isEmpty();
            assertThat(Files.readString(spec)).isEqualTo(content);
        }
        assertThat(driver.calls).containsExactly("prepare c1");
    }

    @Test
    void concurrentPreparesForDifferentPodsAreSerialisedAndAllRecorded() throws Exception {
        DraPluginOptions o = options();
        List<ClaimRef> claims = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            claims.add(add("c" + i, "dev-" + i));
        }
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        DraDriver driver = new DraDriver() {
            @Override
            public PrepareResult prepare(ResourceClaim claim, List<DeviceRequestAllocationResult> results) {
                maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                inFlight.decrementAndGet();
                DeviceRequestAllocationResult r = results.get(0);
                return PrepareResult.prepared(List.of(new PreparedDevice(
                        List.of(r.getRequest()),
                        r.getPool(),
                        r.getDevice(),
                        null,
                        ContainerEdits.env(List.of("D=" + r.getDevice())))));
            }

            @Override
            public String unprepare(PreparedClaim claim) {
                return null;
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (DraPlugin p = start(driver, o)) {
            List<Future<Map<String, ClaimPrepared>>> futures = new ArrayList<>();
            for (ClaimRef c : claims) {
                futures.add(pool.submit(() -> p.prepare(List.of(c))));
            }
            for (Future<Map<String, ClaimPrepared>> f : futures) {
                assertThat(f.get().values())
                        .allSatisfy(r -> assertThat(r.error()).isEmpty());
            }
            assertThat(p.preparedClaims()).extracting(PreparedClaim::claim).containsExactlyInAnyOrderElementsOf(claims);
        } finally {
            pool.shutdownNow();
        }
        assertThat(maxInFlight.get()).isEqualTo(1);
    }

    @Test
    void rollingUpdateInstancesShareTheCheckpointUnderTheFileLock() throws Exception {
        DraPluginOptions base = options();
        ClaimRef c = add("c1", "dev-0");
        RecordingDriver oldDriver = new RecordingDriver(Set.of("dev-0"));
        RecordingDriver newDriver = new RecordingDriver(Set.of("dev-0"));
        try (DraPlugin old = start(oldDriver, base.withRollingUpdate("pod-old"));
                DraPlugin next = start(newDriver, base.withRollingUpdate("pod-new"))) {
            assertThat(old.options().registrationSocket())
                    .isNotEqualTo(next.options().registrationSocket());
            assertThat(Files.exists(old.options().draSocket())
                            && Files.exists(next.options().draSocket()))
                    .isTrue();
            assertThat(old.prepare(List.of(c)).get(c.uid()).error()).isEmpty();
            assertThat(next.prepare(List.of(c)).get(c.uid()).error()).isEmpty();
            assertThat(next.unprepare(List.of(c))).containsEntry(c.uid(), "");
            assertThat(old.preparedClaims()).isEmpty();
        }
        assertThat(oldDriver.calls).containsExactly("prepare c1");
        assertThat(newDriver.calls).containsExactly("unprepare c1");
    }

    @Test
    void aMissingRegistryDirectoryIsALoudStartFailure() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("other-root"));
        DraPluginOptions o = DraPluginOptions.defaults(DRIVER, NODE, root).withCdiDirectory(tmp.resolve("cdi"));
        assertThatThrownBy(() -> start(new RecordingDriver(Set.of()), o))
                .hasMessageContaining(
                        "kubelet plugin registry directory " + root.resolve("plugins_registry") + " does not exist");
    }
}
