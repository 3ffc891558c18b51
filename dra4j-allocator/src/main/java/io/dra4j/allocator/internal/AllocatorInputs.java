package io.dra4j.allocator.internal;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;

/** Everything one allocation reads, so that a what-if copy with one change can be allocated again. */
public record AllocatorInputs(
        FeatureGates gates,
        AllocatedState state,
        List<DeviceClass> classes,
        List<ResourceSlice> slices,
        List<DeviceTaintRule> taintRules,
        Node node,
        List<ResourceClaim> claims) {}
