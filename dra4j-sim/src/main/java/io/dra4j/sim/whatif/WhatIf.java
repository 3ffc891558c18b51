package io.dra4j.sim.whatif;

import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Scale-up and scale-down questions over a snapshot: how many pending pods new nodes like a template take, the
 * smallest number of them that places every pending pod (of a selection), and whether the pods of drained nodes fit
 * elsewhere. Every answer is a simulation of the changed snapshot; nothing is estimated. Immutable and thread-safe.
 */
public final class WhatIf {
    private final SimulationOptions options;

    public WhatIf(SimulationOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /** The clones made of one template: {@code <template>-new-1} ... {@code <template>-new-N}. */
    public static List<NodeTemplate> clones(NodeTemplate template, int count) {
        List<NodeTemplate> out = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            out.add(template.cloneAs(template.name() + "-new-" + i));
        }
        return out;
    }

    /** What new nodes did: the simulation with them, and how many of the pods pending without them they placed. */
    public record Added(
            SimulationResult result,
            List<String> newNodes,
            int pendingBefore,
            int placedOnNewNodes,
            List<String> incompletePools) {
        public Added {
            newNodes = List.copyOf(newNodes);
            incompletePools = List.copyOf(incompletePools);
        }
    }

    /** Simulates the snapshot with {@code count} clones of each template added. */
    public Added addNodes(ClusterSnapshot snapshot, Map<NodeTemplate, Integer> counts) {
        SimulationResult before = new Simulator(options).run(snapshot);
        List<NodeTemplate> added = new ArrayList<>();
        List<String> incomplete = new ArrayList<>();
        counts.forEach((t, n) -> {
            added.addAll(clones(t, n));
            t.incompletePools().forEach(p -> incomplete.add("template " + t.name() + ": " + p));
        });
        SimulationResult after = new Simulator(options).run(NodeTemplate.addTo(snapshot, added));
        Set<String> names = new HashSet<>();
        added.forEach(t -> names.add(t.name()));
        int onNew = (int) after.pods().stream()
                .filter(p -> p.placement() == PodResult.Placement.PLACED
                        && p.node().map(names::contains).orElse(false))
                .count();
        return new Added(
                after, added.stream().map(NodeTemplate::name).toList(), (int) before.pending(), onNew, incomplete);
    }

    /**
     * The smallest number of clones found, or none.
     *
     * @param count         the smallest N that places every target pod, or -1 when even {@code tried} do not
     * @param targets       the pods pending without new nodes that had to be placed ({@code namespace/name})
     * @param stillPending  with {@code tried} clones (when none suffices): the targets left pending and why
     * @param simulations   how many simulations the search ran
     */
    public record Minimum(
            int count,
            List<String> targets,
            int tried,
            Map<String, String> stillPending,
            List<String> incompletePools,
            int simulations) {
        public Minimum {
            targets = List.copyOf(targets);
            stillPending = Map.copyOf(stillPending);
            incompletePools = List.copyOf(incompletePools);
        }
    }

