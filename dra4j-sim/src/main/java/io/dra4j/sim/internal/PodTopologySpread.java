package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * PodTopologySpread's Filter for {@code whenUnsatisfiable: DoNotSchedule} constraints (PreFilter counts matching pods
 * per topology domain over the nodes the constraint considers; Filter checks the skew a placement would give).
 */
final class PodTopologySpread {
    static final String NAME = "PodTopologySpread";
    static final String MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";
    static final String SKEW = "node(s) didn't match pod topology spread constraints";

    private record Constraint(
            String topologyKey,
            int maxSkew,
            int minDomains,
            LabelSelector selector,
            boolean honorAffinity,
            boolean honorTaints) {}

    private final Pod pod;
    private final List<Constraint> constraints = new ArrayList<>();
    private final List<Map<String, Integer>> counts = new ArrayList<>();

    /** PreFilter: the pod's hard constraints and, per constraint, matching pods per domain. */
    PodTopologySpread(Pod pod, List<NodeInfo> nodes) {
        this.pod = pod;
        for (TopologySpreadConstraint c : Selectors.list(pod.getSpec().getTopologySpreadConstraints())) {
            if (!"DoNotSchedule".equals(c.getWhenUnsatisfiable())) {
                continue;
            }
            constraints.add(new Constraint(
                    c.getTopologyKey(),
                    c.getMaxSkew(),
                    c.getMinDomains() == null ? 1 : c.getMinDomains(),
                    selector(c, pod),
                    !"Ignore".equals(c.getNodeAffinityPolicy()),
                    "Honor".equals(c.getNodeTaintsPolicy())));
        }
        for (Constraint c : constraints) {
            Map<String, Integer> perDomain = new HashMap<>();
            for (NodeInfo n : nodes) {
                if (!considers(c, n)) {
                    continue;
                }
                String domain = Selectors.labels(n.node).get(c.topologyKey);
                int matching = 0;
                for (Pod p : n.pods) {
                    if (p.getMetadata().getDeletionTimestamp() == null
                            && Objects.equals(
                                    p.getMetadata().getNamespace(),
                                    pod.getMetadata().getNamespace())
                            && Selectors.matches(c.selector, p.getMetadata().getLabels())) {
                        matching++;
                    }
                }
                perDomain.merge(domain, matching, Integer::sum);
            }
            counts.add(perDomain);
        }
    }

    boolean skip() {
        return constraints.isEmpty();
    }

    /** A node counts for a constraint when it has every constrained topology key and passes the policies. */
    private boolean considers(Constraint c, NodeInfo n) {
        Map<String, String> labels = Selectors.labels(n.node);
        for (Constraint any : constraints) {
            if (!labels.containsKey(any.topologyKey)) {
                return false;
            }
        }
        if (c.honorAffinity && !NodeFilters.matchesNodeAffinity(pod, n.node)) {
            return false;
        }
        if (c.honorTaints) {
            for (Taint t : NodeFilters.taints(n.node)) {
                if ((t.getEffect().equals("NoSchedule") || t.getEffect().equals("NoExecute"))
                        && !Selectors.tolerated(pod.getSpec().getTolerations(), t)) {
                    return false;
                }
            }
        }
        return true;
    }

    FilterStatus filter(NodeInfo n) {
        Map<String, String> labels = Selectors.labels(n.node);
        for (int i = 0; i < constraints.size(); i++) {
            Constraint c = constraints.get(i);
            String domain = labels.get(c.topologyKey);
            if (domain == null) {
                return FilterStatus.unresolvable(NAME, MISSING_LABEL);
            }
            Map<String, Integer> perDomain = counts.get(i);
            int min = perDomain.size() < c.minDomains
                    ? 0
                    : perDomain.values().stream()
                            .mapToInt(Integer::intValue)
                            .min()
                            .orElse(0);
            int self = Selectors.matches(c.selector, pod.getMetadata().getLabels()) ? 1 : 0;
            int skew = perDomain.getOrDefault(domain, 0) + self - min;
            if (skew > c.maxSkew) {
                return FilterStatus.unschedulable(NAME, SKEW);
            }
        }
        return null;
    }

    /** The constraint's selector with matchLabelKeys added as In requirements on the pod's own label values. */
    static LabelSelector selector(TopologySpreadConstraint c, Pod pod) {
        LabelSelector base = c.getLabelSelector();
        if (base == null) {
            return null;
        }
        Map<String, String> labels = pod.getMetadata().getLabels() == null
                ? Map.of()
                : pod.getMetadata().getLabels();
        LabelSelectorBuilder b = new LabelSelectorBuilder(base);
        for (String key : Selectors.list(c.getMatchLabelKeys())) {
            if (labels.containsKey(key)) {
                b.addToMatchExpressions(new LabelSelectorRequirementBuilder()
                        .withKey(key)
                        .withOperator("In")
                        .withValues(labels.get(key))
                        .build());
            }
        }
        return b.build();
    }
}
