package io.dra4j.scenario;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;

/**
 * The ResourceSlice strategy's dropDisabledFields on create (k8s.io/kubernetes v1.37.2
 * pkg/registry/resource/resourceslice/strategy.go): the fields of a disabled feature are cleared before the slice is
 * validated, so that the API server neither rejects nor stores them. Lists and maps become empty (the fabric8 model's
 * absent value), other fields null.
 */
final class SliceFieldDrops {
    private SliceFieldDrops() {}

    /** Drops from {@code spec} what {@code gates} disable. */
    static void apply(ResourceSliceSpec spec, FeatureGates gates) {
        boolean taints = gates.isEnabled(DraFeature.DRADeviceTaints);
        boolean partitionable = gates.isEnabled(DraFeature.DRAPartitionableDevices);
        boolean binding = bindingConditionsEnabled(gates);
        boolean consumable = gates.isEnabled(DraFeature.DRAConsumableCapacity);
        boolean compatibilityGroups = gates.isEnabled(DraFeature.DRADeviceCompatibilityGroups);
        boolean nodeAllocatable = gates.isEnabled(DraFeature.DRANodeAllocatableResources);
        boolean listAttributes = gates.isEnabled(DraFeature.DRAListTypeAttributes);
        if (!partitionable) {
            spec.setSharedCounters(new ArrayList<>());
            spec.setPerDeviceNodeSelection(null);
        }
        if (!gates.isEnabled(DraFeature.DRAOptionalNodeOperations)) {
            spec.setSkipNodeOperations(new ArrayList<>());
        }
        // DRAPartitionableDevicesType (alpha, off by default) is not among the gates dra4j sets: always off.
        spec.setPartitionTypeAttribute(null);
        if (spec.getDevices() == null) {
            return;
        }
        for (Device d : spec.getDevices()) {
            if (d == null) {
                continue;
            }
            if (!taints) {
                d.setTaints(new ArrayList<>());
            }
            if (!partitionable) {
                d.setConsumesCounters(new ArrayList<>());
                d.setNodeName(null);
                d.setNodeSelector(null);
                d.setAllNodes(null);
            }
            if (!binding) {
                d.setBindingConditions(new ArrayList<>());
                d.setBindingFailureConditions(new ArrayList<>());
                d.setBindsToNode(null);
            }
            if (!consumable) {
                d.setAllowMultipleAllocations(null);
                if (d.getCapacity() != null) {
                    for (DeviceCapacity c : d.getCapacity().values()) {
                        if (c != null) {
                            c.setRequestPolicy(null);
                        }
                    }
                }
            }
            if (!compatibilityGroups && d.getConsumesCounters() != null) {
                for (DeviceCounterConsumption c : d.getConsumesCounters()) {
                    if (c != null) {
                        c.setCompatibilityGroups(new ArrayList<>());
                    }
                }
            }
            if (!nodeAllocatable) {
                d.setNodeAllocatableResources(new LinkedHashMap<>());
            }
            if (!listAttributes && d.getAttributes() != null) {
                for (DeviceAttribute a : d.getAttributes().values()) {
                    if (a != null) {
                        a.setBools(new ArrayList<>());
                        a.setInts(new ArrayList<>());
                        a.setStrings(new ArrayList<>());
                        a.setVersions(new ArrayList<>());
                    }
                }
            }
        }
    }

    /** Binding conditions are kept only with both of their gates, as dropDisabledDRADeviceBindingConditionsFields. */
    static boolean bindingConditionsEnabled(FeatureGates gates) {
        return gates.isEnabled(DraFeature.DRADeviceBindingConditions)
                && gates.isEnabled(DraFeature.DRAResourceClaimDeviceStatus);
    }
}