    /**
     * Binary search for the smallest N such that with N clones of the template every pod that is pending without
     * them (and matches {@code select}) is placed. N is searched in [0, number of target pods]: each target alone
     * on a fresh node is the most it can need, so when that many do not place them all, no number does.
     */
    public Minimum findMin(ClusterSnapshot snapshot, NodeTemplate template, Predicate<Pod> select) {
        SimulationResult base = new Simulator(options).run(snapshot);
        Map<String, Pod> byKey = new HashMap<>();
        base.finalState().pods().forEach(p -> byKey.put(key(p), p));
        List<String> targets = base.pods().stream()
                .filter(p -> p.placement() == PodResult.Placement.PENDING)
                .map(p -> p.namespace() + "/" + p.name())
                .filter(k -> select.test(byKey.get(k)))
                .toList();
        List<String> incomplete = template.incompletePools().stream()
                .map(p -> "template " + template.name() + ": " + p + " (the clones' devices in it cannot be allocated)")
                .toList();
        int[] runs = {1};
        if (targets.isEmpty()) {
            return new Minimum(0, targets, 0, Map.of(), incomplete, runs[0]);
        }
        Map<Integer, Map<String, String>> left = new HashMap<>();
        Predicate<Integer> enough = n -> {
            runs[0]++;
            SimulationResult r = new Simulator(options).run(NodeTemplate.addTo(snapshot, clones(template, n)));
            Map<String, String> pending = new HashMap<>();
            for (PodResult p : r.pods()) {
                String key = p.namespace() + "/" + p.name();
                if (targets.contains(key) && p.placement() != PodResult.Placement.PLACED) {
                    pending.put(key, p.draReason().isEmpty() ? p.reason() : p.draReason());
                }
            }
            left.put(n, pending);
            return pending.isEmpty();
        };
        int hi = targets.size();
        if (!enough.test(hi)) {
            return new Minimum(-1, targets, hi, left.get(hi), incomplete, runs[0]);
        }
        int lo = 0;
        // Invariant: hi places every target; lo does not (0 does not: the targets are pending without new nodes).
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (enough.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return new Minimum(hi, targets, hi, Map.of(), incomplete, runs[0]);
    }

    /** What draining did: the simulation after, and per evicted pod where it went (empty: pending) and why. */
    public record Drained(
            SimulationResult result,
            List<String> nodes,
            Map<String, String> moved,
            Map<String, String> pending,
            List<String> notes) {
        public Drained {
            nodes = List.copyOf(nodes);
            moved = Map.copyOf(moved);
            pending = Map.copyOf(pending);
            notes = List.copyOf(notes);
        }

        public boolean fits() {
            return pending.isEmpty();
        }
    }

    /**
     * Drains nodes as {@code kubectl drain} would before a scale-down: the nodes are cordoned, their pods (other than
     * DaemonSet pods, which drain leaves) are evicted and scheduled again with the pending ones; a claim reserved only
     * for evicted pods is deallocated (the resourceclaim controller's release; the devices are free again), a shared
     * claim still reserved for a pod elsewhere keeps its allocation.
     */
    public Drained drain(ClusterSnapshot snapshot, List<String> nodeNames) {
        SimulationResult base = new Simulator(options).run(snapshot);
        ClusterSnapshot state = base.finalState();
        Set<String> drained = new HashSet<>(nodeNames);
        Set<String> known = new HashSet<>();
        state.nodes().forEach(n -> known.add(n.getMetadata().getName()));
        for (String n : nodeNames) {
            if (!known.contains(n)) {
                throw new IllegalArgumentException(
                        "node " + n + " is not in the snapshot (" + known.size() + " nodes)");
            }
        }
        List<Node> nodes = new ArrayList<>();
        for (Node n : state.nodes()) {
            nodes.add(
                    drained.contains(n.getMetadata().getName())
                            ? new NodeBuilder(n)
                                    .editOrNewSpec()
                                    .withUnschedulable(true)
                                    .endSpec()
                                    .build()
                            : n);
        }
        List<Pod> pods = new ArrayList<>();
        Set<String> evictedUids = new HashSet<>();
        List<String> evicted = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (Pod p : state.pods()) {
            String node = p.getSpec().getNodeName();
            if (node == null || !drained.contains(node)) {
                pods.add(p);
                continue;
            }
            if (daemonSetPod(p)) {
                notes.add("pod " + key(p) + " is a DaemonSet pod: drain leaves it");
                pods.add(p);
                continue;
            }
            evictedUids.add(p.getMetadata().getUid());
            evicted.add(key(p));
            Pod again =
                    new PodBuilder(p).editSpec().withNodeName(null).endSpec().build();
            if (again.getStatus() != null) {
                again.getStatus().setConditions(new ArrayList<>());
            }
            pods.add(again);
        }
        List<ResourceClaim> claims = new ArrayList<>();
        for (ResourceClaim c : state.resourceClaims()) {
            if (c.getStatus() == null || c.getStatus().getReservedFor() == null) {
                claims.add(c);
                continue;
            }
            List<ResourceClaimConsumerReference> keep = c.getStatus().getReservedFor().stream()
                    .filter(r -> !evictedUids.contains(r.getUid()))
                    .toList();
            if (keep.size() == c.getStatus().getReservedFor().size()) {
                claims.add(c);
            } else if (keep.isEmpty()) {
                claims.add(new ResourceClaimBuilder(c).withStatus(null).build());
            } else {
                ResourceClaim copy = new ResourceClaimBuilder(c).build();
                copy.getStatus().setReservedFor(new ArrayList<>(keep));
                claims.add(copy);
            }
        }
        ClusterSnapshot changed = state.with(nodes, pods, state.resourceSlices(), claims);
        SimulationResult after = new Simulator(options).run(changed);
        Map<String, String> moved = new java.util.TreeMap<>();
        Map<String, String> pending = new java.util.TreeMap<>();
        for (PodResult p : after.pods()) {
            String key = p.namespace() + "/" + p.name();
            if (!evicted.contains(key)) {
                continue;
            }
            if (p.placement() == PodResult.Placement.PLACED) {
                moved.put(key, p.node().orElse(""));
            } else {
                pending.put(key, p.draReason().isEmpty() ? p.reason() : p.draReason());
            }
        }
        return new Drained(after, nodeNames, moved, pending, notes);
    }

    private static boolean daemonSetPod(Pod p) {
        for (OwnerReference r : p.getMetadata().getOwnerReferences() == null
                ? List.<OwnerReference>of()
                : p.getMetadata().getOwnerReferences()) {
            if (Boolean.TRUE.equals(r.getController()) && "DaemonSet".equals(r.getKind())) {
                return true;
            }
        }
        return false;
    }

    private static String key(Pod p) {
        return Manifests.namespaceOf(p) + "/" + p.getMetadata().getName();
    }
}
