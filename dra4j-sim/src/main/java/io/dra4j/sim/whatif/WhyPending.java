package io.dra4j.sim.whatif;

import io.dra4j.allocator.Explanation;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import io.dra4j.sim.internal.Diagnosis;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Why a pod is pending across the whole cluster, or where a claim could be allocated. The snapshot is simulated
 * first (the pod's last attempt there saw the final state), then every node's Filter verdict for the pod is taken
 * over that final state and the nodes are grouped by reason. Nodes DynamicResources rejected are grouped further
 * by what the allocator sees of them (labels, node-local devices, the devices in use), and one node per group is
 * explained by the allocator, so that 5,000 nodes cost a handful of explanations. Fixes are checked: the allocator's
 * suggestions are verified by it on that node; tolerations and what-if nodes by filtering the changed pod again.
 * Immutable and thread-safe; each call is independent.
 */
public final class WhyPending {
    /** How many DynamicResources groups are explained by the allocator (largest first); the rest keep the filter's reason. */
    public static final int EXPLAINED_GROUPS = 32;
    /** How many groups' example nodes are tried as what-if nodes. */
    static final int WHAT_IF_TRIES = 3;

    private static final String NOT_AVAILABLE = "resourceclaim not available on the node";

    private final SimulationOptions options;

    public WhyPending(SimulationOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * Explains one pod of the snapshot (pods of workloads are named as the simulation names them).
     *
     * @throws IllegalArgumentException when the snapshot has no such pod, naming what it has
     */
    public PodExplanation pod(ClusterSnapshot snapshot, String namespace, String name) {
        SimulationResult result = new Simulator(options).run(snapshot);
        PodExplanation x = podIn(result, namespace, name);
        Optional<io.dra4j.sim.GangResult> gang = result.gangOf(namespace, name);
        if (gang.isEmpty()) {
            return x;
        }
        io.dra4j.sim.GangResult g = gang.get();
        String decisive = x.decisive();
        if (!g.fits() && x.status() == PodExplanation.Status.PENDING) {
            // A member of a gang that does not fit waits for the gang: the first member that did not fit decides.
            String key = namespace + "/" + name;
            String first = g.unfitDraReason().isEmpty() ? g.unfitReason() : g.unfitDraReason();
            decisive = g.name() + " does not fit (" + io.dra4j.sim.Reports.gangLine(g) + ")"
                    + (g.firstUnfit().equals(key)
                            ? "; this member does not fit: " + x.decisive()
                            : g.firstUnfit().isEmpty()
                                    ? ": " + g.reason()
                                    : "; first member that did not fit: " + g.firstUnfit() + ": " + first);
        }
        return new PodExplanation(
                x.kind(),
                x.namespace(),
                x.name(),
                x.status(),
                x.node(),
                x.workload(),
                x.message(),
                decisive,
                x.nodeCount(),
                x.groups(),
                x.fixes(),
                x.notes(),
                gang);
    }

    private PodExplanation podIn(SimulationResult result, String namespace, String name) {
        PodResult r = result.pods().stream()
                .filter(p -> p.namespace().equals(namespace) && p.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(notFound(
                        "pod",
                        namespace,
                        name,
                        result.pods().stream()
                                .map(p -> p.namespace() + "/" + p.name())
                                .toList())));
        int nodeCount = result.finalState().nodes().size();
        switch (r.placement()) {
            case BOUND_BEFORE:
                return answered(
                        "Pod",
                        r,
                        PodExplanation.Status.BOUND,
                        nodeCount,
                        "bound to node " + r.node().orElse(""));
            case PLACED:
                return answered(
                        "Pod",
                        r,
                        PodExplanation.Status.PLACED,
                        nodeCount,
                        "the scheduler would place it now, on node " + r.node().orElse(""));
            case NOT_SCHEDULED:
                return answered("Pod", r, PodExplanation.Status.NOT_SCHEDULED, nodeCount, r.reason());
            default:
                break;
        }
        Diagnosis d = Diagnosis.of(options, result.finalState());
        Pod pod = d.pod(namespace, name).orElseThrow();
        if (pod.getSpec().getSchedulingGates() != null
                && !pod.getSpec().getSchedulingGates().isEmpty()) {
            return answered("Pod", r, PodExplanation.Status.NOT_SCHEDULED, nodeCount, r.reason());
        }
        Session s = new Session(d, result.finalState(), pod, d.pod(pod), false);
        return s.explain("Pod", namespace, name, r.workload(), r.reason(), r.notes());
    }

    /**
     * Explains where one claim could be allocated, on its own (no pod, so only the devices decide).
     *
     * @throws IllegalArgumentException when the snapshot has no such claim
     */
    public PodExplanation claim(ClusterSnapshot snapshot, String namespace, String name) {
        SimulationResult result = new Simulator(options).run(snapshot);
        Diagnosis d = Diagnosis.of(options, result.finalState());
        ResourceClaim claim = d.claim(namespace, name)
                .orElseThrow(() -> new IllegalArgumentException(notFound(
                        "resourceclaim",
                        namespace,
                        name,
                        result.finalState().resourceClaims().stream()
                                .map(c -> Manifests.namespaceOf(c) + "/"
                                        + c.getMetadata().getName())
                                .toList())));
        int nodeCount = result.finalState().nodes().size();
        if (claim.getStatus() != null && claim.getStatus().getAllocation() != null) {
            List<String> devices = new ArrayList<>();
            for (DeviceRequestAllocationResult a :
                    claim.getStatus().getAllocation().getDevices().getResults()) {
                devices.add(a.getDriver() + "/" + a.getPool() + "/" + a.getDevice());
            }
            return new PodExplanation(
                    "ResourceClaim",
                    namespace,
                    name,
                    PodExplanation.Status.BOUND,
                    Optional.empty(),
                    "",
                    "",
                    "allocated: " + String.join(", ", devices),
                    nodeCount,
                    List.of(),
                    List.of(),
                    List.of());
        }
        Session s = new Session(d, result.finalState(), null, d.claim(claim), true);
        return s.explain("ResourceClaim", namespace, name, "", "", List.of());
    }

    private static PodExplanation answered(
            String kind, PodResult r, PodExplanation.Status status, int nodeCount, String decisive) {
        return new PodExplanation(
                kind,
                r.namespace(),
                r.name(),
                status,
                r.node(),
                r.workload(),
                r.reason(),
                decisive,
                nodeCount,
                List.of(),
                List.of(),
                r.notes());
    }

    private static String notFound(String kind, String namespace, String name, List<String> known) {
        List<String> sameNamespace = known.stream()
                .filter(k -> k.startsWith(namespace + "/"))
                .sorted()
                .toList();
        String hint = sameNamespace.isEmpty()
                ? "none in namespace " + namespace
                : "in namespace " + namespace + ": "
                        + String.join(", ", sameNamespace.subList(0, Math.min(10, sameNamespace.size())))
                        + (sameNamespace.size() > 10 ? ", ..." : "");
        return kind + " " + namespace + "/" + name + " not found in the snapshot (" + hint + ")";
    }

    /** One question's working state. */
    private final class Session {
        private final Diagnosis diagnosis;
        private final ClusterSnapshot state;
        private final Pod pod;
        private final Diagnosis.Check check;
        private final boolean claimOnly;
        private final List<String> notes = new ArrayList<>();
        private String namespace;

        Session(Diagnosis diagnosis, ClusterSnapshot state, Pod pod, Diagnosis.Check check, boolean claimOnly) {
            this.diagnosis = diagnosis;
            this.state = state;
            this.pod = pod;
            this.check = check;
            this.claimOnly = claimOnly;
        }

        PodExplanation explain(
                String kind, String namespace, String name, String workload, String message, List<String> podNotes) {
            this.namespace = namespace;
            notes.addAll(podNotes);
            List<String> allNodes = diagnosis.nodes();
            Optional<NodeVerdict> pre = check.preFilter();
            if (pre.isPresent()) {
                // PreFilter rejects the pod on every node at once: one group, the reason is the whole answer.
                NodeVerdict v = pre.get();
                String reason = String.join("; ", v.reasons());
                NodeGroup all = new NodeGroup(
                        1,
                        v.plugin(),
                        v.code(),
                        reason,
                        allNodes,
                        allNodes.isEmpty() ? "" : allNodes.get(0),
                        Optional.empty());
                return new PodExplanation(
                        kind,
                        namespace,
                        name,
                        PodExplanation.Status.PENDING,
                        Optional.empty(),
                        workload,
                        message,
                        reason,
                        allNodes.size(),
                        List.of(all),
                        List.of(),
                        notes);
            }
            List<NodeVerdict> verdicts = check.verdicts();
            List<NodeGroup> groups = group(verdicts);
            List<Fix> fixes = fixes(groups);
            long feasible = verdicts.stream().filter(NodeVerdict::feasible).count();
            PodExplanation.Status status =
                    claimOnly && feasible > 0 ? PodExplanation.Status.PLACED : PodExplanation.Status.PENDING;
            String decisive = groups.isEmpty() ? "no nodes available to schedule pods" : decisive(groups.get(0));
            if (claimOnly && feasible > 0) {
                decisive = "can be allocated on " + feasible + " of " + allNodes.size() + " node(s)";
            }
            return new PodExplanation(
                    kind,
                    namespace,
                    name,
                    status,
                    Optional.empty(),
                    workload,
                    message,
                    decisive,
                    allNodes.size(),
                    groups,
                    fixes,
                    notes);
        }

        private String decisive(NodeGroup g) {
            String more = g.count() > 1 ? " (and " + (g.count() - 1) + " more node(s) like it)" : "";
            if (g.plugin().isEmpty()) {
                return g.count() + " node(s) fit: " + g.reason();
            }
            if (g.explanation().isPresent()) {
                return g.example() + more + ": " + g.reason();
            }
            return g.count() + " node(s): " + g.reason();
        }

        /**
         * Groups the verdicts: by plugin and reason; DynamicResources' further by the nodes' device shape, one node
         * of each explained, then groups whose explanations read alike (node names aside) merged.
         */
        private List<NodeGroup> group(List<NodeVerdict> verdicts) {
            Shapes shapes = new Shapes(state);
            Map<String, List<NodeVerdict>> byKey = new LinkedHashMap<>();
            for (NodeVerdict v : verdicts) {
                String key = v.plugin() + "\u0000" + v.code() + "\u0000" + String.join("\u0001", v.reasons());
                if (v.plugin().equals("DynamicResources") && !v.reasons().contains(NOT_AVAILABLE)) {
                    key += "\u0000" + shapes.of(v.node());
                }
                byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
            }
            List<List<NodeVerdict>> draGroups = byKey.values().stream()
                    .filter(g -> g.get(0).plugin().equals("DynamicResources")
                            && !g.get(0).reasons().contains(NOT_AVAILABLE))
                    .sorted(Comparator.comparingInt(g -> -g.size()))
                    .toList();
            Map<List<NodeVerdict>, Explanation> explained = new HashMap<>();
            for (List<NodeVerdict> g : draGroups.subList(0, Math.min(EXPLAINED_GROUPS, draGroups.size()))) {
                Explanation e = check.explain(g.get(0).node());
                if (e != null) {
                    explained.put(g, e);
                }
            }
            if (draGroups.size() > EXPLAINED_GROUPS) {
                notes.add((draGroups.size() - EXPLAINED_GROUPS) + " smaller group(s) of nodes DynamicResources "
                        + "rejected were not explained by the allocator (only the " + EXPLAINED_GROUPS
                        + " largest are)");
            }
            // Merge explained groups whose reason is the same once the example node's name is taken out, and the
            // groups not explained by their filter reason alone.
            Map<String, Draft> drafts = new LinkedHashMap<>();
            for (List<NodeVerdict> g : byKey.values()) {
                NodeVerdict first = g.get(0);
                Explanation e = explained.get(g);
                String reason = e != null
                        ? e.decisive()
                        : first.feasible() ? "passes every filter" : String.join("; ", first.reasons());
                String mergeKey = e != null
                        ? "dra\u0000" + e.decisive().replace(first.node(), "\u0002")
                        : first.plugin() + "\u0000" + first.code() + "\u0000" + reason;
                Draft d = drafts.get(mergeKey);
                if (d == null) {
                    drafts.put(mergeKey, new Draft(first, reason, e, new ArrayList<>(g)));
                } else {
                    d.members.addAll(g);
                }
            }
            Map<String, Integer> order = new HashMap<>();
            List<String> nodeOrder = diagnosis.nodes();
            for (int i = 0; i < nodeOrder.size(); i++) {
                order.put(nodeOrder.get(i), i);
            }
            List<Draft> ranked = new ArrayList<>(drafts.values());
            ranked.sort(Comparator.comparingInt(Draft::stage)
                    .reversed()
                    .thenComparing(Comparator.comparingInt(Draft::reach).reversed())
                    .thenComparing(Comparator.comparingInt(Draft::left).reversed())
                    .thenComparing(Comparator.comparingInt((Draft d) -> d.members.size())
                            .reversed()));
            List<NodeGroup> out = new ArrayList<>();
            for (Draft d : ranked) {
                List<String> names = d.members.stream()
                        .map(NodeVerdict::node)
                        .sorted(Comparator.comparingInt(order::get))
                        .toList();
                out.add(new NodeGroup(
                        out.size() + 1,
                        d.first.plugin(),
                        d.first.code(),
                        d.reason,
                        names,
                        d.first.node(),
                        Optional.ofNullable(d.explanation)));
            }
            return out;
        }

        private List<Fix> fixes(List<NodeGroup> groups) {
            List<Fix> out = new ArrayList<>();
            for (NodeGroup g : groups) {
                g.explanation().ifPresent(e -> out.addAll(allocatorFixes(g, e)));
                if (!claimOnly && g.plugin().equals("TaintToleration")) {
                    toleration(g).ifPresent(out::add);
                }
            }
            if (!claimOnly) {
                whatIfNode(groups).ifPresent(out::add);
            }
            return out;
        }

        /** The allocator's suggestions, each verified by it on the group's example node. */
        private List<Fix> allocatorFixes(NodeGroup g, Explanation e) {
            List<Fix> out = new ArrayList<>();
            String where = g.count() > 1
                    ? " (verified on " + g.example() + "; " + g.count() + " node(s) like it)"
                    : " (verified on " + g.example() + ")";
            for (Explanation.Suggestion s : e.suggestions()) {
                if (!s.fits()) {
                    continue;
                }
                Explanation.Change c = s.change();
                Fix.Kind kind = c instanceof Explanation.Change.Release
                        ? Fix.Kind.RELEASE
                        : claimIndex(c).isPresent() ? Fix.Kind.CLAIM_CHANGE : Fix.Kind.CLUSTER_CHANGE;
                // The explanation names claims without namespace; they are the pod's (or the claim's) namespace.
                Optional<String> claim = claimIndex(c)
                        .filter(i -> i < e.claims().size())
                        .map(i -> namespace + "/" + e.claims().get(i).claim());
                out.add(new Fix(
                        kind,
                        s.description() + where,
                        g.example(),
                        claim,
                        Optional.of(c),
                        List.of(),
                        Optional.empty(),
                        List.of()));
            }
            return out;
        }

        /** Tolerations for the example node's NoSchedule and NoExecute taints, checked by filtering the node again. */
        private Optional<Fix> toleration(NodeGroup g) {
            Node node = state.nodes().stream()
                    .filter(n -> n.getMetadata().getName().equals(g.example()))
                    .findFirst()
                    .orElseThrow();
            List<Toleration> added = new ArrayList<>();
            List<String> shown = new ArrayList<>();
            for (Taint t : node.getSpec() == null || node.getSpec().getTaints() == null
                    ? List.<Taint>of()
                    : node.getSpec().getTaints()) {
                if (!"NoSchedule".equals(t.getEffect()) && !"NoExecute".equals(t.getEffect())) {
                    continue;
                }
                added.add(new TolerationBuilder()
                        .withKey(t.getKey())
                        .withOperator(t.getValue() == null ? "Exists" : "Equal")
                        .withValue(t.getValue())
                        .withEffect(t.getEffect())
                        .build());
                shown.add(t.getKey() + (t.getValue() == null ? "" : "=" + t.getValue()) + ":" + t.getEffect());
            }
            if (added.isEmpty()) {
                return Optional.empty();
            }
            Pod tolerating = new PodBuilder(pod)
                    .editSpec()
                    .addAllToTolerations(added)
                    .endSpec()
                    .build();
            List<NodeVerdict> v = diagnosis.pod(tolerating).verdicts(Set.of(g.example()));
            if (v.isEmpty() || !v.get(0).feasible()) {
                return Optional.empty();
            }
            return Optional.of(new Fix(
                    Fix.Kind.TOLERATION,
                    "tolerate " + String.join(", ", shown)
                            + " in the pod: it then fits on " + g.example()
                            + (g.count() > 1 ? " (" + g.count() + " node(s) are rejected for this taint)" : ""),
                    g.example(),
                    Optional.empty(),
                    Optional.empty(),
                    added,
                    Optional.empty(),
                    List.of()));
        }

        /**
         * A new node like one of the closest groups' examples, with nothing running on it: the state with that node
         * added, and the pod filtered on it.
         */
        private Optional<Fix> whatIfNode(List<NodeGroup> groups) {
            int tries = 0;
            for (NodeGroup g : groups) {
                if (tries++ == WHAT_IF_TRIES) {
                    break;
                }
                NodeTemplate template = NodeTemplate.of(state, g.example());
                String name = g.example() + "-whatif";
                NodeTemplate clone = template.cloneAs(name);
                Diagnosis withNode = Diagnosis.of(options, NodeTemplate.addTo(state, List.of(clone)));
                List<NodeVerdict> v = withNode.pod(pod).verdicts(Set.of(name));
                if (!v.isEmpty() && v.get(0).feasible()) {
                    List<String> incomplete = template.incompletePools();
                    return Optional.of(new Fix(
                            Fix.Kind.WHAT_IF_NODE,
                            "a new node like " + g.example()
                                    + " (same labels, taints and devices, nothing running on it) would take the pod"
                                    + (incomplete.isEmpty() ? "" : "; note " + String.join(", ", incomplete)),
                            name,
                            Optional.empty(),
                            Optional.empty(),
                            List.of(),
                            Optional.of(clone.node()),
                            clone.slices()));
                }
            }
            return Optional.empty();
        }
    }

    private static Optional<Integer> claimIndex(Explanation.Change c) {
        Integer claim = null;
        if (c instanceof Explanation.Change.Tolerate t) {
            claim = t.claim();
        } else if (c instanceof Explanation.Change.DropRequest t) {
            claim = t.claim();
        } else if (c instanceof Explanation.Change.DropClaim t) {
            claim = t.claim();
        } else if (c instanceof Explanation.Change.SetCount t) {
            claim = t.claim();
        } else if (c instanceof Explanation.Change.DropConstraint t) {
            claim = t.claim();
        } else if (c instanceof Explanation.Change.DropSelector t) {
            claim = t.claim();
        } else if (c instanceof Explanation.Change.GuardSelector t) {
            claim = t.claim();
        } else if (c instanceof Explanation.Change.DropCapacityRequests t) {
            claim = t.claim();
        }
        return Optional.ofNullable(claim);
    }

    /** A group being formed. */
    private record Draft(NodeVerdict first, String reason, Explanation explanation, List<NodeVerdict> members) {
        int stage() {
            return first.feasible() ? Diagnosis.FILTERS.size() : Diagnosis.FILTERS.indexOf(first.plugin());
        }

        int reach() {
            return explanation == null ? -1 : Diagnosis.reach(explanation);
        }

        /** At the stage where a request fell short, how many candidates were still left (more is closer). */
        int left() {
            if (explanation == null) {
                return -1;
            }
            int left = Integer.MAX_VALUE;
            for (Explanation.ClaimReport c : explanation.claims()) {
                for (Explanation.RequestReport r : c.requests()) {
                    if (r.shortfall() == null) {
                        continue;
                    }
                    long needed = Math.max(1, r.requested());
                    for (Explanation.Stage s : r.funnel()) {
                        if (s.remaining() < needed) {
                            left = Math.min(left, s.remaining());
                            break;
                        }
                    }
                }
            }
            return left == Integer.MAX_VALUE ? -1 : left;
        }
    }

    /**
     * What the allocator sees of a node, names aside: its labels (hostname aside), its node-local slices with the
     * node and pool names taken out, and the devices of those pools in use. Nodes with the same shape get the same
     * allocation answer, so one of them is explained for all. Where a DeviceTaintRule selects devices by pool or
     * device name, the node's pools stay in its shape. Attributes whose value differs on every device (UUIDs, serial
     * numbers) are left out, or no two nodes would ever be alike: a selector on such an attribute is the one case
     * where a group's members could answer differently from its example.
     */
    static final class Shapes {
        private final Map<String, List<ResourceSlice>> local = new HashMap<>();
        private final Map<String, List<String>> inUse = new HashMap<>();
        private final Map<String, String> labels = new HashMap<>();
        private final boolean namedTaintRules;
        /** Attributes with a different value on every device (UUIDs, serial numbers): left out of the shape. */
        private final Set<String> uniqueAttributes = new java.util.HashSet<>();

        Shapes(ClusterSnapshot state) {
            for (ResourceSlice s : state.resourceSlices()) {
                if (s.getSpec().getNodeName() != null) {
                    local.computeIfAbsent(s.getSpec().getNodeName(), k -> new ArrayList<>())
                            .add(s);
                }
            }
            for (ResourceClaim c : state.resourceClaims()) {
                if (c.getStatus() == null
                        || c.getStatus().getAllocation() == null
                        || c.getStatus().getAllocation().getDevices() == null) {
                    continue;
                }
                for (DeviceRequestAllocationResult r :
                        c.getStatus().getAllocation().getDevices().getResults()) {
                    inUse.computeIfAbsent(r.getDriver() + "/" + r.getPool(), k -> new ArrayList<>())
                            .add(r.getDevice()
                                    + (r.getConsumedCapacity() == null
                                            ? ""
                                            : r.getConsumedCapacity().toString()));
                }
            }
            for (Node n : state.nodes()) {
                Map<String, String> l = new TreeMap<>(
                        n.getMetadata().getLabels() == null
                                ? Map.of()
                                : n.getMetadata().getLabels());
                l.remove("kubernetes.io/hostname");
                l.values().removeIf(v -> v.equals(n.getMetadata().getName()));
                labels.put(n.getMetadata().getName(), l.toString());
            }
            boolean named = false;
            for (DeviceTaintRule r : state.deviceTaintRules()) {
                var sel = r.getSpec() == null ? null : r.getSpec().getDeviceSelector();
                named |= sel != null && (sel.getPool() != null || sel.getDevice() != null);
            }
            this.namedTaintRules = named;
            Map<String, Integer> devices = new HashMap<>();
            Map<String, Set<String>> values = new HashMap<>();
            for (List<ResourceSlice> slices : local.values()) {
                for (ResourceSlice s : slices) {
                    for (var d : s.getSpec().getDevices() == null
                            ? List.<io.fabric8.kubernetes.api.model.resource.v1.Device>of()
                            : s.getSpec().getDevices()) {
                        if (d.getAttributes() == null) {
                            continue;
                        }
                        d.getAttributes().forEach((k, v) -> {
                            devices.merge(k, 1, Integer::sum);
                            values.computeIfAbsent(k, x -> new java.util.HashSet<>())
                                    .add(String.valueOf(v));
                        });
                    }
                }
            }
            devices.forEach((k, n) -> {
                if (n > 1 && values.get(k).size() == n) {
                    uniqueAttributes.add(k);
                }
            });
        }

        String of(String node) {
            List<String> parts = new ArrayList<>();
            parts.add(labels.getOrDefault(node, ""));
            List<String> slices = new ArrayList<>();
            for (ResourceSlice s : local.getOrDefault(node, List.of())) {
                String pool =
                        s.getSpec().getDriver() + "/" + s.getSpec().getPool().getName();
                List<String> used = new ArrayList<>(inUse.getOrDefault(pool, List.of()));
                used.sort(null);
                var spec = new io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpecBuilder(s.getSpec())
                        .withNodeName(null)
                        .editPool()
                        .withName(namedTaintRules ? pool : null)
                        .endPool()
                        .build();
                if (!uniqueAttributes.isEmpty() && spec.getDevices() != null) {
                    for (var d : spec.getDevices()) {
                        if (d.getAttributes() != null) {
                            Map<String, io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute> kept =
                                    new TreeMap<>(d.getAttributes());
                            kept.keySet().removeAll(uniqueAttributes);
                            d.setAttributes(kept);
                        }
                    }
                }
                slices.add(spec + " in use " + used);
            }
            slices.sort(null);
            parts.addAll(slices);
            return String.join("\u0003", parts);
        }
    }
}
