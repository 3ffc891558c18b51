package io.dra4j.sim;

import java.util.List;

/**
 * The outcome of a simulation: per pod what became of it (bound before, then in queue order), the events, notes
 * on what was not simulated, and the final cluster (pods with nodeName and claim statuses, claims with
 * allocation and reservedFor, everything else as it was) that can be fed back in.
 */
public record SimulationResult(List<PodResult> pods, List<SchedulingEvent> events, List<String> notes,
                               ClusterSnapshot finalState) {
    public SimulationResult {
        pods = List.copyOf(pods);
        events = List.copyOf(events);
        notes = List.copyOf(notes);
    }

    public long placed() {
        return pods.stream().filter(p -> p.placement() == PodResult.Placement.PLACED).count();
    }

    public long pending() {
        return pods.stream().filter(p -> p.placement() == PodResult.Placement.PENDING).count();
    }

    /** Pods deleted during the run: preempted or evicted. */
    public long deleted() {
        return pods.stream().filter(p -> p.placement() == PodResult.Placement.PREEMPTED
                || p.placement() == PodResult.Placement.EVICTED).count();
    }

    public long boundBefore() {
        return pods.stream().filter(p -> p.placement() == PodResult.Placement.BOUND_BEFORE).count();
    }
}
