package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One scheduling cycle per pod, as kube-scheduler's schedulePod runs it with the default profile: PreFilter, Filter
 * over nodes from a rotating start index until enough feasible nodes are found (percentageOfNodesToScore), Score
 * with the default weights and normalisation, selection, Reserve and Bind. Where upstream runs Filter in parallel and
 * picks at random among equal best scores, dra4j filters nodes one after another in node-tree order from the start
 * index and takes the first of the best nodes in that order.
 */
final class Scheduler {
    static final int MIN_FEASIBLE_NODES_TO_FIND = 100;
    static final int MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
    private static final long MAX = NodeFilters.MAX_NODE_SCORE;

    /**
     * The outcome of one attempt: a node, or the FitError message and dra4j's DRA reason, computed only when asked
     * (the explanation is expensive, and only a pod's last attempt is reported).
     */
    record Attempt(String node, String message, java.util.function.Supplier<String> draReason, boolean error) {
        static Attempt failed(String message, String draReason, boolean error) {
            return new Attempt(null, message, () -> draReason, error);
        }
    }

    private final Cluster cluster;
    private final int percentageOfNodesToScore;
    private final java.util.function.Function<Pod, io.fabric8.kubernetes.api.model.LabelSelector> controllerSelector;
    private int nextStartNodeIndex;
    private TraceRecorder trace;

    /** @param controllerSelector the selector of the workload owning a pod (PodTopologySpread's defaults), or null */
    Scheduler(Cluster cluster, int percentageOfNodesToScore,
              java.util.function.Function<Pod, io.fabric8.kubernetes.api.model.LabelSelector> controllerSelector) {
        this.cluster = cluster;
        this.percentageOfNodesToScore = percentageOfNodesToScore;
        this.controllerSelector = controllerSelector;
    }

    /** Records what each attempt decides into the recorder (null: no trace). */
    void trace(TraceRecorder recorder) {
        this.trace = recorder;
    }

    Attempt schedule(Pod pod) {
        List<NodeInfo> all = cluster.nodes;
        if (all.isEmpty()) {
            return Attempt.failed("no nodes available to schedule pods", "", false);
        }
        // PreFilter.
        Resources request = PodRequests.of(pod);
        DynamicResources dra = new DynamicResources(pod, cluster, request);
        if (dra.preFilterStatus() != null) {
            FilterStatus s = dra.preFilterStatus();
            if (trace != null) {
                trace.preFilter(s);
            }
            String msg = "0/" + all.size() + " nodes are available: " + s.reasons().get(0) + ".";
            if (s.code() == FilterStatus.Code.ERROR) {
                return Attempt.failed(s.reasons().get(0), s.reasons().get(0), true);
            }
            if (s.code() == FilterStatus.Code.UNRESOLVABLE) {
                msg += " preemption: 0/" + all.size() + " nodes are available: " + all.size()
                        + " Preemption is not helpful for scheduling.";
            }
            return Attempt.failed(msg, s.reasons().get(0), false);
        }
        List<NodeInfo> nodes = preFilterNodes(pod, all);
        if (trace != null && nodes.size() < all.size()) {
            Set<NodeInfo> kept = new HashSet<>(nodes);
            all.stream().filter(n -> !kept.contains(n)).forEach(trace::preFilteredOut);
        }
        PodTopologySpread spread = new PodTopologySpread(pod, all);
        InterPodAffinity affinity = new InterPodAffinity(pod, all);

        // Filter, from the rotating start index, until enough feasible nodes are found.
        int toFind = numFeasibleNodesToFind(all.size());
        List<NodeInfo> feasible = new ArrayList<>();
        Map<NodeInfo, FilterStatus> rejected = new LinkedHashMap<>();
        int processed = 0;
        for (int i = 0; i < nodes.size() && feasible.size() < toFind; i++) {
            NodeInfo n = nodes.get((nextStartNodeIndex + i) % nodes.size());
            processed++;
            FilterStatus s = filter(pod, n, request, spread, affinity, dra);
            if (trace != null) {
                trace.filtered(n, s);
            }
            if (s == null) {
                feasible.add(n);
            } else if (s.code() == FilterStatus.Code.ERROR) {
                return Attempt.failed(s.reasons().get(0), s.reasons().get(0), true);
            } else {
                rejected.put(n, s);
            }
        }
        nextStartNodeIndex = (nextStartNodeIndex + processed) % all.size();
        if (feasible.isEmpty()) {
            return fitError(all.size() - nodes.size(), all.size(), rejected, dra);
        }
        if (trace != null && feasible.size() == 1) {
            trace.best(List.of(feasible.get(0).name));
        }
        NodeInfo chosen = feasible.size() == 1 ? feasible.get(0) : best(pod, request, feasible, dra);
        String preBind = dra.preBindError(chosen);
        if (preBind != null) {
            dra.preBindFailed(chosen);
            if (trace != null) {
                trace.error(preBind);
            }
            return Attempt.failed(preBind, preBind, true);
        }
        dra.bind(chosen);
        pod.getSpec().setNodeName(chosen.name);
        chosen.addPod(pod);
        return new Attempt(chosen.name, "", () -> "", false);
    }

