package io.dra4j.sim;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The claims of one pending pod (or one claim that no pod uses), allocated together on each node as
 * DynamicResources' Filter allocates them, with the nodes ranked.
 *
 * @param namespace   the pod's (or the claim's) namespace
 * @param pod         the pod's name; empty for a claim that no pod references
 * @param claims      the claims allocated together, in the order of the outcome's results: bare names, those made
 *                    from a template named as the resourceclaim controller names them
 * @param templates   per claim, the ResourceClaimTemplate it stands for, empty for a claim that exists
 * @param nodes       per node that was tried: the allocations first, by score (highest first, ties in node order),
 *                    then the others in node order; empty when the pod was rejected before any node (PreFilter)
 * @param node        the chosen node: the best allocation, else the node that came closest; empty when none was
 *                    tried
 * @param outcome     on the chosen node when one was allocated; otherwise unschedulable or error with the pod's
 *                    reason ({@code 0/3 nodes are available: 3 cannot allocate all claims.}, or PreFilter's)
 * @param explanation the allocator's explanation on the chosen node, when asked for and a node was tried
 * @param notes       what the controllers' part noted for the pod (a template not found, ...)
 */
public record PodClaims(
        String namespace,
        String pod,
        List<String> claims,
        List<String> templates,
        List<NodeVerdict> nodes,
        String node,
        AllocationOutcome outcome,
        Optional<Explanation> explanation,
        List<String> notes) {
    public PodClaims {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(pod, "pod");
        claims = List.copyOf(claims);
        templates = List.copyOf(templates);
        if (templates.size() != claims.size()) {
            throw new IllegalArgumentException(templates.size() + " templates for " + claims.size() + " claims");
        }
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(explanation, "explanation");
        notes = List.copyOf(notes);
    }

    /** {@code pod team-a/train-0}, or {@code claim team-a/shared} for a claim no pod uses. */
    public String label() {
        return pod.isEmpty() ? "claim " + namespace + "/" + claims.get(0) : "pod " + namespace + "/" + pod;
    }
}
