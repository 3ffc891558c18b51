package io.dra4j.sim;

import io.dra4j.sim.internal.Simulation;
import java.util.Objects;

/**
 * kube-scheduler 1.37's default profile with DRA, simulated over a cluster snapshot: workloads are expanded into
 * pods as their controllers create them, claims from templates are created as the resourceclaim controller creates
 * them, and the pending pods are scheduled one at a time in queue order. Immutable and thread-safe; each run is
 * independent and never modifies the snapshot's objects.
 */
public final class Simulator {
    private final SimulationOptions options;

    public Simulator(SimulationOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /** Told after each scheduling attempt how many were made and how many pods have been queued so far. */
    @FunctionalInterface
    public interface Progress {
        void attempted(int done, int queued);
    }

    public SimulationResult run(ClusterSnapshot snapshot) {
        return run(snapshot, (done, queued) -> {});
    }

    /** A run that reports its progress (on the calling thread). */
    public SimulationResult run(ClusterSnapshot snapshot, Progress progress) {
        return new Simulation(
                        options,
                        Objects.requireNonNull(snapshot, "snapshot"),
                        Objects.requireNonNull(progress, "progress"))
                .run();
    }

    /**
     * The same run, handing every scheduling attempt to {@code trace} as it is made (per node the Filter verdicts,
     * the scores, the best nodes, the chosen node and the claims' allocations: see {@link TraceAttempt}).
     */
    public SimulationResult run(ClusterSnapshot snapshot, SchedulingTrace trace) {
        return new Simulation(
                        options, Objects.requireNonNull(snapshot, "snapshot"), Objects.requireNonNull(trace, "trace"))
                .run();
    }
}
