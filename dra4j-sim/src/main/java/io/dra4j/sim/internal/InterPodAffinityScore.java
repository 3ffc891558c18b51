package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * InterPodAffinity's PreScore, Score and NormalizeScore with the default arguments (hardPodAffinityWeight 1, the
 * existing pods' preferred terms not ignored). PreScore sums, per topology key and value, the weights of every term
 * that holds between the incoming pod and a pod already on a node of that domain: the incoming pod's preferred
 * affinity (+) and anti-affinity (-) terms matching the existing pod, and the existing pod's required affinity
 * terms (+hardPodAffinityWeight), preferred affinity (+) and anti-affinity (-) terms matching the incoming pod. A
 * node's score is the sum over its labels' domains; NormalizeScore scales the feasible nodes' scores from their
 * minimum to their maximum onto 0..100. Terms match as the Filter's do ({@link InterPodAffinity#termMatches}).
 */
final class InterPodAffinityScore {
    static final long HARD_POD_AFFINITY_WEIGHT = 1;

    private final Pod pod;
    /** topology key → value → summed weight. */
    private final Map<String, Map<String, Long>> topologyScore = new HashMap<>();

    InterPodAffinityScore(Pod pod, List<NodeInfo> all) {
        this.pod = pod;
        Affinity a = pod.getSpec().getAffinity();
        List<WeightedPodAffinityTerm> preferredAffinity = a == null || a.getPodAffinity() == null
                ? List.of()
                : Selectors.list(a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
        List<WeightedPodAffinityTerm> preferredAnti = a == null || a.getPodAntiAffinity() == null
                ? List.of()
                : Selectors.list(a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
        // PreScore: every assigned pod against the incoming pod, in both directions; when the incoming pod has no
        // preferred terms only the pods with affinity of their own can add (upstream's HavePodsWithAffinityList).
        boolean own = !preferredAffinity.isEmpty() || !preferredAnti.isEmpty();
        for (NodeInfo n : all) {
            if (!own && n.withAffinity == 0) {
                continue;
            }
            Map<String, String> labels = Selectors.labels(n.node);
            if (labels.isEmpty()) {
                continue;
            }
            for (Pod existing : n.pods) {
                for (WeightedPodAffinityTerm t : preferredAffinity) {
                    add(t.getPodAffinityTerm(), pod, existing, labels, weight(t));
                }
                for (WeightedPodAffinityTerm t : preferredAnti) {
                    add(t.getPodAffinityTerm(), pod, existing, labels, -weight(t));
                }
                Affinity ea = existing.getSpec().getAffinity();
                if (ea == null) {
                    continue;
                }
                if (ea.getPodAffinity() != null) {
                    for (PodAffinityTerm t :
                            Selectors.list(ea.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution())) {
                        add(t, existing, pod, labels, HARD_POD_AFFINITY_WEIGHT);
                    }
                    for (WeightedPodAffinityTerm t :
                            Selectors.list(ea.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution())) {
                        add(t.getPodAffinityTerm(), existing, pod, labels, weight(t));
                    }
                }
                if (ea.getPodAntiAffinity() != null) {
                    for (WeightedPodAffinityTerm t : Selectors.list(
                            ea.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution())) {
                        add(t.getPodAffinityTerm(), existing, pod, labels, -weight(t));
                    }
                }
            }
        }
    }

    private static long weight(WeightedPodAffinityTerm t) {
        return t.getWeight() == null ? 0 : t.getWeight();
    }

    /** processTerm: {@code owner}'s term selects {@code target}, on a node labelled {@code labels}. */
    private void add(PodAffinityTerm term, Pod owner, Pod target, Map<String, String> labels, long weight) {
        if (!InterPodAffinity.termMatches(term, owner, target)) {
            return;
        }
        String value = labels.get(term.getTopologyKey());
        if (value != null) {
            topologyScore
                    .computeIfAbsent(term.getTopologyKey(), k -> new HashMap<>())
                    .merge(value, weight, Long::sum);
        }
    }

    /** PreScore skips the plugin when no term matched on any node with its topology key. */
    boolean skip() {
        return topologyScore.isEmpty();
    }

    long score(NodeInfo node) {
        Map<String, String> labels = Selectors.labels(node.node);
        long score = 0;
        for (Map.Entry<String, Map<String, Long>> e : topologyScore.entrySet()) {
            String v = labels.get(e.getKey());
            if (v != null) {
                score += e.getValue().getOrDefault(v, 0L);
            }
        }
        return score;
    }

    /** NormalizeScore: from the lowest to the highest score onto 0..100, truncated; all 0 when they are equal. */
    static void normalize(long[] scores) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long s : scores) {
            min = Math.min(min, s);
            max = Math.max(max, s);
        }
        long diff = max - min;
        for (int i = 0; i < scores.length; i++) {
            double f = 0;
            if (diff > 0) {
                f = (double) NodeFilters.MAX_NODE_SCORE * ((double) (scores[i] - min) / (double) diff);
            }
            scores[i] = (long) f;
        }
    }
}
