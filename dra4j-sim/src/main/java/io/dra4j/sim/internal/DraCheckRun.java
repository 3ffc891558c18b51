package io.dra4j.sim.internal;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.NodeVerdict;
import io.dra4j.sim.PodClaims;
import io.dra4j.sim.SimulationOptions;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One {@link io.dra4j.sim.DraCheck} run: the simulator's controllers' part (copies, workloads, template claims), then
 * for every pending pod with something to allocate the DynamicResources plugin's PreFilter, Filter on each node and
 * Score, without binding. A claim no pod references is checked as the only claim of a pod of its own.
 * Single-threaded; its state lives only for the run.
 */
public final class DraCheckRun {
    /** The UID of the stand-in pod for a claim that no pod references. */
    private static final String CLAIM_ONLY_POD_UID = "dra4j-claim-only";

    private final FeatureGates gates;
    private final Duration timeout;
    private final ClusterSnapshot snapshot;
    private final Optional<String> node;
    private final boolean explain;
    private final List<String> nodeNotes = new ArrayList<>();

    public DraCheckRun(
            FeatureGates gates, Duration timeout, ClusterSnapshot snapshot, Optional<String> node, boolean explain) {
        this.gates = gates;
        this.timeout = timeout;
        this.snapshot = snapshot;
        this.node = node;
        this.explain = explain;
    }

    public List<PodClaims> run() {
        Simulation sim = new Simulation(new SimulationOptions(gates, 0), withNodes(), timeout);
        sim.prepare();
        Cluster cluster = sim.cluster();
        List<NodeInfo> nodes =
                node.map(n -> List.of(cluster.nodesByName.get(n))).orElse(cluster.nodes);
        List<PodClaims> out = new ArrayList<>();
        Set<String> referenced = new HashSet<>();
        for (Pod p : sim.pods()) {
            for (PodResourceClaim pc : Selectors.list(p.getSpec().getResourceClaims())) {
                String name = DynamicResources.claimName(p, pc);
                if (name != null) {
                    referenced.add(Simulation.ns(p) + "/" + name);
                }
            }
            if (Simulation.pending(p)) {
                check(p, PodRequests.of(p), cluster, nodes, sim.notesOf(p)).ifPresent(out::add);
            }
        }
        // Claims no pod uses: each checked as the only claim of a stand-in pod in its namespace.
        for (ResourceClaim c : cluster.claims()) {
            String ns = Manifests.namespaceOf(c);
            boolean allocated = c.getStatus() != null && c.getStatus().getAllocation() != null;
            if (!allocated && !referenced.contains(ns + "/" + c.getMetadata().getName())) {
                check(claimOnlyPod(ns, c.getMetadata().getName()), new Resources(), cluster, nodes, List.of())
                        .map(r -> new PodClaims(
                                r.namespace(),
                                "",
                                r.claims(),
                                r.templates(),
                                r.nodes(),
                                r.node(),
                                r.outcome(),
                                r.explanation(),
                                r.notes()))
                        .ifPresent(out::add);
            }
        }
        return out;
    }

    /**
     * The snapshot with the nodes to allocate on: as given when it has Node objects (the one asked for must be
     * among them); otherwise a bare node per node name of its ResourceSlices, or the one asked for.
     */
    private ClusterSnapshot withNodes() {
        List<Node> nodes = snapshot.nodes();
        if (!nodes.isEmpty()) {
            List<String> names =
                    nodes.stream().map(n -> n.getMetadata().getName()).toList();
            if (node.isPresent() && !names.contains(node.get())) {
                throw new IllegalArgumentException(
                        "node " + node.get() + " is not in the input (its nodes: " + String.join(", ", names) + ")");
            }
            return snapshot;
        }
        Set<String> names = new LinkedHashSet<>();
        if (node.isPresent()) {
            names.add(node.get());
        } else {
            for (ResourceSlice s : snapshot.resourceSlices()) {
                if (s.getSpec() != null
                        && s.getSpec().getNodeName() != null
                        && !s.getSpec().getNodeName().isEmpty()) {
                    names.add(s.getSpec().getNodeName());
                }
            }
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("the input holds no Node and no ResourceSlice with spec.nodeName, so "
                    + "there is no node to allocate on: add the Node objects or give --node NAME");
        }
        List<Node> bare = new ArrayList<>();
        for (String n : names) {
            bare.add(new NodeBuilder()
                    .withNewMetadata()
                    .withName(n)
                    .endMetadata()
                    .build());
        }
        nodeNotes.add("the input holds no Node objects: taken as node(s) without labels: " + String.join(", ", names));
        return snapshot.with(bare, snapshot.pods(), snapshot.resourceSlices(), snapshot.resourceClaims());
    }

    /** What {@link #run} noted about the nodes (taken without labels because the input has no Node objects). */
    public List<String> nodeNotes() {
        return List.copyOf(nodeNotes);
    }

