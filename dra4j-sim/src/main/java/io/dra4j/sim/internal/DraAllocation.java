package io.dra4j.sim.internal;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The simulator's only use of the allocator: one allocator per scheduling cycle over the devices in use at its
 * start, as kube-scheduler's DynamicResources PreFilter builds one. Kept in one place so that an incrementally
 * updated cluster state can replace the per-cycle rebuild without touching the scheduler.
 */
final class DraAllocation {
    private final FeatureGates gates;
    private final List<DeviceClass> classes;
    private final List<ResourceSlice> slices;
    private final List<DeviceTaintRule> taintRules;
    private long shareIds;

    DraAllocation(FeatureGates gates, List<DeviceClass> classes, List<ResourceSlice> slices,
                  List<DeviceTaintRule> taintRules) {
        this.gates = gates;
        this.classes = List.copyOf(classes);
        this.slices = List.copyOf(slices);
        this.taintRules = List.copyOf(taintRules);
    }

    /** One cycle's view: the devices of {@code allocatedClaims} are in use. */
    Cycle begin(Collection<ResourceClaim> allocatedClaims) {
        Allocator allocator = Allocator.builder()
                .featureGates(gates)
                .deviceClasses(classes)
                .resourceSlices(slices)
                .deviceTaintRules(taintRules)
                .allocatedState(AllocatedState.fromClaims(allocatedClaims, gates))
                // Share IDs are random UUIDs upstream; numbered here so that runs repeat.
                .shareIds(() -> UUID.nameUUIDFromBytes(("dra4j-share-" + (shareIds++)).getBytes()).toString())
                .build();
        return new Cycle(allocator);
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
