package io.dra4j.sim;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What became of one pod.
 *
 * @param node      the node it is bound to, empty while pending
 * @param placement whether it was bound before the run, placed by it, left pending, or not for this scheduler
 * @param reason    for a pending pod the message of its PodScheduled=False condition as kube-scheduler writes it
 * @param draReason for a pending pod whose claims did not fit, dra4j's decisive reason on the nearest node
 * @param workload  the workload that created it ({@code Deployment team-a/train}), empty for a bare pod
 * @param notes     what the simulation did not cover for this pod (volumes, ...)
 */
public record PodResult(
        String namespace,
        String name,
        Optional<String> node,
        Placement placement,
        String reason,
        String draReason,
        String workload,
        List<String> notes) {
    /**
     * How a pod ended up: bound before the run, placed by it, pending, not for this scheduler, or deleted during the
     * run by DefaultPreemption or by the device taint eviction controller (then {@code node} is where it ran and
     * {@code reason} the event's message).
     */
    public enum Placement {
        BOUND_BEFORE,
        PLACED,
        PENDING,
        NOT_SCHEDULED,
        PREEMPTED,
        EVICTED
    }

    public PodResult {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(draReason, "draReason");
        Objects.requireNonNull(workload, "workload");
        notes = List.copyOf(notes);
    }
}
