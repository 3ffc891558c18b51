package io.dra4j.allocator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Many threads allocate against whatever version is published while another thread derives and publishes new
 * versions from the published one (slices replaced, claims allocated and deallocated, taint rules and classes
 * changed). Every answer a reader gets must
 * be exactly the answer of the version it read, as computed alone beforehand on a separately built lineage: no read
 * sees half of an update, and the caches shared by versions of one lineage never leak one version's answer into
 * another's.
 */
class ClusterStateConcurrencyTest {
    private static final int READERS = 8;
    private static final int ROUNDS = 6;

    /** A published version and its position in the update sequence. */
    private record Published(int index, ClusterState state) {}

    private static final int STEPS = 24;

    private static ClusterState first() {
        return ClusterState.builder()
                .featureGates(ClusterWorld.gates(1))
                .deviceClasses(ClusterWorld.initialClasses())
                .resourceSlices(ClusterWorld.initialSlices())
                .build();
    }

    /** The version after update number {@code step}. */
    private static ClusterState next(ClusterState s, int step, List<Node> nodes) {
        return switch (step % 6) {
            case 0 -> s.withResourceSlice(ClusterWorld.slice(step % ClusterWorld.SLICE_NAMES, step % 4));
            case 1 -> {
                ResourceClaim claim = ClusterWorld.claim(step % ClusterWorld.CLAIMS);
                yield Allocator.builder()
                                        .clusterState(s)
                                        .shareIds(() -> "x")
                                        .build()
                                        .allocate(nodes.get(step % ClusterWorld.NODES), List.of(claim))
                                instanceof AllocationOutcome.Allocated a
                        ? s.withAllocation(claim, a.results().get(0))
                        : s;
            }
            case 2 -> s.withDeviceTaintRule(ClusterWorld.taintRule(step % 2, step % 3));
            case 3 -> s.withoutAllocatedClaim("ns", ClusterWorld.claimName((step - 2) % ClusterWorld.CLAIMS));
            case 4 -> s.withoutResourceSlice(ClusterWorld.sliceName((step * 7) % ClusterWorld.SLICE_NAMES));
            default -> s.withDeviceClass(ClusterWorld.deviceClass(step % 2, step % 3 == 0 ? 1 : 0));
        };
    }

    private static Allocator.Attempt ask(ClusterState state, Node node, int claim) {
        AtomicInteger shares = new AtomicInteger();
        return Allocator.builder()
                .clusterState(state)
                .shareIds(() -> "share-" + shares.incrementAndGet())
                .build()
                .allocateWithStats(node, List.of(ClusterWorld.claim(claim)));
    }

    @Test
    void readersSeeExactlyTheVersionTheyRead() throws Exception {
        List<Node> nodes = ClusterWorld.nodes();
        List<ClusterState> reference = new ArrayList<>(List.of(first()));
        for (int step = 0; step < STEPS; step++) {
            reference.add(next(reference.get(step), step, nodes));
        }
        Allocator.Attempt[][][] expected = new Allocator.Attempt[reference.size()][nodes.size()][ClusterWorld.CLAIMS];
        int allocated = 0;
        for (int v = 0; v < reference.size(); v++) {
            for (int n = 0; n < nodes.size(); n++) {
                for (int c = 0; c < ClusterWorld.CLAIMS; c++) {
                    expected[v][n][c] = ask(reference.get(v), nodes.get(n), c);
                    allocated += expected[v][n][c].outcome() instanceof AllocationOutcome.Allocated ? 1 : 0;
                }
            }
        }
        assertThat(allocated).as("the versions allocate something").isGreaterThan(20);

        ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                AtomicReference<Published> current = new AtomicReference<>(new Published(0, first()));
                AtomicBoolean done = new AtomicBoolean();
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Integer>> readers = new ArrayList<>();
                for (int r = 0; r < READERS; r++) {
                    int seed = r + round * READERS;
                    readers.add(pool.submit(() -> {
                        start.await();
                        int checked = 0;
                        int i = seed;
                        while (!done.get() || checked < 50) {
                            Published p = current.get();
                            int n = i % nodes.size();
                            int c = (i / nodes.size()) % ClusterWorld.CLAIMS;
                            Allocator.Attempt got = ask(p.state(), nodes.get(n), c);
                            if (!got.equals(expected[p.index()][n][c])) {
                                throw new AssertionError("version " + p.index() + ", node " + n + ", claim " + c + ": "
                                        + got + " instead of " + expected[p.index()][n][c]);
                            }
                            checked++;
                            i += 7;
                        }
                        return checked;
                    }));
                }
                Future<?> publisher = pool.submit(() -> {
                    start.await();
                    for (int step = 0; step < STEPS; step++) {
                        ClusterState next = next(current.get().state(), step, nodes);
                        current.set(new Published(step + 1, next));
                        Thread.sleep(2);
                    }
                    done.set(true);
                    return null;
                });
                start.countDown();
                publisher.get(60, TimeUnit.SECONDS);
                for (Future<Integer> f : readers) {
                    assertThat(f.get(60, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(50);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