    private static Pod claimOnlyPod(String namespace, String claim) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(claim)
                .withUid(CLAIM_ONLY_POD_UID)
                .endMetadata()
                .withNewSpec()
                .withResourceClaims(new PodResourceClaimBuilder()
                        .withName(claim)
                        .withResourceClaimName(claim)
                        .build())
                .endSpec()
                .build();
    }

    /**
     * PreFilter, then Filter on each node and Score where it allocated; empty for a pod with nothing left to
     * allocate (no claims, or all of them allocated already).
     */
    private Optional<PodClaims> check(
            Pod pod, Resources request, Cluster cluster, List<NodeInfo> nodes, List<String> notes) {
        DynamicResources dra = new DynamicResources(pod, cluster, request);
        if (dra.skip()) {
            return Optional.empty();
        }
        String ns = Simulation.ns(pod);
        FilterStatus pre = dra.preFilterStatus();
        if (pre != null) {
            AllocationOutcome outcome = pre.code() == FilterStatus.Code.ERROR
                    ? new AllocationOutcome.Failed(pre.reasons().get(0), false)
                    : new AllocationOutcome.Unschedulable(Scheduler.preFilterMessage(pre, cluster.nodes.size()));
            List<String> claims = new ArrayList<>();
            List<String> templates = new ArrayList<>();
            for (PodResourceClaim pc : Selectors.list(pod.getSpec().getResourceClaims())) {
                String name = DynamicResources.claimName(pod, pc);
                claims.add(name != null ? name : pc.getName());
                templates.add(pc.getResourceClaimTemplateName() == null ? "" : pc.getResourceClaimTemplateName());
            }
            return Optional.of(new PodClaims(
                    ns, Simulation.name(pod), claims, templates, List.of(), "", outcome, Optional.empty(), notes));
        }
        if (dra.nothingToAllocate()) {
            return Optional.empty();
        }
        // Filter and Score on every node: the verdicts, then the ranking.
        List<NodeVerdict> verdicts = new ArrayList<>();
        Map<String, NodeInfo> byName = new HashMap<>();
        List<NodeInfo> rejected = new ArrayList<>();
        List<FilterStatus> statuses = new ArrayList<>();
        NodeInfo failedOn = null;
        AllocationOutcome.Failed failure = null;
        for (NodeInfo n : nodes) {
            byName.put(n.name, n);
            FilterStatus s = dra.filter(n);
            AllocationOutcome o = dra.outcome(n);
            if (s == null) {
                verdicts.add(new NodeVerdict(n.name, o, dra.score(n)));
                continue;
            }
            if (o == null) {
                o = s.code() == FilterStatus.Code.ERROR
                        ? new AllocationOutcome.Failed(s.reasons().get(0), false)
                        : new AllocationOutcome.Unschedulable(String.join("; ", s.reasons()));
            }
            verdicts.add(new NodeVerdict(n.name, o, 0));
            if (s.code() == FilterStatus.Code.ERROR && failure == null) {
                failure = new AllocationOutcome.Failed(s.reasons().get(0), false);
                failedOn = n;
            }
            rejected.add(n);
            statuses.add(s);
        }
        List<NodeVerdict> ranked = new ArrayList<>(verdicts);
        // A stable sort keeps node order among equal scores and among the nodes that do not fit.
        ranked.sort(Comparator.comparing((NodeVerdict v) -> !v.allocated())
                .thenComparing(v -> v.allocated() ? -v.score() : 0));
        NodeInfo chosen;
        AllocationOutcome outcome;
        Optional<Explanation> explanation = Optional.empty();
        if (!ranked.isEmpty() && ranked.get(0).allocated()) {
            chosen = byName.get(ranked.get(0).node());
            outcome = ranked.get(0).outcome();
        } else if (failure != null) {
            // As kube-scheduler: a Filter error ends the attempt with that error.
            chosen = failedOn;
            outcome = failure;
        } else {
            DynamicResources.Nearest nearest = dra.nearest(rejected);
            chosen = nearest != null ? nearest.node() : nodes.get(0);
            outcome = new AllocationOutcome.Unschedulable(Scheduler.fitErrorMessage(0, nodes.size(), statuses));
            if (explain && nearest != null) {
                explanation = Optional.of(nearest.explanation());
            }
        }
        if (explain && explanation.isEmpty()) {
            explanation = Optional.of(dra.explain(chosen));
        }
        List<String> claims = new ArrayList<>();
        List<String> templates = new ArrayList<>();
        for (ResourceClaim c : dra.claimsToAllocate(chosen)) {
            claims.add(c.getMetadata().getName());
            templates.add(templateOf(pod, c));
        }
        return Optional.of(new PodClaims(
                ns, Simulation.name(pod), claims, templates, ranked, chosen.name, outcome, explanation, notes));
    }

    /** The template the pod's claim entry names, for a claim that entry resolves to; empty otherwise. */
    private static String templateOf(Pod pod, ResourceClaim claim) {
        for (PodResourceClaim pc : Selectors.list(pod.getSpec().getResourceClaims())) {
            if (pc.getResourceClaimTemplateName() != null
                    && claim.getMetadata().getName().equals(DynamicResources.claimName(pod, pc))) {
                return pc.getResourceClaimTemplateName();
            }
        }
        return "";
    }
}
