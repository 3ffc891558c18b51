package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * PodTopologySpread's PreScore, Score and NormalizeScore: the pod's {@code ScheduleAnyway} constraints, or, for a
 * pod without any constraint, the system defaults (hostname with maxSkew 3, zone with maxSkew 5) over the selector of
 * the workload that owns it. Fewer matching pods in a node's domains give a higher score; each constraint's count is
 * weighted by log(number of domains + 2).
 */
final class PodTopologySpreadScore {
    static final String HOSTNAME = "kubernetes.io/hostname";
    static final String ZONE = "topology.kubernetes.io/zone";

    private record Constraint(
            String key, int maxSkew, LabelSelector selector, boolean honorAffinity, boolean honorTaints) {}

    private final Pod pod;
    private final List<Constraint> constraints = new ArrayList<>();
    private final boolean requireAllTopologies;
    private final Set<String> ignored = new HashSet<>();
    private final List<Map<String, Long>> counts = new ArrayList<>();
    private final List<Double> weights = new ArrayList<>();

    /**
     * @param defaultSelector the selector of the pod's controller (for the system default constraints), or null
     */
    PodTopologySpreadScore(Pod pod, List<NodeInfo> feasible, List<NodeInfo> all, LabelSelector defaultSelector) {
        this.pod = pod;
        List<TopologySpreadConstraint> own = Selectors.list(pod.getSpec().getTopologySpreadConstraints());
        this.requireAllTopologies = !own.isEmpty();
        if (own.isEmpty()) {
            if (defaultSelector != null) {
                constraints.add(new Constraint(HOSTNAME, 3, defaultSelector, true, false));
                constraints.add(new Constraint(ZONE, 5, defaultSelector, true, false));
            }
        } else {
            for (TopologySpreadConstraint c : own) {
                if ("ScheduleAnyway".equals(c.getWhenUnsatisfiable())) {
                    constraints.add(new Constraint(
                            c.getTopologyKey(),
                            c.getMaxSkew(),
                            PodTopologySpread.selector(c, pod),
                            !"Ignore".equals(c.getNodeAffinityPolicy()),
                            "Honor".equals(c.getNodeTaintsPolicy())));
                }
            }
        }
        if (constraints.isEmpty()) {
            return;
        }
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < constraints.size(); i++) {
            counts.add(new HashMap<>());
            sizes.add(0);
        }
        for (NodeInfo n : feasible) {
            Map<String, String> labels = Selectors.labels(n.node);
            if (requireAllTopologies && !hasAllKeys(labels)) {
                ignored.add(n.name);
                continue;
            }
            for (int i = 0; i < constraints.size(); i++) {
                Constraint c = constraints.get(i);
                // As upstream reads the label from a Go map: a node without the key (possible under the system
                // defaults, which do not require all keys) makes a domain "" that counts towards the weight.
                String v = labels.getOrDefault(c.key, "");
                if (c.key.equals(HOSTNAME)) {
                    continue;
                }
                if (counts.get(i).putIfAbsent(v, 0L) == null) {
                    sizes.set(i, sizes.get(i) + 1);
                }
            }
        }
        for (int i = 0; i < constraints.size(); i++) {
            int size = constraints.get(i).key.equals(HOSTNAME) ? feasible.size() - ignored.size() : sizes.get(i);
            weights.add(Math.log(size + 2));
        }
        for (NodeInfo n : all) {
            Map<String, String> labels = Selectors.labels(n.node);
            if (requireAllTopologies && !hasAllKeys(labels)) {
                continue;
            }
            for (int i = 0; i < constraints.size(); i++) {
                Constraint c = constraints.get(i);
                if (!includes(c, n)) {
                    continue;
                }
                String v = labels.getOrDefault(c.key, "");
                if (counts.get(i).containsKey(v)) {
                    counts.get(i).merge(v, (long) matching(n, c), Long::sum);
                }
            }
        }
    }

    boolean skip() {
        return constraints.isEmpty();
    }

    private boolean hasAllKeys(Map<String, String> labels) {
        return constraints.stream().allMatch(c -> labels.containsKey(c.key));
    }

    private boolean includes(Constraint c, NodeInfo n) {
        if (c.honorAffinity && !NodeFilters.matchesNodeAffinity(pod, n.node)) {
            return false;
        }
        return !c.honorTaints || NodeFilters.taintToleration(pod, n) == null;
    }

    private int matching(NodeInfo n, Constraint c) {
        int count = 0;
        for (Pod p : n.pods) {
            if (p.getMetadata().getDeletionTimestamp() == null
                    && Objects.equals(
                            p.getMetadata().getNamespace(), pod.getMetadata().getNamespace())
                    && Selectors.matches(c.selector, p.getMetadata().getLabels())) {
                count++;
            }
        }
        return count;
    }

    /** Raw score of a node; -1 for a node ignored for lacking a topology key. */
    long score(NodeInfo n) {
        if (ignored.contains(n.name)) {
            return -1;
        }
        Map<String, String> labels = Selectors.labels(n.node);
        double score = 0;
        for (int i = 0; i < constraints.size(); i++) {
            Constraint c = constraints.get(i);
            String v = labels.get(c.key);
            if (v == null) {
                continue;
            }
            long cnt = c.key.equals(HOSTNAME) ? matching(n, c) : counts.get(i).get(v);
            score += cnt * weights.get(i) + (c.maxSkew - 1);
        }
        return Math.round(score);
    }

    /** NormalizeScore: fewer matching pods score higher; ignored nodes get 0. */
    static void normalize(long[] scores) {
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long s : scores) {
            if (s < 0) {
                continue;
            }
            min = Math.min(min, s);
            max = Math.max(max, s);
        }
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] < 0) {
                scores[i] = 0;
            } else if (max == 0) {
                scores[i] = NodeFilters.MAX_NODE_SCORE;
            } else {
                scores[i] = NodeFilters.MAX_NODE_SCORE * (max + min - scores[i]) / max;
            }
        }
    }
}
