package io.dra4j.sim.compare;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every device a request could get on its own, asked of the allocator (its class and selectors, CEL included): the
 * slices, node-local or not, are cut into probes of at most 32 devices (an allocation result's limit, which
 * allocationMode All would hit), each its own pool on its own probe node, without shared counters, taints, binding
 * conditions or node selection, so that asking for all matching devices of a probe finds every device that matches
 * (partitions of one GPU exclude each other only through counters). Single-threaded; answers are cached per class
 * and selectors.
 */
final class DeviceCandidates {
    /** One matching device, as its slice offers it. */
    record Candidate(ResourceSlice slice, Device device) {
        /** driver/pool/device, as allocation results name it. */
        String key() {
            return slice.getSpec().getDriver() + "/" + slice.getSpec().getPool().getName() + "/" + device.getName();
        }

        /** Whether the slice names one node in spec.nodeName (not a node selector, all nodes or per device). */
        boolean nodeLocal() {
            return slice.getSpec().getNodeName() != null;
        }
    }

    private final Allocator matcher;
    private final Map<String, List<Candidate>> probes = new LinkedHashMap<>();
    private final List<ResourceSlice> probeSlices = new ArrayList<>();
    private final Map<String, List<Candidate>> cache = new HashMap<>();

    DeviceCandidates(List<DeviceClass> classes, List<ResourceSlice> slices, FeatureGates gates) {
        for (ResourceSlice s : slices) {
            List<Device> devices = Inventory.list(s.getSpec().getDevices());
            for (int from = 0; from < devices.size(); from += 32) {
                String probe = "probe-" + probes.size();
                List<Device> part = devices.subList(from, Math.min(devices.size(), from + 32));
                probes.put(probe, part.stream().map(d -> new Candidate(s, d)).toList());
                probeSlices.add(new ResourceSliceBuilder()
                        .withNewMetadata()
                        .withName(probe)
                        .endMetadata()
                        .withNewSpec()
                        .withDriver(s.getSpec().getDriver())
                        .withNodeName(probe)
                        .withNewPool()
                        .withName(probe)
                        .withGeneration(1L)
                        .withResourceSliceCount(1L)
                        .endPool()
                        .withDevices(part.stream()
                                .map(d -> new DeviceBuilder(d)
                                        .withConsumesCounters(List.of())
                                        .withTaints(List.of())
                                        .withBindingConditions(List.of())
                                        .withBindingFailureConditions(List.of())
                                        .withBindsToNode(null)
                                        .withNodeName(null)
                                        .withNodeSelector(null)
                                        .withAllNodes(null)
                                        .build())
                                .toList())
                        .endSpec()
                        .build());
            }
        }
        this.matcher = Allocator.builder()
                .featureGates(gates)
                .deviceClasses(classes)
                .resourceSlices(probeSlices)
                .build();
    }

    /** The devices matching the request's class and selectors, in slice order. */
    List<Candidate> of(ExactDeviceRequest e) {
        String cacheKey = e.getDeviceClassName() + "|" + e.getSelectors();
        return cache.computeIfAbsent(cacheKey, k -> {
            ExactDeviceRequest all = new ExactDeviceRequestBuilder()
                    .withDeviceClassName(e.getDeviceClassName())
                    .withSelectors(e.getSelectors())
                    .withAllocationMode("All")
                    .withTolerations(
                            new DeviceTolerationBuilder().withOperator("Exists").build())
                    .build();
            ResourceClaim claim = new ResourceClaimBuilder()
                    .withNewMetadata()
                    .withName("probe")
                    .withNamespace("probe")
                    .withUid("probe")
                    .endMetadata()
                    .withNewSpec()
                    .withNewDevices()
                    .addNewRequest()
                    .withName("r")
                    .withExactly(all)
                    .endRequest()
                    .endDevices()
                    .endSpec()
                    .build();
            List<Candidate> out = new ArrayList<>();
            for (var probe : probes.entrySet()) {
                Node n = new NodeBuilder()
                        .withNewMetadata()
                        .withName(probe.getKey())
                        .endMetadata()
                        .build();
                if (matcher.allocate(n, List.of(claim)) instanceof AllocationOutcome.Allocated a) {
                    Map<String, Candidate> byName = new HashMap<>();
                    probe.getValue().forEach(c -> byName.put(c.device().getName(), c));
                    a.results()
                            .forEach(res -> res.getDevices().getResults().forEach(d -> {
                                Candidate c = byName.get(d.getDevice());
                                if (c != null) {
                                    out.add(c);
                                }
                            }));
                }
            }
            return out;
        });
    }
}
