package io.dra4j.sim;

import java.util.List;

/**
 * The outcome of a simulation: per pod what became of it (bound before, then in queue order), the events, notes
 * on what was not simulated, the final cluster (pods with nodeName and claim statuses, claims with
 * allocation and reservedFor, everything else as it was) that can be fed back in, and the gangs.
 */
public record SimulationResult(
        List<PodResult> pods,
        List<SchedulingEvent> events,
        List<String> notes,
        ClusterSnapshot finalState,
        List<GangResult> gangs) {
    public SimulationResult {
        pods = List.copyOf(pods);
        events = List.copyOf(events);
        notes = List.copyOf(notes);
        gangs = List.copyOf(gangs);
    }

    /** A result without gangs. */
    public SimulationResult(
            List<PodResult> pods, List<SchedulingEvent> events, List<String> notes, ClusterSnapshot finalState) {
        this(pods, events, notes, finalState, List.of());
    }

    /** The gang the pod {@code namespace/name} is a member of, if any. */
    public java.util.Optional<GangResult> gangOf(String namespace, String name) {
        String key = namespace + "/" + name;
        return gangs.stream().filter(g -> g.members().contains(key)).findFirst();
    }

    public long placed() {
        return pods.stream()
                .filter(p -> p.placement() == PodResult.Placement.PLACED)
                .count();
    }

    public long pending() {
        return pods.stream()
                .filter(p -> p.placement() == PodResult.Placement.PENDING)
                .count();
    }

    /** Pods deleted during the run: preempted or evicted. */
    public long deleted() {
        return pods.stream()
                .filter(p ->
                        p.placement() == PodResult.Placement.PREEMPTED || p.placement() == PodResult.Placement.EVICTED)
                .count();
    }

    public long boundBefore() {
        return pods.stream()
                .filter(p -> p.placement() == PodResult.Placement.BOUND_BEFORE)
                .count();
    }
}
