package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * InterPodAffinity's Filter: the pod's required affinity and anti-affinity terms against the pods already assigned,
 * and the required anti-affinity terms of assigned pods against the incoming pod. A term's namespaceSelector is
 * matched against the label {@code kubernetes.io/metadata.name} only (Namespace objects are not read).
 */
final class InterPodAffinity {
    static final String NAME = "InterPodAffinity";
    static final String AFFINITY = "node(s) didn't match pod affinity rules";
    static final String ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
    static final String EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";

    private final Pod pod;
    private final List<NodeInfo> nodes;
    private final List<PodAffinityTerm> affinity;
    private final List<PodAffinityTerm> antiAffinity;
    private final boolean anyExistingAntiAffinity;
    /** Topology pair ({@code key=value}) → pods matching all of the pod's required affinity terms there. */
    private final Map<String, Integer> affinityCounts = new HashMap<>();

    InterPodAffinity(Pod pod, List<NodeInfo> nodes) {
        this.pod = pod;
        this.nodes = nodes;
        Affinity a = pod.getSpec().getAffinity();
        this.affinity = a == null || a.getPodAffinity() == null
                ? List.of()
                : Selectors.list(a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
        this.antiAffinity = a == null || a.getPodAntiAffinity() == null
                ? List.of()
                : Selectors.list(a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
        boolean any = false;
        for (int i = 0; i < nodes.size() && !any; i++) {
            any = nodes.get(i).withRequiredAntiAffinity > 0;
        }
        this.anyExistingAntiAffinity = any;
        // PreFilter's affinity counts: per topology pair, the pods that match every required affinity term.
        for (NodeInfo n : affinity.isEmpty() ? List.<NodeInfo>of() : nodes) {
            Map<String, String> labels = Selectors.labels(n.node);
            for (Pod p : n.pods) {
                if (matchesAll(affinity, pod, p)) {
                    for (PodAffinityTerm t : affinity) {
                        String v = labels.get(t.getTopologyKey());
                        if (v != null) {
                            affinityCounts.merge(t.getTopologyKey() + "=" + v, 1, Integer::sum);
                        }
                    }
                }
            }
        }
    }

    boolean skip() {
        return affinity.isEmpty() && antiAffinity.isEmpty() && !anyExistingAntiAffinity;
    }

    /** In upstream's order: the pod's affinity, then its anti-affinity, then the existing pods' anti-affinity. */
    FilterStatus filter(NodeInfo candidate) {
        Map<String, String> labels = Selectors.labels(candidate.node);
        FilterStatus s = affinity(labels);
        if (s != null) {
            return s;
        }
        for (PodAffinityTerm t : antiAffinity) {
            for (NodeInfo n : nodes) {
                for (Pod existing : n.pods) {
                    if (termMatches(t, pod, existing) && sameDomain(t.getTopologyKey(), labels, n)) {
                        return FilterStatus.unschedulable(NAME, ANTI_AFFINITY);
                    }
                }
            }
        }
        for (NodeInfo n : nodes) {
            if (n.withRequiredAntiAffinity == 0) {
                continue;
            }
            for (Pod existing : n.pods) {
                for (PodAffinityTerm t : requiredAntiAffinity(existing)) {
                    if (termMatches(t, existing, pod) && sameDomain(t.getTopologyKey(), labels, n)) {
                        return FilterStatus.unschedulable(NAME, EXISTING_ANTI_AFFINITY);
                    }
                }
            }
        }
        return null;
    }

    /**
     * Every term's topology key must be on the node, and the node's domain of each must hold a pod matching all terms;
     * the first pod of a group that selects itself may go anywhere the keys exist while no pod matches anywhere.
     */
    private FilterStatus affinity(Map<String, String> labels) {
        if (affinity.isEmpty()) {
            return null;
        }
        boolean podsExist = true;
        for (PodAffinityTerm t : affinity) {
            String v = labels.get(t.getTopologyKey());
            if (v == null) {
                return FilterStatus.unresolvable(NAME, AFFINITY);
            }
            podsExist &= affinityCounts.getOrDefault(t.getTopologyKey() + "=" + v, 0) > 0;
        }
        if (podsExist || (affinityCounts.isEmpty() && matchesAll(affinity, pod, pod))) {
            return null;
        }
        return FilterStatus.unresolvable(NAME, AFFINITY);
    }

    private static boolean matchesAll(List<PodAffinityTerm> terms, Pod owner, Pod target) {
        for (PodAffinityTerm t : terms) {
            if (!termMatches(t, owner, target)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameDomain(String key, Map<String, String> candidate, NodeInfo other) {
        String v = candidate.get(key);
        return v != null && v.equals(Selectors.labels(other.node).get(key));
    }

    /** Whether {@code target} is selected by {@code term}, a term of {@code owner}. */
    static boolean termMatches(PodAffinityTerm term, Pod owner, Pod target) {
        String ns = target.getMetadata().getNamespace();
        LabelSelector nsSelector = term.getNamespaceSelector();
        List<String> namespaces = Selectors.list(term.getNamespaces());
        boolean nsOk;
        if (namespaces.isEmpty() && nsSelector == null) {
            nsOk = Objects.equals(ns, owner.getMetadata().getNamespace());
        } else {
            nsOk = namespaces.contains(ns)
                    || (nsSelector != null && Selectors.matches(nsSelector, Map.of("kubernetes.io/metadata.name", ns)));
        }
        return nsOk
                && Selectors.matches(
                        term.getLabelSelector(), target.getMetadata().getLabels());
    }

    static List<PodAffinityTerm> requiredAntiAffinity(Pod p) {
        Affinity a = p.getSpec().getAffinity();
        return a == null || a.getPodAntiAffinity() == null
                ? List.of()
                : Selectors.list(a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
    }
}
