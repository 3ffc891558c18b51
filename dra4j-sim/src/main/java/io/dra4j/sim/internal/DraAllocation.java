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
    /** The allocated claims {@link #state} holds, by namespace/name. */
    private final Map<String, ResourceClaim> held = new HashMap<>();
    private long shareIds;

    DraAllocation(FeatureGates gates, List<DeviceClass> classes, List<ResourceSlice> slices,
                  List<DeviceTaintRule> taintRules) {
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
                state = state.withoutAllocatedClaim(was.getMetadata().getNamespace(), was.getMetadata().getName());
            }
            ResourceClaim now = e.getValue();
            if (now != null && now.getStatus() != null && now.getStatus().getAllocation() != null) {
                state = state.withAllocatedClaim(now);
                held.put(e.getKey(), now);
            }
        }
        Allocator allocator = Allocator.builder()
                .clusterState(state)
                // Share IDs are random UUIDs upstream; numbered here so that runs repeat.
                .shareIds(() -> UUID.nameUUIDFromBytes(("dra4j-share-" + (shareIds++)).getBytes()).toString())
                .build();
        return new Cycle(allocator);
    }

    private static String key(ResourceClaim claim) {
        String ns = claim.getMetadata().getNamespace();
        return (ns == null ? "" : ns) + "/" + claim.getMetadata().getName();
    }

    /** Allocation and explanation within one cycle. */
    static final class Cycle {
        private final Allocator allocator;

        private Cycle(Allocator allocator) {
            this.allocator = allocator;
        }

        AllocationOutcome allocate(Node node, List<ResourceClaim> claims) {
            return allocator.allocate(node, claims);
        }

        /** The allocator's explanation for these claims on this node. */
        Explanation explain(Node node, List<ResourceClaim> claims) {
            return allocator.explain(node, claims);
        }
    }
}
