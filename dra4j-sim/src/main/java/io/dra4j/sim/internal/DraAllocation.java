package io.dra4j.sim.internal;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.ClusterState;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The simulator's only use of the allocator: one {@link ClusterState} for the whole run, brought up to date at the
 * start of each scheduling cycle with the claims allocated since the previous one (and without those released), as
 * kube-scheduler's DynamicResources plugin sees the devices in use at PreFilter. An update costs what the changed
 * claims hold, not a rebuild of every slice.
 */
final class DraAllocation {
    private ClusterState state;
    private final FeatureGates gates;
    private final List<DeviceClass> classes;
    private final List<DeviceTaintRule> taintRules;
    /** Slices by the node they name in spec.nodeName; those naming none (node selectors, all nodes) under "". */
    private final Map<String, List<ResourceSlice>> slicesByNode = new HashMap<>();
    /** The allocated claims {@link #state} holds, by namespace/name. */
    private final Map<String, ResourceClaim> held = new HashMap<>();

    private long shareIds;
    /** kube-scheduler's filterTimeout per allocation; null for none. */
    private final Duration timeout;
    /** Outcomes per node and claim shape, valid while the pools the node sees are unchanged. */
    private final AllocationMemo memo;

    DraAllocation(
            FeatureGates gates,
            Duration timeout,
            List<DeviceClass> classes,
            List<ResourceSlice> slices,
            List<DeviceTaintRule> taintRules,
            NodeVersions versions,
            int nodeCount) {
        this.timeout = timeout;
        this.gates = gates;
        this.classes = List.copyOf(classes);
        this.taintRules = List.copyOf(taintRules);
        this.memo = new AllocationMemo(versions, nodeCount);
        for (ResourceSlice s : slices) {
            String node = s.getSpec() == null || s.getSpec().getNodeName() == null
                    ? ""
                    : s.getSpec().getNodeName();
            slicesByNode.computeIfAbsent(node, k -> new java.util.ArrayList<>()).add(s);
        }
        this.state = ClusterState.builder()
                .featureGates(gates)
                .deviceClasses(classes)
                .resourceSlices(slices)
                .deviceTaintRules(taintRules)
                .build();
    }

    /**
     * One cycle's view, after the claims changed since the previous cycle (by key; null when removed) are brought
     * up to date: a changed claim leaves the state and comes back in if it is allocated now.
     */
    Cycle begin(Map<String, ResourceClaim> changed) {
        for (Map.Entry<String, ResourceClaim> e : changed.entrySet()) {
            ResourceClaim was = held.remove(e.getKey());
            if (was != null) {
                state = state.withoutAllocatedClaim(
                        was.getMetadata().getNamespace(), was.getMetadata().getName());
            }
            ResourceClaim now = e.getValue();
            if (now != null && now.getStatus() != null && now.getStatus().getAllocation() != null) {
                state = state.withAllocatedClaim(now);
                held.put(e.getKey(), now);
            }
        }
        Allocator allocator = Allocator.builder()
                .clusterState(state)
                .timeout(timeout)
                // Share IDs are random UUIDs upstream; numbered here so that runs repeat.
                .shareIds(() -> UUID.nameUUIDFromBytes(("dra4j-share-" + (shareIds++)).getBytes())
                        .toString())
                .build();
        return new Cycle(allocator, this, state);
    }

    /**
     * An allocator that sees only the slices visible from this node (its own and those naming no node), with the
     * devices in use there at this version: allocation on a node never looks at other nodes' slices, so its decisions
     * are the same, and the what-ifs of an explanation rebuild a few slices instead of the whole cluster. The claims
     * holding devices of those pools come from the version's index, not a pass over every allocated claim, and the
     * selectors compiled for the run's state are reused.
     */
    private Allocator scopedTo(Node node, ClusterState version) {
        List<ResourceSlice> visible = new java.util.ArrayList<>(slicesByNode.getOrDefault("", List.of()));
        String name = node.getMetadata() == null ? null : node.getMetadata().getName();
        if (name != null && !name.isEmpty()) {
            visible.addAll(slicesByNode.getOrDefault(name, List.of()));
        }
        ClusterState scoped = ClusterState.builder()
                .featureGates(gates)
                .deviceClasses(classes)
                .resourceSlices(visible)
                .deviceTaintRules(taintRules)
                .allocatedClaims(version.allocatedClaimsHoldingPoolsOf(visible))
                .celEnvironment(version.celEnvironment())
                .build();
        return Allocator.builder()
                .clusterState(scoped)
                .shareIds(() -> UUID.nameUUIDFromBytes(("dra4j-share-" + (shareIds++)).getBytes())
                        .toString())
                .build();
    }

    /** An explanation on a node at a stamp, for one claims' shape. */
    private record Explained(long stamp, Explanation explanation) {}

    /** The last explanation per node index and claims' shape (at most one per pair, so memory stays bounded). */
    private final Map<Long, Explained> explained = new HashMap<>();

    /**
     * The allocator's explanation for claims of this shape on the node at this stamp ({@link NodeVersions}):
     * the same for every pod of the shape, so {@code compute} runs once per node, stamp and shape in a row.
     */
    Explanation explained(int node, long stamp, int shape, java.util.function.Supplier<Explanation> compute) {
        long key = ((long) node << 32) | (shape & 0xffffffffL);
        Explained known = explained.get(key);
        if (known != null && known.stamp() == stamp) {
            return known.explanation();
        }
        Explanation e = compute.get();
        explained.put(key, new Explained(stamp, e));
        return e;
    }

    private static String key(ResourceClaim claim) {
        String ns = claim.getMetadata().getNamespace();
        return (ns == null ? "" : ns) + "/" + claim.getMetadata().getName();
    }

    /** Allocation and explanation within one cycle. */
    static final class Cycle {
        private final Allocator allocator;
        private final DraAllocation owner;
        /** The state this cycle allocates against; persistent, so later cycles never change it. */
        private final ClusterState version;

        private Cycle(Allocator allocator, DraAllocation owner, ClusterState version) {
            this.allocator = allocator;
            this.owner = owner;
            this.version = version;
        }

        AllocationOutcome allocate(Node node, List<ResourceClaim> claims) {
            return allocator.allocate(node, claims);
        }

        /** The claims' shape number for {@link #allocate(NodeInfo, List, int)}; the same claims, the same number. */
        int shape(List<ResourceClaim> claims) {
            return owner.memo.shape(claims);
        }

        /**
         * Like {@link #allocate(Node, List)} on the node, for claims of this shape: the outcome remembered for the node when the
         * pools it sees have not changed since (the allocator would decide the same), else the allocator's.
         */
        AllocationOutcome allocate(NodeInfo node, List<ResourceClaim> claims, int shape) {
            AllocationOutcome known = owner.memo.get(node, shape);
            if (known != null) {
                return known;
            }
            AllocationOutcome outcome = allocator.allocate(node.node, claims);
            owner.memo.put(node, shape, outcome);
            return outcome;
        }

        /** The allocator's explanation for these claims on this node, from the slices visible there. */
        Explanation explain(Node node, List<ResourceClaim> claims) {
            return owner.scopedTo(node, version).explain(node, claims);
        }
    }
}
