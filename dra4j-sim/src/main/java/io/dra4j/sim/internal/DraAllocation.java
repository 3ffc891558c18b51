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
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
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
    /** The allocated claims {@link #state} holds, by namespace/name; compared by identity (claims are immutable here). */
    private final Map<String, ResourceClaim> held = new HashMap<>();
    private long shareIds;
    /** kube-scheduler's filterTimeout per allocation; null for none. */
    private final Duration timeout;

    DraAllocation(FeatureGates gates, Duration timeout, List<DeviceClass> classes, List<ResourceSlice> slices,
                  List<DeviceTaintRule> taintRules) {
        this.timeout = timeout;
        this.state = ClusterState.builder()
                .featureGates(gates)
                .deviceClasses(classes)
                .resourceSlices(slices)
                .deviceTaintRules(taintRules)
                .build();
    }

    /** One cycle's view: the devices of {@code allocatedClaims} are in use. */
    Cycle begin(Collection<ResourceClaim> allocatedClaims) {
        Map<String, ResourceClaim> now = new HashMap<>();
        for (ResourceClaim claim : allocatedClaims) {
            now.put(key(claim), claim);
        }
        for (Iterator<Map.Entry<String, ResourceClaim>> it = held.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, ResourceClaim> e = it.next();
            if (!now.containsKey(e.getKey())) {
                state = state.withoutAllocatedClaim(e.getValue().getMetadata().getNamespace(),
                        e.getValue().getMetadata().getName());
                it.remove();
            }
        }
        for (Map.Entry<String, ResourceClaim> e : now.entrySet()) {
            if (held.get(e.getKey()) != e.getValue()) {
                state = state.withAllocatedClaim(e.getValue());
                held.put(e.getKey(), e.getValue());
            }
        }
        Allocator allocator = Allocator.builder()
                .clusterState(state)
                .timeout(timeout)
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