    private FilterStatus filter(Pod pod, NodeInfo n, Resources request, PodTopologySpread spread,
                                InterPodAffinity affinity, DynamicResources dra) {
        // The default profile's order (apis/config/v1 default_plugins.go): NodeName before NodeUnschedulable.
        FilterStatus s = NodeFilters.nodeName(pod, n);
        if (s == null) {
            s = NodeFilters.nodeUnschedulable(pod, n);
        }
        if (s == null) {
            s = NodeFilters.taintToleration(pod, n);
        }
        if (s == null) {
            s = NodeFilters.nodeAffinity(pod, n);
        }
        if (s == null) {
            s = NodeFilters.nodePorts(pod, n);
        }
        if (s == null) {
            s = NodeFilters.nodeResourcesFit(request, n, r -> cluster.gates.isEnabled(
                    io.dra4j.allocator.DraFeature.DRAExtendedResource) && cluster.classForExtendedResource(r) != null);
        }
        if (s == null && !spread.skip()) {
            s = spread.filter(n);
        }
        if (s == null && !affinity.skip()) {
            s = affinity.filter(n);
        }
        if (s == null && !dra.skip()) {
            s = dra.filter(n);
        }
        return s;
    }

    /**
     * NodeAffinity's PreFilter: when every required term names nodes by {@code metadata.name In}, only those nodes
     * are filtered (DaemonSet pods); the others are reported as not satisfying NodeAffinity.
     */
    private static List<NodeInfo> preFilterNodes(Pod pod, List<NodeInfo> all) {
        var na = NodeFilters.nodeAffinityOf(pod);
        if (na == null || na.getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return all;
        }
        Set<String> names = new HashSet<>();
        for (NodeSelectorTerm t : Selectors.list(na.getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms())) {
            boolean named = false;
            for (NodeSelectorRequirement r : Selectors.list(t.getMatchFields())) {
                if (r.getKey().equals("metadata.name") && r.getOperator().equals("In")) {
                    names.addAll(Selectors.list(r.getValues()));
                    named = true;
                }
            }
            if (!named) {
                return all;
            }
        }
        return all.stream().filter(n -> names.contains(n.name)).toList();
    }

