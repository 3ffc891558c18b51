package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The node-local Filter and Score plugins of the default profile: NodeUnschedulable, NodeName, NodeAffinity,
 * TaintToleration, NodePorts, NodeResourcesFit (LeastAllocated) and NodeResourcesBalancedAllocation, with upstream's
 * reason texts and score formulas (pkg/scheduler/framework/plugins/...).
 */
final class NodeFilters {
    static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";
    static final long MAX_NODE_SCORE = 100;

    private NodeFilters() {}

    static FilterStatus nodeUnschedulable(Pod pod, NodeInfo n) {
        if (!Boolean.TRUE.equals(
                n.node.getSpec() == null ? null : n.node.getSpec().getUnschedulable())) {
            return null;
        }
        Taint taint = new Taint("NoSchedule", UNSCHEDULABLE_TAINT, null, null);
        if (Selectors.tolerated(pod.getSpec().getTolerations(), taint)) {
            return null;
        }
        return FilterStatus.unresolvable("NodeUnschedulable", "node(s) were unschedulable");
    }

    static FilterStatus nodeName(Pod pod, NodeInfo n) {
        String want = pod.getSpec().getNodeName();
        if (want == null || want.isEmpty() || want.equals(n.name)) {
            return null;
        }
        return FilterStatus.unresolvable("NodeName", "node(s) didn't match the requested node name");
    }

