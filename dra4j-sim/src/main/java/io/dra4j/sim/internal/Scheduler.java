package io.dra4j.sim.internal;

import io.dra4j.allocator.AllocationOutcome;
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
     * (the explanation is expensive, and only a pod's last attempt is reported). A failed attempt may carry
     * DefaultPreemption's outcome: {@code nominate} the node to nominate ("" clears the nomination, null leaves it)
     * and the {@code victims} to delete, and DynamicResources' PostFilter {@code deallocate}, the deallocation of one
     * of the pod's claims (null: none; once carried out, a claim event, which requeues pods). A binding carries
     * {@code undo}, which takes it back (GangScheduling's Unreserve when the gang does not fit); null otherwise.
     */
    record Attempt(
            String node,
            String message,
            java.util.function.Supplier<String> draReason,
            boolean error,
            String nominate,
            List<Pod> victims,
            String waitedOnNode,
            Set<String> rejectors,
            Runnable undo,
            Runnable deallocate) {
        Attempt {
            victims = List.copyOf(victims);
            rejectors = Set.copyOf(rejectors);
        }

        Attempt(
                String node,
                String message,
                java.util.function.Supplier<String> draReason,
                boolean error,
                String nominate,
                List<Pod> victims,
                String waitedOnNode,
                Set<String> rejectors,
                Runnable undo) {
            this(node, message, draReason, error, nominate, victims, waitedOnNode, rejectors, undo, null);
        }

        Attempt(
                String node,
                String message,
                java.util.function.Supplier<String> draReason,
                boolean error,
                String nominate,
                List<Pod> victims,
                String waitedOnNode,
                Set<String> rejectors) {
            this(node, message, draReason, error, nominate, victims, waitedOnNode, rejectors, null);
        }

        Attempt(String node, String message, java.util.function.Supplier<String> draReason, boolean error) {
            this(node, message, draReason, error, null, List.of(), null, Set.of());
        }

        static Attempt failed(String message, String draReason, boolean error) {
            return new Attempt(null, message, () -> draReason, error);
        }

        /** Whether the pod may fit once other pods are bound (its rejection counted pods: upstream's queueing hints). */
        boolean helpedByBindings() {
            return error || rejectors.contains(InterPodAffinity.NAME) || rejectors.contains(PodTopologySpread.NAME);
        }
    }

    private final Cluster cluster;
    private final int percentageOfNodesToScore;
    private final java.util.function.Function<Pod, io.fabric8.kubernetes.api.model.LabelSelector> controllerSelector;
    private final List<io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget> pdbs;
    private final io.dra4j.sim.SimulationOptions.BindingConditions bindingConditions;
    private final java.util.function.Supplier<java.time.Instant> clock;
    private int nextStartNodeIndex;
    private int repeatedFailures;
    private TraceRecorder trace;
    private final FilterMemo filterMemo;
    private final Nominator nominator;

    /**
     * What the node-local Filter plugins read from a pod: NodeName, NodeUnschedulable and TaintToleration (node
     * name, tolerations), NodeAffinity (node selector, node affinity), NodePorts (host ports), NodeResourcesFit (the
     * effective request) and DynamicResources (the claims' shape, {@link DynamicResources#filterShape}); with the
     * non-zero request for the node-local scores remembered with the verdicts.
     */
    private record FilterShape(
            String nodeName,
            List<io.fabric8.kubernetes.api.model.Toleration> tolerations,
            Map<String, String> nodeSelector,
            io.fabric8.kubernetes.api.model.NodeAffinity affinity,
            List<NodeInfo.HostPort> ports,
            Map<String, Long> request,
            Map<String, Long> nonZero,
            int claims) {
        FilterShape(Pod pod, Resources request, int claims) {
            this(
                    pod.getSpec().getNodeName(),
                    copy(Selectors.list(pod.getSpec().getTolerations())),
                    pod.getSpec().getNodeSelector() == null
                            ? null
                            : new java.util.HashMap<>(pod.getSpec().getNodeSelector()),
                    copy(NodeFilters.nodeAffinityOf(pod)),
                    NodeInfo.hostPorts(pod),
                    new java.util.HashMap<>(request.asMap()),
                    new java.util.HashMap<>(PodRequests.nonZero(pod).asMap()),
                    claims);
        }

        private static List<io.fabric8.kubernetes.api.model.Toleration> copy(
                List<io.fabric8.kubernetes.api.model.Toleration> l) {
            List<io.fabric8.kubernetes.api.model.Toleration> out = new ArrayList<>();
            l.forEach(t -> out.add(new io.fabric8.kubernetes.api.model.TolerationBuilder(t).build()));
            return out;
        }

        private static io.fabric8.kubernetes.api.model.NodeAffinity copy(
                io.fabric8.kubernetes.api.model.NodeAffinity a) {
            return a == null ? null : new io.fabric8.kubernetes.api.model.NodeAffinityBuilder(a).build();
        }
    }

    /**
     * @param controllerSelector the selector of the workload owning a pod (PodTopologySpread's defaults), or null
     * @param pdbs               the PodDisruptionBudgets DefaultPreemption respects
     * @param bindingConditions  what the drivers do with binding conditions
     * @param clock              the simulated clock
     * @param nominator          the pods nominated to nodes, which Filter treats as running there
     */
    Scheduler(
            Cluster cluster,
            int percentageOfNodesToScore,
            java.util.function.Function<Pod, io.fabric8.kubernetes.api.model.LabelSelector> controllerSelector,
            List<io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget> pdbs,
            io.dra4j.sim.SimulationOptions.BindingConditions bindingConditions,
            java.util.function.Supplier<java.time.Instant> clock,
            Nominator nominator) {
        this.cluster = cluster;
        this.percentageOfNodesToScore = percentageOfNodesToScore;
        this.controllerSelector = controllerSelector;
        this.pdbs = pdbs;
        this.bindingConditions = bindingConditions;
        this.clock = clock;
        this.filterMemo = new FilterMemo(cluster.nodes.size());
        this.nominator = nominator;
    }

    /**
     * The Filter plugins of one cycle. PodTopologySpread's and InterPodAffinity's PreFilter state counts pods on all
     * nodes; when a preemption dry run takes pods off a node it is computed again (upstream updates it through the
     * PreFilterExtensions RemovePod and AddPod).
     */
    private final class CycleFilters implements Preemption.Filters {
        private final Pod pod;
        private final Resources request;
        private final DynamicResources dra;
        private PodTopologySpread spread;
        private InterPodAffinity affinity;
        private final boolean podCountsMatter;

        /** The verdicts of pods of this one's shape; null when they depend on more than the node itself. */
        private final FilterMemo.Entry memo;

        CycleFilters(Pod pod, Resources request, DynamicResources dra) {
            this.pod = pod;
            this.request = request;
            this.dra = dra;
            this.spread = new PodTopologySpread(pod, cluster.nodes);
            this.affinity = new InterPodAffinity(pod, cluster.nodes);
            this.podCountsMatter = !spread.skip() || !affinity.skip();
            int draShape = podCountsMatter ? DynamicResources.NO_SHAPE : dra.filterShape();
            this.memo = draShape == DynamicResources.NO_SHAPE
                    ? null
                    : filterMemo.entry(new FilterShape(pod, request, draShape));
        }

        @Override
        public FilterStatus run(NodeInfo n) {
            List<Pod> nominated = nominator.reserving(n.name, pod);
            if (!nominated.isEmpty()) {
                return withNominatedPods(n, nominated);
            }
            if (memo == null) {
                return filter(pod, n, request, spread, affinity, dra);
            }
            // A verdict computed at the node's current stamp for a pod of the same shape is this pod's verdict.
            long stamp = cluster.versions.stamp(n.index);
            if (memo.stamps[n.index] == stamp) {
                if (memo.outcomes[n.index] != null) {
                    dra.remember(n, memo.outcomes[n.index]);
                }
                return memo.verdicts[n.index];
            }
            FilterStatus s = filter(pod, n, request, spread, affinity, dra);
            AllocationOutcome outcome = dra.skip() ? null : dra.outcome(n);
            if ((s == null || s.code() != FilterStatus.Code.ERROR)
                    && (outcome == null || AllocationMemo.repeatable(outcome))) {
                memo.stamps[n.index] = stamp;
                memo.verdicts[n.index] = s;
                memo.outcomes[n.index] = outcome;
            }
            return s;
        }

        /**
         * RunFilterPluginsWithNominatedPods on a node with nominated pods of equal or higher priority: first with them
         * on the node (the pod must not take the room a preemption made for them; PodTopologySpread's and
         * InterPodAffinity's state counts them, as their AddPod extensions do, unless PreFilter skipped the plugin),
         * then, when that passes, without them (pod affinity may hold only without them). Never from the memo nor
         * into it: its verdicts are for the node without nominated pods.
         */
        private FilterStatus withNominatedPods(NodeInfo n, List<Pod> nominated) {
            FilterStatus with = n.withPods(
                    nominated,
                    () -> filter(
                            pod,
                            n,
                            request,
                            spread.skip() ? spread : new PodTopologySpread(pod, cluster.nodes),
                            affinity.skip() ? affinity : new InterPodAffinity(pod, cluster.nodes),
                            dra));
            if (with != null) {
                return with;
            }
            return filter(pod, n, request, spread, affinity, dra);
        }

        /**
         * The failure of the last cycle of this pod's shape in which every node rejected it, when it is this cycle's
         * too: no pool change reaching all nodes since, no pod nominated anywhere, and every node changed since (the
         * change log) still rejecting the pod as it did then. The other nodes' stamps are the ones their remembered
         * verdicts hold, so Filter would read those verdicts again; their allocator outcomes are remembered for the
         * cycle as Filter remembers them. From another start index the same verdicts come in another order, so the
         * failure is the remembered one seen from {@code start}. Null: filter every node.
         */
        FilterMemo.Failure repeatedFailure(int start) {
            FilterMemo.Failure f = memo == null || trace != null || !nominator.none() ? null : memo.failure;
            NodeVersions versions = cluster.versions;
            int now = versions.changeCount();
            if (f == null || f.global() != versions.global() || now - f.changeCount() > cluster.nodes.size()) {
                return null;
            }
            boolean remembered = true;
            for (int i = f.changeCount(); i < now; i++) {
                NodeInfo n = cluster.nodes.get(versions.changedNode(i));
                FilterStatus s = run(n);
                if (s == null || !s.equals(f.statuses().get(n))) {
                    return null;
                }
                remembered &= memo.stamps[n.index] == versions.stamp(n.index);
            }
            for (NodeInfo n : cluster.nodes) {
                if (memo.stamps[n.index] == versions.stamp(n.index) && memo.outcomes[n.index] != null) {
                    dra.remember(n, memo.outcomes[n.index]);
                }
            }
            FilterMemo.Failure seen = f.from(start, cluster.nodes);
            if (remembered) {
                memo.failure = seen.at(now);
            }
            return seen;
        }

        /**
         * Keeps this cycle's failure for the next pod of the shape when every node's verdict is remembered at its
         * current stamp and no nominated pod took part.
         */
        void failed(FilterMemo.Failure f) {
            if (memo == null || trace != null || !nominator.none()) {
                return;
            }
            for (NodeInfo n : cluster.nodes) {
                if (memo.stamps[n.index] != cluster.versions.stamp(n.index)) {
                    memo.failure = null;
                    return;
                }
            }
            memo.failure = f;
        }

        @Override
        public void podsChanged() {
            if (podCountsMatter) {
                spread = new PodTopologySpread(pod, cluster.nodes);
                affinity = new InterPodAffinity(pod, cluster.nodes);
            }
        }
    }

    /** How many cycles took the repeated-failure shortcut ({@link CycleFilters#repeatedFailure}). */
    int repeatedFailures() {
        return repeatedFailures;
    }

    /** Records what each attempt decides into the recorder (null: no trace). */
    void trace(TraceRecorder recorder) {
        this.trace = recorder;
    }

    Attempt schedule(Pod pod) {
        return schedule(pod, false);
    }

    /**
     * One scheduling attempt; in a pod group cycle ({@code podGroupCycle}) a FitError runs no PostFilter, as
     * schedulingAlgorithm leaves it to the pod group's PodGroupPostFilter: the message has no PostFilter part and nobody
     * is nominated (DynamicResources' deallocation is still handed back for the pod group's own).
     */
    Attempt schedule(Pod pod, boolean podGroupCycle) {
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
            if (s.code() == FilterStatus.Code.ERROR) {
                return Attempt.failed(s.reasons().get(0), s.reasons().get(0), true);
            }
            // PostFilter after a PreFilter rejection: DefaultPreemption finds a pod that never preempts not eligible
            // (the nomination left as it is); otherwise, every node unresolvable, no node where preemption might
            // help, and it clears the nomination.
            if (podGroupCycle) {
                return Attempt.failed(
                        "0/" + all.size() + " nodes are available: "
                                + s.reasons().get(0) + ".",
                        s.reasons().get(0),
                        false);
            }
            if (Preemption.never(pod)) {
                return Attempt.failed(
                        "0/" + all.size() + " nodes are available: "
                                + s.reasons().get(0) + ". preemption: " + Preemption.NEVER,
                        s.reasons().get(0),
                        false);
            }
            String reason = s.reasons().get(0);
            return new Attempt(
                    null,
                    preFilterMessage(s, all.size()),
                    () -> reason,
                    false,
                    s.code() == FilterStatus.Code.UNRESOLVABLE ? "" : null,
                    List.of(),
                    null,
                    Set.of());
        }
        List<NodeInfo> nodes = preFilterNodes(pod, all);
        if (trace != null && nodes.size() < all.size()) {
            Set<NodeInfo> kept = new HashSet<>(nodes);
            all.stream().filter(n -> !kept.contains(n)).forEach(trace::preFilteredOut);
        }
        CycleFilters filters = new CycleFilters(pod, request, dra);

        // A nominated node (set by an earlier preemption) is tried alone first; if it fits it is taken unscored.
        String nominated = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
        NodeInfo nominatedNode = nominated == null ? null : cluster.nodesByName.get(nominated);
        if (nominatedNode != null) {
            FilterStatus s = filters.run(nominatedNode);
            if (s != null && s.code() == FilterStatus.Code.ERROR) {
                return Attempt.failed(s.reasons().get(0), s.reasons().get(0), true);
            }
            if (s == null) {
                if (trace != null) {
                    trace.filtered(nominatedNode, null);
                    trace.best(List.of(nominatedNode.name));
                }
                return bind(pod, nominatedNode, dra);
            }
        }

        // A failure of the pod's shape seen again: only the nodes changed since are filtered (all nodes are processed,
        // so the start index stays).
        if (nodes.size() == all.size() && !podGroupCycle) {
            FilterMemo.Failure again = filters.repeatedFailure(nextStartNodeIndex);
            if (again != null) {
                repeatedFailures++;
                return postFilter(pod, all, again, dra, filters, false);
            }
        }

        // Filter, from the rotating start index, until enough feasible nodes are found.
        int toFind = numFeasibleNodesToFind(all.size());
        List<NodeInfo> feasible = new ArrayList<>();
        // Sized for every node up front: a pod that fits nowhere is rejected by all of them.
        Map<NodeInfo, FilterStatus> rejected = new LinkedHashMap<>(nodes.size() * 4 / 3 + 1);
        int processed = 0;
        for (int i = 0; i < nodes.size() && feasible.size() < toFind; i++) {
            NodeInfo n = nodes.get((nextStartNodeIndex + i) % nodes.size());
            processed++;
            FilterStatus s = filters.run(n);
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
            return fitError(pod, all, nodes, rejected, dra, filters, podGroupCycle);
        }
        if (trace != null && feasible.size() == 1) {
            trace.best(List.of(feasible.get(0).name));
        }
        NodeInfo chosen = feasible.size() == 1 ? feasible.get(0) : best(pod, request, feasible, dra, filters.memo);
        return bind(pod, chosen, dra);
    }

    /** Reserve, PreBind (waiting for binding conditions) and Bind; a PreBind failure undoes the reservation. */
    private Attempt bind(Pod pod, NodeInfo chosen, DynamicResources dra) {
        String preBindError = dra.preBindError(chosen);
        if (preBindError != null) {
            dra.preBindFailed(chosen);
            if (trace != null) {
                trace.error(preBindError);
            }
            return Attempt.failed(preBindError, preBindError, true);
        }
        dra.bind(chosen);
        DynamicResources.PreBind preBind =
                dra.skip() ? new DynamicResources.PreBind(false, null) : dra.preBind(bindingConditions, clock.get());
        String waited = preBind.waited() ? chosen.name : null;
        if (preBind.error() != null) {
            if (trace != null) {
                trace.error(preBind.error());
            }
            return new Attempt(null, preBind.error(), () -> preBind.error(), true, null, List.of(), waited, Set.of());
        }
        pod.getSpec().setNodeName(chosen.name);
        chosen.addPod(pod);
        // Assume drops the pod's nomination; Unreserve gives it back as the pod's status still holds it.
        nominator.remove(pod);
        Runnable undo = () -> {
            chosen.removePod(pod);
            pod.getSpec().setNodeName(null);
            dra.unbind();
            nominator.nominate(
                    pod, pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName());
        };
        return new Attempt(chosen.name, "", () -> "", false, null, List.of(), waited, Set.of(), undo);
    }

    FilterStatus filter(
            Pod pod,
            NodeInfo n,
            Resources request,
            PodTopologySpread spread,
            InterPodAffinity affinity,
            DynamicResources dra) {
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
            s = NodeFilters.nodeResourcesFit(
                    request,
                    n,
                    r -> cluster.gates.isEnabled(io.dra4j.allocator.DraFeature.DRAExtendedResource)
                            && cluster.classForExtendedResource(r) != null);
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
    static List<NodeInfo> preFilterNodes(Pod pod, List<NodeInfo> all) {
        var na = NodeFilters.nodeAffinityOf(pod);
        if (na == null || na.getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return all;
        }
        Set<String> names = new HashSet<>();
        for (NodeSelectorTerm t : Selectors.list(
                na.getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms())) {
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
     * strings, then the messages of the PostFilter plugins in the profile's order, DynamicResources (when it
     * deallocated a claim) and DefaultPreemption, joined by ", " as the framework joins them.
     */
    private Attempt fitError(
            Pod pod,
            List<NodeInfo> all,
            List<NodeInfo> filtered,
            Map<NodeInfo, FilterStatus> rejected,
            DynamicResources dra,
            CycleFilters filters,
            boolean podGroupCycle) {
        Map<NodeInfo, FilterStatus> statuses = rejected;
        if (filtered.size() < all.size()) {
            statuses = new LinkedHashMap<>(rejected);
            Set<NodeInfo> in = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            in.addAll(filtered);
            for (NodeInfo n : all) {
                if (!in.contains(n)) {
                    statuses.put(
                            n,
                            FilterStatus.unresolvable(
                                    "NodeAffinity", "node(s) didn't satisfy plugin(s) [NodeAffinity]"));
                }
            }
        }
        Set<String> rejectors = new HashSet<>();
        statuses.values().forEach(st -> rejectors.add(st.plugin()));
        List<NodeInfo> draRejected = new ArrayList<>();
        rejected.forEach((node, status) -> {
            if (status.plugin().equals(DynamicResources.NAME)) {
                draRejected.add(node);
            }
        });
        FilterMemo.Failure failure = new FilterMemo.Failure(
                nextStartNodeIndex,
                cluster.versions.changeCount(),
                cluster.versions.global(),
                statuses,
                availability(0, all.size(), statuses.values()),
                rejectors,
                draRejected);
        if (filtered.size() == all.size() && !podGroupCycle) {
            filters.failed(failure);
        }
        return postFilter(pod, all, failure, dra, filters, podGroupCycle);
    }

    /**
     * PostFilter after every node rejected the pod: DynamicResources' deallocation, then DefaultPreemption; in a pod
     * group cycle the message carries neither, and no node is nominated.
     */
    private Attempt postFilter(
            Pod pod,
            List<NodeInfo> all,
            FilterMemo.Failure failure,
            DynamicResources dra,
            CycleFilters filters,
            boolean podGroupCycle) {
        String msg = failure.availability();
        Runnable deallocate = dra.postFilter();
        List<NodeInfo> draRejected = failure.draRejected();
        java.util.function.Supplier<String> draReason =
                draRejected.isEmpty() ? () -> "" : dra.decisiveReasonLater(draRejected);
        if (podGroupCycle) {
            return new Attempt(
                    null, msg, draReason, false, null, List.of(), null, failure.rejectors(), null, deallocate);
        }
        if (deallocate != null) {
            msg += " deallocation of ResourceClaim completed,";
        }
        Preemption.Outcome preemption = new Preemption(pod, pdbs, filters).postFilter(all, failure.statuses());
        msg += " " + preemption.message();
        return new Attempt(
                null,
                msg,
                draReason,
                false,
                preemption.nominatedNode(),
                preemption.victims(),
                null,
                failure.rejectors(),
                null,
                deallocate);
    }

    /** The message of a pod PreFilter rejected (not with an error): FitError's, with the preemption note if due. */
    static String preFilterMessage(FilterStatus s, int numAll) {
        String msg = "0/" + numAll + " nodes are available: " + s.reasons().get(0) + ".";
        if (s.code() == FilterStatus.Code.UNRESOLVABLE) {
            msg += " preemption: 0/" + numAll + " nodes are available: " + numAll
                    + " Preemption is not helpful for scheduling.";
        }
        return msg;
    }

    /**
     * FitError's message for the statuses of the rejected nodes where no preemption is tried (allocate and explain on
     * manifests): DefaultPreemption's note only when every node is unresolvable, as its dry run then finds no candidate.
     */
    static String fitErrorMessage(int preFilteredOut, int numAll, java.util.Collection<FilterStatus> rejected) {
        boolean allUnresolvable = true;
        for (FilterStatus s : rejected) {
            allUnresolvable &= s.code() == FilterStatus.Code.UNRESOLVABLE;
        }
        String msg = availability(preFilteredOut, numAll, rejected);
        if (allUnresolvable) {
            msg += " preemption: 0/" + numAll + " nodes are available: " + numAll
                    + " Preemption is not helpful for scheduling.";
        }
        return msg;
    }

    /** {@code 0/N nodes are available: <count> <reason>, ...}: the reasons counted and sorted as strings. */
    private static String availability(int preFilteredOut, int numAll, java.util.Collection<FilterStatus> rejected) {
        Map<String, Integer> histogram = new TreeMap<>();
        if (preFilteredOut > 0) {
            histogram.merge("node(s) didn't satisfy plugin(s) [NodeAffinity]", preFilteredOut, Integer::sum);
        }
        for (FilterStatus s : rejected) {
            for (String r : s.reasons()) {
                histogram.merge(r, 1, Integer::sum);
            }
        }
        List<String> reasons = new ArrayList<>();
        histogram.forEach((r, c) -> reasons.add(c + " " + r));
        reasons.sort(null);
        return "0/" + numAll + " nodes are available: " + String.join(", ", reasons) + ".";
    }

    /**
     * Score with the default profile's weights (TaintToleration 3, NodeAffinity 2, PodTopologySpread 2, InterPodAffinity
     * 2, DynamicResources 2, the others (NodeResourcesFit, NodeResourcesBalancedAllocation, ImageLocality) 1),
     * normalised as upstream; ties go to the first node evaluated.
     */
    private NodeInfo best(
            Pod pod, Resources request, List<NodeInfo> feasible, DynamicResources dra, FilterMemo.Entry memo) {
        int n = feasible.size();
        long[] total = new long[n];
        Resources nonZero = PodRequests.nonZero(pod);
        long[] taint = new long[n];
        long[] affinity = new long[n];
        long[] draScore = new long[n];
        long[] spread = new long[n];
        long[] podAffinity = new long[n];
        InterPodAffinityScore podAffinityScore = new InterPodAffinityScore(pod, cluster.nodes);
        PodTopologySpreadScore spreading =
                new PodTopologySpreadScore(pod, feasible, cluster.nodes, controllerSelector.apply(pod));
        for (int i = 0; i < n; i++) {
            NodeInfo node = feasible.get(i);
            spread[i] = spreading.skip() ? 0 : spreading.score(node);
            podAffinity[i] = podAffinityScore.skip() ? 0 : podAffinityScore.score(node);
            // ImageLocality depends on the pod's images, which its shape does not hold: never remembered.
            total[i] += cluster.images.score(pod, node.name);
            // The node-local raw scores, as a pod of the same shape got them at the node's current stamp.
            long stamp = memo == null ? -1 : cluster.versions.stamp(node.index);
            if (memo != null && memo.scoreStamps[node.index] == stamp) {
                taint[i] = memo.taint[node.index];
                affinity[i] = memo.affinity[node.index];
                draScore[i] = memo.dra[node.index];
                total[i] += memo.resources[node.index];
                continue;
            }
            taint[i] = NodeFilters.taintTolerationScore(pod, node);
            affinity[i] = NodeFilters.nodeAffinityScore(pod, node);
            draScore[i] = dra.skip() ? 0 : dra.score(node);
            long resources =
                    NodeFilters.leastAllocatedScore(nonZero, node) + NodeFilters.balancedAllocationScore(request, node);
            total[i] += resources;
            if (memo != null && memo.stamps[node.index] == stamp) {
                memo.scoreStamps[node.index] = stamp;
                memo.taint[node.index] = taint[i];
                memo.affinity[node.index] = affinity[i];
                memo.dra[node.index] = draScore[i];
                memo.resources[node.index] = resources;
            }
        }
        normalize(taint, true);
        normalize(affinity, false);
        normalize(draScore, false);
        if (!spreading.skip()) {
            PodTopologySpreadScore.normalize(spread);
        }
        if (!podAffinityScore.skip()) {
            InterPodAffinityScore.normalize(podAffinity);
        }
        int bestIndex = 0;
        for (int i = 0; i < n; i++) {
            // Weights of the default profile; DynamicResources' is 2 (applyDynamicResources in default_plugins.go).
            total[i] += 3 * taint[i] + 2 * affinity[i] + 2 * spread[i] + 2 * podAffinity[i] + 2 * draScore[i];
            if (total[i] > total[bestIndex]) {
                bestIndex = i;
            }
        }
        if (trace != null) {
            recordScores(
                    pod,
                    request,
                    nonZero,
                    feasible,
                    total,
                    taint,
                    affinity,
                    spread,
                    podAffinity,
                    draScore,
                    total[bestIndex]);
        }
        return feasible.get(bestIndex);
    }

    /** The trace's per-plugin weighted scores (as upstream's NodePluginScores lists them) and the best nodes. */
    private void recordScores(
            Pod pod,
            Resources request,
            Resources nonZero,
            List<NodeInfo> feasible,
            long[] total,
            long[] taint,
            long[] affinity,
            long[] spread,
            long[] podAffinity,
            long[] draScore,
            long bestTotal) {
        List<String> best = new ArrayList<>();
        for (int i = 0; i < feasible.size(); i++) {
            NodeInfo node = feasible.get(i);
            Map<String, Long> perPlugin = new LinkedHashMap<>();
            perPlugin.put("NodeResourcesFit", NodeFilters.leastAllocatedScore(nonZero, node));
            perPlugin.put("NodeResourcesBalancedAllocation", NodeFilters.balancedAllocationScore(request, node));
            perPlugin.put("ImageLocality", cluster.images.score(pod, node.name));
            perPlugin.put("TaintToleration", 3 * taint[i]);
            perPlugin.put("NodeAffinity", 2 * affinity[i]);
            perPlugin.put("PodTopologySpread", 2 * spread[i]);
            perPlugin.put(InterPodAffinity.NAME, 2 * podAffinity[i]);
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
