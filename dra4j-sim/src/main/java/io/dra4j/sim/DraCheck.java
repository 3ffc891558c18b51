package io.dra4j.sim;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.sim.internal.DraCheckRun;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code dra4j allocate} and {@code explain} over a cluster snapshot: for every pending pod with claims (and every
 * unallocated claim that no pod uses) its claims are allocated together on each node, exactly as kube-scheduler's
 * DynamicResources plugin does in PreFilter, Filter and Score (the other plugins are not run: {@link Simulator}
 * runs them). Each pod is checked alone against the snapshot's state (bound pods and allocated claims); nothing is
 * bound, so pods do not compete with each other. Claims of templates are made as the resourceclaim controller
 * makes them, and workloads are expanded as {@link Simulator} expands them. Immutable and thread-safe.
 */
public final class DraCheck {
    private final FeatureGates gates;
    private final Duration timeout;

    /** @param timeout the bound on each allocation (kube-scheduler's filterTimeout); null or zero for none */
    public DraCheck(FeatureGates gates, Duration timeout) {
        this.gates = Objects.requireNonNull(gates, "gates");
        this.timeout = timeout == null || timeout.isZero() ? null : timeout;
    }

    /**
     * What a run found: per pending pod with something to allocate (and per claim no pod uses) in input order, and
     * notes on the nodes (taken without labels when the input has no Node objects).
     */
    public record Result(List<PodClaims> pods, List<String> notes) {
        public Result {
            pods = List.copyOf(pods);
            notes = List.copyOf(notes);
        }
    }

    /**
     * The pods' claims on {@code node}, or on every node of the snapshot when empty. A snapshot without Node objects
     * gets a bare node (no labels) per node name its ResourceSlices give, or the one asked for.
     *
     * @param explain whether each result carries the allocator's explanation on its chosen node
     * @throws IllegalArgumentException when the node is not in the snapshot, or the snapshot names no node at all
     */
    public Result run(ClusterSnapshot snapshot, Optional<String> node, boolean explain) {
        DraCheckRun run = new DraCheckRun(
                gates,
                timeout,
                Objects.requireNonNull(snapshot, "snapshot"),
                Objects.requireNonNull(node, "node"),
                explain);
        List<PodClaims> pods = run.run();
        return new Result(pods, run.nodeNotes());
    }
}