    static FilterStatus nodeAffinity(Pod pod, NodeInfo n) {
        Map<String, String> selector = pod.getSpec().getNodeSelector();
        Map<String, String> labels = Selectors.labels(n.node);
        if (selector != null) {
            for (Map.Entry<String, String> e : selector.entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return FilterStatus.unresolvable(
                            "NodeAffinity", "node(s) didn't match Pod's node affinity/selector");
                }
            }
        }
        NodeAffinity na = nodeAffinityOf(pod);
        if (na != null
                && na.getRequiredDuringSchedulingIgnoredDuringExecution() != null
                && !Selectors.matches(na.getRequiredDuringSchedulingIgnoredDuringExecution(), n.node)) {
            return FilterStatus.unresolvable("NodeAffinity", "node(s) didn't match Pod's node affinity/selector");
        }
        return null;
    }

    /** Whether the pod's nodeSelector and required node affinity accept the node (used by PodTopologySpread too). */
    static boolean matchesNodeAffinity(Pod pod, Node node) {
        return nodeAffinity(pod, new NodeInfo(node)) == null;
    }

    static NodeAffinity nodeAffinityOf(Pod pod) {
        Affinity a = pod.getSpec().getAffinity();
        return a == null ? null : a.getNodeAffinity();
    }

    static long nodeAffinityScore(Pod pod, NodeInfo n) {
        NodeAffinity na = nodeAffinityOf(pod);
        if (na == null) {
            return 0;
        }
        long score = 0;
        for (PreferredSchedulingTerm t : Selectors.list(na.getPreferredDuringSchedulingIgnoredDuringExecution())) {
            if (t.getWeight() != null
                    && t.getWeight() != 0
                    && t.getPreference() != null
                    && Selectors.matches(t.getPreference(), n.node)) {
                score += t.getWeight();
            }
        }
        return score;
    }

    static FilterStatus taintToleration(Pod pod, NodeInfo n) {
        List<Toleration> tolerations = pod.getSpec().getTolerations();
        for (Taint t : taints(n.node)) {
            if (!t.getEffect().equals("NoSchedule") && !t.getEffect().equals("NoExecute")) {
                continue;
            }
            if (!Selectors.tolerated(tolerations, t)) {
                return FilterStatus.unresolvable("TaintToleration", "node(s) had untolerated taint(s)");
            }
        }
        return null;
    }

    /** Raw TaintToleration score: PreferNoSchedule taints the pod does not tolerate (normalised in reverse). */
    static long taintTolerationScore(Pod pod, NodeInfo n) {
        List<Toleration> preferNoSchedule = new ArrayList<>();
        for (Toleration t : Selectors.list(pod.getSpec().getTolerations())) {
            if (t.getEffect() == null
                    || t.getEffect().isEmpty()
                    || t.getEffect().equals("PreferNoSchedule")) {
                preferNoSchedule.add(t);
            }
        }
        long count = 0;
        for (Taint t : taints(n.node)) {
            if (t.getEffect().equals("PreferNoSchedule") && !Selectors.tolerated(preferNoSchedule, t)) {
                count++;
            }
        }
        return count;
    }

    static List<Taint> taints(Node node) {
        return node.getSpec() == null
                ? List.of()
                : Selectors.list(node.getSpec().getTaints());
    }

    static FilterStatus nodePorts(Pod pod, NodeInfo n) {
        if (n.usedPorts.isEmpty()) {
            return null;
        }
        for (NodeInfo.HostPort want : NodeInfo.hostPorts(pod)) {
            for (NodeInfo.HostPort used : n.usedPorts) {
                if (want.conflicts(used)) {
                    return FilterStatus.unschedulable(
                            "NodePorts", "node(s) didn't have free ports for the requested pod ports");
                }
            }
        }
        return null;
    }

    /**
     * NodeResourcesFit: pod count, cpu, memory, ephemeral-storage and every other requested resource; an extended
     * resource that a DeviceClass maps and the node does not offer is left to DynamicResources.
     */
    static FilterStatus nodeResourcesFit(Resources podRequest, NodeInfo n, Predicate<String> draBacked) {
        List<String> reasons = new ArrayList<>();
        boolean unresolvable = false;
        long allowedPods = n.allocatable.get(Quantities.PODS);
        if (n.pods.size() + 1 > allowedPods) {
            reasons.add("Too many pods");
        }
        for (Map.Entry<String, Long> e : podRequest.asMap().entrySet()) {
            String name = e.getKey();
            long want = e.getValue();
            if (want <= 0 || name.equals(Quantities.PODS)) {
                continue;
            }
            long allocatable = n.allocatable.get(name);
            if (allocatable == 0 && draBacked.test(name)) {
                continue;
            }
            if (want > allocatable - n.requested.get(name)) {
                reasons.add("Insufficient " + name);
                unresolvable |= want > allocatable;
            }
        }
        if (reasons.isEmpty()) {
            return null;
        }
        return unresolvable
                ? new FilterStatus(FilterStatus.Code.UNRESOLVABLE, "NodeResourcesFit", reasons)
                : new FilterStatus(FilterStatus.Code.UNSCHEDULABLE, "NodeResourcesFit", reasons);
    }

    /** LeastAllocated over cpu and memory (weight 1 each) with non-zero requests. */
    static long leastAllocatedScore(Resources podNonZero, NodeInfo n) {
        long score = 0;
        long weights = 0;
        for (String r : List.of(Quantities.CPU, Quantities.MEMORY)) {
            long capacity = n.allocatable.get(r);
            if (capacity == 0) {
                continue;
            }
            long requested = n.nonZeroRequested.get(r) + podNonZero.get(r);
            score += requested > capacity ? 0 : ((capacity - requested) * MAX_NODE_SCORE) / capacity;
            weights++;
        }
        return weights == 0 ? 0 : score / weights;
    }

    /**
     * BalancedAllocation over cpu and memory with actual requests (skipped, 0, for best-effort pods), as 1.37 scores
     * it: by how much the pod improves the node's balance, {@code 50 + (50 + withPod - withoutPod) / 2}, where each
     * balance is {@code (1 - std) * 100} of the resources' requested fractions.
     */
    static long balancedAllocationScore(Resources podRequest, NodeInfo n) {
        if (podRequest.get(Quantities.CPU) == 0 && podRequest.get(Quantities.MEMORY) == 0) {
            return 0;
        }
        long withPod = balance(n, podRequest);
        long withoutPod = balance(n, new Resources());
        return MAX_NODE_SCORE / 2 + (MAX_NODE_SCORE / 2 + withPod - withoutPod) / 2;
    }

    private static long balance(NodeInfo n, Resources podRequest) {
        List<Double> fractions = new ArrayList<>();
        for (String r : List.of(Quantities.CPU, Quantities.MEMORY)) {
            long capacity = n.allocatable.get(r);
            if (capacity == 0) {
                continue;
            }
            double f = (double) (n.requested.get(r) + podRequest.get(r)) / capacity;
            fractions.add(Math.min(f, 1.0));
        }
        double std = fractions.size() == 2 ? Math.abs((fractions.get(0) - fractions.get(1)) / 2) : 0;
        return (long) ((1 - std) * MAX_NODE_SCORE);
    }

    static boolean isBestEffort(Resources podRequest) {
        return podRequest.get(Quantities.CPU) == 0 && podRequest.get(Quantities.MEMORY) == 0;
    }
}
