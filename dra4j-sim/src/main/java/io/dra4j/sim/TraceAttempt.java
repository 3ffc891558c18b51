package io.dra4j.sim;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One scheduling attempt of one pod, as kube-scheduler's framework decides it.
 *
 * @param preFilter the PreFilter status that rejected the pod on every node, if one did (then no node was filtered)
 * @param feasible  the nodes that passed every Filter plugin, in evaluation order
 * @param rejected  per rejected node the Filter plugin that rejected it first, its code and reasons; a node that
 *                  NodeAffinity's PreFilterResult excluded has plugin "" and the reason upstream records for it
 * @param scores    per feasible node its weighted, normalised score per Score plugin and the total; empty when at
 *                  most one node was feasible (upstream does not score then)
 * @param best      the nodes with the highest total score (the one feasible node when there was one)
 * @param node      the node the pod was bound to
 * @param claims    per pod claim name (and {@code <extended-resources>} for the claim made for extended resources)
 *                  the allocation of the claim once the pod was bound
 * @param error     the error that ended the attempt (a Filter or PreFilter error), "" when there was none
 * @param nominate  the node DefaultPreemption nominated after a FitError ("" when it cleared the nomination); empty
 *                  when it left the nomination as it was
 * @param victims   the pods (namespace/name) the preemption deleted, in the order it chose them
 */
public record TraceAttempt(
        String namespace,
        String name,
        Optional<Verdict> preFilter,
        List<String> feasible,
        Map<String, Verdict> rejected,
        Map<String, NodeScore> scores,
        List<String> best,
        Optional<String> node,
        Map<String, AllocationResult> claims,
        String error,
        Optional<String> nominate,
        List<String> victims) {
    /** Key of the extended-resource claim in {@link #claims()}. */
    public static final String EXTENDED_RESOURCES = "<extended-resources>";

    /**
     * A plugin's non-success status.
     *
     * @param code upstream's code name: {@code Unschedulable}, {@code UnschedulableAndUnresolvable} or {@code Error}
     */
    public record Verdict(String plugin, String code, List<String> reasons) {
        public Verdict {
            Objects.requireNonNull(plugin, "plugin");
            Objects.requireNonNull(code, "code");
            reasons = List.copyOf(reasons);
        }
    }

    /** A node's weighted normalised score per Score plugin (plugins scoring 0 may be absent) and their sum. */
    public record NodeScore(long total, Map<String, Long> plugins) {
        public NodeScore {
            plugins = Map.copyOf(plugins);
        }
    }

    public TraceAttempt {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(preFilter, "preFilter");
        feasible = List.copyOf(feasible);
        rejected = Map.copyOf(rejected);
        scores = Map.copyOf(scores);
        best = List.copyOf(best);
        Objects.requireNonNull(node, "node");
        claims = Map.copyOf(claims);
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(nominate, "nominate");
        victims = List.copyOf(victims);
    }
}
