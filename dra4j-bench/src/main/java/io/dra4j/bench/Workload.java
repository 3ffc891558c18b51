package io.dra4j.bench;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.ClusterState;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One benchmark workload: a complete allocation problem (the cluster's classes and slices, the devices already in use,
 * one pod's claims, the node the allocation is timed on) plus every node of the cluster for a full Filter pass. The
 * same object is run by dra4j directly and written as a scenario file for the upstream allocator.
 *
 * @param name     workload id, also the scenario name
 * @param notes    what the workload is modelled on
 * @param features the DRA feature gates that are on; every other gate is off
 * @param node     the representative node one Allocate call is timed on
 * @param nodes    every node of the cluster, in name order, for a Filter pass over all of them
 */
public record Workload(
        String name,
        String notes,
        List<DraFeature> features,
        List<DeviceClass> classes,
        List<ResourceSlice> slices,
        List<AllocatedDevice> allocated,
        List<ResourceClaim> claims,
        Node node,
        List<Node> nodes) {

    public Workload {
        features = List.copyOf(features);
        classes = List.copyOf(classes);
        slices = List.copyOf(slices);
        allocated = List.copyOf(allocated);
        claims = List.copyOf(claims);
        nodes = List.copyOf(nodes);
    }

    public FeatureGates featureGates() {
        return FeatureGates.of(features);
    }

    /** The devices in use, as the scheduler derives them before allocating (built once, outside the timed code). */
    public AllocatedState allocatedState() {
        AllocatedState.Builder b = AllocatedState.builder(featureGates());
        for (AllocatedDevice d : allocated) {
            DeviceId id = new DeviceId(d.driver(), d.pool(), d.device());
            if (d.shared()) {
                Map<String, KubeQuantity> consumed = new LinkedHashMap<>();
                d.consumedCapacity().forEach((k, v) -> consumed.put(k, KubeQuantity.fromFabric8(v)));
                b.addShared(id, null, consumed);
            } else {
                b.addExclusive(id);
            }
        }
        return b.build();
    }

    /** The same workload with other feature gates on. */
    public Workload withFeatures(List<DraFeature> on) {
        return new Workload(name, notes, on, classes, slices, allocated, claims, node, nodes);
    }

    /** The same workload on fresh copies of every slice (new device objects, as after every slice changed). */
    public Workload withFreshSlices() {
        List<ResourceSlice> copies = new ArrayList<>(slices.size());
        for (ResourceSlice s : slices) {
            copies.add(new ResourceSliceBuilder(s).build());
        }
        return new Workload(name, notes, features, classes, copies, allocated, claims, node, nodes);
    }

    /**
     * The cluster state a scheduler's snapshot holds for this workload: classes, every slice, the devices in use,
     * the gates, and the given compiled CEL expressions (kept across states, as kube-scheduler keeps its CEL cache).
     */
    public ClusterState clusterState(DeviceSelectorEnvironment cel) {
        return ClusterState.builder()
                .featureGates(featureGates())
                .celEnvironment(cel)
                .deviceClasses(classes)
                .resourceSlices(slices)
                .allocatedState(allocatedState())
                .build();
    }

    /** The compiled-expression environment matching this workload's gates. */
    public DeviceSelectorEnvironment celEnvironment() {
        return DeviceSelectorEnvironment.create(new CelFeatures(
                features.contains(DraFeature.DRAConsumableCapacity),
                features.contains(DraFeature.DRAListTypeAttributes)));
    }

    /** An allocator builder holding this workload's cluster state, ready for {@code build()}. */
    public Allocator.Builder allocatorBuilder(AllocatedState state) {
        return Allocator.builder()
                .featureGates(featureGates())
                .allocatedState(state)
                .deviceClasses(classes)
                .resourceSlices(slices);
    }
}
