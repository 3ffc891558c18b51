package io.dra4j.sim.whatif;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a pod is pending across the whole cluster (or where a claim could be allocated): the decisive reason first,
 * every node in groups ranked by how close they came, and the fixes that were checked to make it fit.
 *
 * @param kind      {@code Pod} or {@code ResourceClaim}
 * @param status    what the simulation made of it
 * @param node      the node it is bound to or would be placed on, when not pending
 * @param message   for a pending pod the scheduler's message (PodScheduled=False), as kube-scheduler writes it
 * @param decisive  the one reason to read first
 * @param nodeCount the nodes in the cluster
 * @param groups    the nodes grouped by reason, closest first; together they hold every node
 * @param fixes     checked changes that make it fit, closest group first
 * @param notes     what was not simulated or not explained
 * @param gang      the gang the pod is a member of, when it is one
 */
public record PodExplanation(
        String kind,
        String namespace,
        String name,
        Status status,
        Optional<String> node,
        String workload,
        String message,
        String decisive,
        int nodeCount,
        List<NodeGroup> groups,
        List<Fix> fixes,
        List<String> notes,
        Optional<io.dra4j.sim.GangResult> gang) {
    /** What became of the pod or claim. */
    public enum Status {
        /** Bound before the simulation (or, for a claim, allocated before it). */
        BOUND,
        /** The simulation places it (for a claim: it can be allocated on some node). */
        PLACED,
        /** Stays pending. */
        PENDING,
        /** Not for kube-scheduler's default profile (another schedulerName), or held by scheduling gates. */
        NOT_SCHEDULED
    }

    public PodExplanation {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(decisive, "decisive");
        groups = List.copyOf(groups);
        fixes = List.copyOf(fixes);
        notes = List.copyOf(notes);
        Objects.requireNonNull(gang, "gang");
    }

    /** An explanation of a pod in no gang (or of a claim). */
    public PodExplanation(
            String kind,
            String namespace,
            String name,
            Status status,
            Optional<String> node,
            String workload,
            String message,
            String decisive,
            int nodeCount,
            List<NodeGroup> groups,
            List<Fix> fixes,
            List<String> notes) {
        this(
                kind,
                namespace,
                name,
                status,
                node,
                workload,
                message,
                decisive,
                nodeCount,
                groups,
                fixes,
                notes,
                Optional.empty());
    }
}