    /** numFeasibleNodesToFind with percentageOfNodesToScore (0: adaptive, 50% minus 1% per 125 nodes, at least 5%). */
    int numFeasibleNodesToFind(int numAllNodes) {
        if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND || percentageOfNodesToScore >= 100) {
            return numAllNodes;
        }
        int adaptive = percentageOfNodesToScore;
        if (adaptive <= 0) {
            adaptive = 50 - numAllNodes / 125;
            if (adaptive < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) {
                adaptive = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
            }
        }
        int numNodes = numAllNodes * adaptive / 100;
        return Math.max(numNodes, MIN_FEASIBLE_NODES_TO_FIND);
    }

    /**
     * FitError's message: {@code 0/N nodes are available: <count> <reason>, ...} with the reasons sorted as
     * strings, then DefaultPreemption's note when no node could be helped by preemption.
     */
    private Attempt fitError(int preFilteredOut, int numAll, Map<NodeInfo, FilterStatus> rejected, DynamicResources dra) {
        Map<String, Integer> histogram = new TreeMap<>();
        boolean allUnresolvable = true;
        if (preFilteredOut > 0) {
            histogram.merge("node(s) didn't satisfy plugin(s) [NodeAffinity]", preFilteredOut, Integer::sum);
        }
        for (FilterStatus s : rejected.values()) {
            for (String r : s.reasons()) {
                histogram.merge(r, 1, Integer::sum);
            }
            allUnresolvable &= s.code() == FilterStatus.Code.UNRESOLVABLE;
        }
        List<String> reasons = new ArrayList<>();
        histogram.forEach((r, c) -> reasons.add(c + " " + r));
        reasons.sort(null);
        String msg = "0/" + numAll + " nodes are available: " + String.join(", ", reasons) + ".";
        if (allUnresolvable) {
            msg += " preemption: 0/" + numAll + " nodes are available: " + numAll
                    + " Preemption is not helpful for scheduling.";
        }
        List<NodeInfo> draRejected = new ArrayList<>();
        rejected.forEach((node, status) -> {
            if (status.plugin().equals(DynamicResources.NAME)) {
                draRejected.add(node);
            }
        });
        return new Attempt(null, msg, () -> draRejected.isEmpty() ? "" : dra.decisiveReason(draRejected), false);
    }

    /**
     * Score with the default profile's weights (TaintToleration 3, NodeAffinity 2, PodTopologySpread 2, DynamicResources
     * 2, the others 1), normalised as upstream; ties go to the first node evaluated.
     */
    private NodeInfo best(Pod pod, Resources request, List<NodeInfo> feasible, DynamicResources dra) {
        int n = feasible.size();
        long[] total = new long[n];
        Resources nonZero = PodRequests.nonZero(pod);
        long[] taint = new long[n];
        long[] affinity = new long[n];
        long[] draScore = new long[n];
        long[] spread = new long[n];
        PodTopologySpreadScore spreading = new PodTopologySpreadScore(pod, feasible, cluster.nodes,
                controllerSelector.apply(pod));
        for (int i = 0; i < n; i++) {
            NodeInfo node = feasible.get(i);
            taint[i] = NodeFilters.taintTolerationScore(pod, node);
            affinity[i] = NodeFilters.nodeAffinityScore(pod, node);
            draScore[i] = dra.skip() ? 0 : dra.score(node);
            spread[i] = spreading.skip() ? 0 : spreading.score(node);
            total[i] += NodeFilters.leastAllocatedScore(nonZero, node);
            total[i] += NodeFilters.balancedAllocationScore(request, node);
        }
        normalize(taint, true);
        normalize(affinity, false);
        normalize(draScore, false);
        if (!spreading.skip()) {
            PodTopologySpreadScore.normalize(spread);
        }
        int bestIndex = 0;
        for (int i = 0; i < n; i++) {
            total[i] += 3 * taint[i] + 2 * affinity[i] + 2 * spread[i] + 2 * draScore[i];
            if (total[i] > total[bestIndex]) {
                bestIndex = i;
            }
        }
        if (trace != null) {
            recordScores(pod, request, nonZero, feasible, total, taint, affinity, spread, draScore, total[bestIndex]);
        }
        return feasible.get(bestIndex);
    }

    /** The trace's per-plugin weighted scores (as upstream's NodePluginScores lists them) and the best nodes. */
    private void recordScores(Pod pod, Resources request, Resources nonZero, List<NodeInfo> feasible, long[] total,
                              long[] taint, long[] affinity, long[] spread, long[] draScore, long bestTotal) {
        List<String> best = new ArrayList<>();
        for (int i = 0; i < feasible.size(); i++) {
            NodeInfo node = feasible.get(i);
            Map<String, Long> perPlugin = new LinkedHashMap<>();
            perPlugin.put("NodeResourcesFit", NodeFilters.leastAllocatedScore(nonZero, node));
            perPlugin.put("NodeResourcesBalancedAllocation", NodeFilters.balancedAllocationScore(request, node));
            perPlugin.put("TaintToleration", 3 * taint[i]);
            perPlugin.put("NodeAffinity", 2 * affinity[i]);
            perPlugin.put("PodTopologySpread", 2 * spread[i]);
            perPlugin.put("DynamicResources", 2 * draScore[i]);
            trace.scored(node, total[i], perPlugin);
            if (total[i] == bestTotal) {
                best.add(node.name);
            }
        }
        trace.best(best);
    }

    /** helper.DefaultNormalizeScore: scaled to 0..100 by the highest score, reversed for TaintToleration. */
    static void normalize(long[] scores, boolean reverse) {
        long max = 0;
        for (long s : scores) {
            max = Math.max(max, s);
        }
        for (int i = 0; i < scores.length; i++) {
            if (max == 0) {
                if (reverse) {
                    scores[i] = MAX;
                }
                continue;
            }
            scores[i] = MAX * scores[i] / max;
            if (reverse) {
                scores[i] = MAX - scores[i];
            }
        }
    }
}
