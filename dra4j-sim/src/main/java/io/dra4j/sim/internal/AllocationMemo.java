package io.dra4j.sim.internal;

import io.dra4j.allocator.AllocationOutcome;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The allocator's outcomes remembered per node and claim shape. The allocator is deterministic given what a node
 * sees (its own slices, the slices naming no node, the devices in use in those pools, the classes, taint rules and
 * gates, which do not change during a run) and the claims' namespaces and specs, so an outcome computed on a node
 * holds while the node's stamp ({@link NodeVersions}) is the same. Only outcomes that repeat exactly are kept:
 * allocations without share IDs (numbered per call) and "does not fit"; failures are not kept. Each node keeps its
 * last {@value #SLOTS} shapes, so memory stays bounded however many shapes a run has.
 */
final class AllocationMemo {
    static final int SLOTS = 8;

    /** A shape: the claims' namespaces and specs, in the order they are allocated together; hash computed once. */
    private record Shape(List<String> namespaces, List<ResourceClaimSpec> specs, int hash) {
        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Shape s && hash == s.hash && namespaces.equals(s.namespaces) && specs.equals(s.specs);
        }
    }

    private static final class NodeMemo {
        final int[] shapes = new int[SLOTS];
        final long[] stamps = new long[SLOTS];
        final AllocationOutcome[] outcomes = new AllocationOutcome[SLOTS];
        int used;
        int next;
    }

    private final NodeVersions versions;
    private final Map<Shape, Integer> shapes = new HashMap<>();
    /** By the node's index in the node tree. */
    private final NodeMemo[] nodes;

    AllocationMemo(NodeVersions versions, int nodeCount) {
        this.versions = versions;
        this.nodes = new NodeMemo[nodeCount];
    }

    /** The shape's number for these claims (copies of their specs are kept, the claims are not). */
    int shape(List<ResourceClaim> claims) {
        List<String> namespaces = new ArrayList<>(claims.size());
        List<ResourceClaimSpec> specs = new ArrayList<>(claims.size());
        for (ResourceClaim c : claims) {
            namespaces.add(c.getMetadata() == null ? null : c.getMetadata().getNamespace());
            specs.add(c.getSpec());
        }
        Shape probe = new Shape(namespaces, specs, 31 * namespaces.hashCode() + specs.hashCode());
        Integer id = shapes.get(probe);
        if (id == null) {
            List<ResourceClaimSpec> copies = new ArrayList<>(specs.size());
            for (ResourceClaim c : claims) {
                copies.add(new ResourceClaimBuilder(c).build().getSpec());
            }
            id = shapes.size();
            shapes.put(new Shape(new ArrayList<>(namespaces), copies, probe.hash), id);
        }
        return id;
    }

    /** The outcome remembered for this shape on this node, if still valid; null otherwise. */
    AllocationOutcome get(NodeInfo node, int shape) {
        NodeMemo m = nodes[node.index];
        if (m == null) {
            return null;
        }
        long stamp = versions.stamp(node.index);
        for (int i = 0; i < m.used; i++) {
            if (m.shapes[i] == shape) {
                return m.stamps[i] == stamp ? m.outcomes[i] : null;
            }
        }
        return null;
    }

    /** Remembers an outcome just computed for this shape on this node, when it would repeat exactly. */
    void put(NodeInfo node, int shape, AllocationOutcome outcome) {
        if (!repeatable(outcome)) {
            return;
        }
        NodeMemo m = nodes[node.index];
        if (m == null) {
            m = new NodeMemo();
            nodes[node.index] = m;
        }
        int at = -1;
        for (int i = 0; i < m.used && at < 0; i++) {
            at = m.shapes[i] == shape ? i : -1;
        }
        if (at < 0) {
            if (m.used < SLOTS) {
                at = m.used++;
            } else {
                at = m.next;
                m.next = (m.next + 1) % SLOTS;
            }
        }
        m.shapes[at] = shape;
        m.stamps[at] = versions.stamp(node.index);
        m.outcomes[at] = outcome;
    }

    /** Whether the same inputs give this outcome again, equal in every field: no failure, no share IDs. */
    static boolean repeatable(AllocationOutcome outcome) {
        if (outcome instanceof AllocationOutcome.Unschedulable) {
            return true;
        }
        if (!(outcome instanceof AllocationOutcome.Allocated a)) {
            return false;
        }
        for (AllocationResult r : a.results()) {
            if (r.getDevices() != null && r.getDevices().getResults() != null) {
                for (DeviceRequestAllocationResult d : r.getDevices().getResults()) {
                    if (d.getShareID() != null) {
                        return false;
                    }
                }
            }
        }
        return true;
    }
}
