package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Node;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Groups the slices relevant for a node into pools (upstream's GatherPools): only the newest generation of a pool
 * counts; a pool is complete when all of its slices of that generation exist; pools whose slices do not add up are
 * incomplete, pools with duplicate names or dangling counter references are invalid.
 */
final class PoolGatherer {
    private PoolGatherer() {}

    /** The pools in search order, and every pool a relevant slice belongs to (what the result depends on). */
    record Gathered(List<Pool> pools, List<SliceInfo.PoolId> seen) {}

    static Gathered gather(ClusterView view, Node node) throws AllocationException {
        EngineFeatures f = view.features;
        String nodeName = node.getMetadata() == null ? null : node.getMetadata().getName();

        // Phase 1: pick the slices relevant for this node, keeping only the newest generation per pool.
        Map<SliceInfo.PoolId, List<SliceInfo>> pools = new LinkedHashMap<>();
        for (SliceInfo s : view.slicesForNode(nodeName)) {
            if (!f.partitionableDevices() && (s.perDeviceNodeSelection != null || s.hasSharedCounters())) {
                continue;
            }
            if (s.usesCompatibilityGroups) {
                if (f.compatibilityGroups()) {
                    throw new AllocationException(
                            "gather pool information: slice " + s.name
                                    + " uses compatibility groups (DRADeviceCompatibilityGroups, alpha), which dra4j does not implement");
                }
                continue;
            }
            boolean relevant;
            if (f.stable() && s.hasSharedCounters()) {
                relevant = true;
            } else if ((s.nodeName != null && !s.nodeName.isEmpty()) || s.allNodes || s.nodeSelector != null) {
                try {
                    relevant = NodeSelectors.nodeMatches(node, s.nodeName, s.allNodes, s.nodeSelector);
                } catch (NodeSelectors.InvalidSelectorException e) {
                    throw new AllocationException("gather pool information: failed to perform node selection for slice "
                            + s.name + ": failed to parse node selector: " + e.getMessage());
                }
            } else if (Boolean.TRUE.equals(s.perDeviceNodeSelection)) {
                relevant = false;
                for (DeviceInfo d : s.devices()) {
                    try {
                        if (NodeSelectors.nodeMatches(
                                node,
                                d.device.getNodeName(),
                                Boolean.TRUE.equals(d.device.getAllNodes()),
                                d.device.getNodeSelector())) {
                            relevant = true;
                            break;
                        }
                    } catch (NodeSelectors.InvalidSelectorException e) {
                        throw new AllocationException(
                                "gather pool information: failed to perform node selection for device " + d.name
                                        + " in slice " + s.name + ": failed to parse node selector: " + e.getMessage());
                    }
                }
            } else {
                continue;
            }
            if (relevant) {
                addSlice(pools, s);
            }
        }

        // Phase 2: decide completeness; an incomplete view is checked against all slices of the cluster.
        List<Pool> result = new ArrayList<>();
        List<Pool> withBindingConditions = new ArrayList<>();
        for (Map.Entry<SliceInfo.PoolId, List<SliceInfo>> e : pools.entrySet()) {
            List<SliceInfo> relevant = e.getValue();
            SliceInfo first = relevant.get(0);
            Pool pool;
            if (relevant.size() == first.resourceSliceCount) {
                pool = build(e.getKey(), relevant, null, f);
            } else {
                List<SliceInfo> all = new ArrayList<>();
                boolean obsolete = false;
                for (SliceInfo s : view.poolSlices(e.getKey())) {
                    if (s.generation == first.generation) {
                        all.add(s);
                    } else if (s.generation > first.generation) {
                        obsolete = true;
                        break;
                    }
                }
                if (obsolete) {
                    continue;
                }
                if (!f.compatibilityGroups()) {
                    all.removeIf(s -> s.usesCompatibilityGroups);
                }
                if (all.size() != first.resourceSliceCount) {
                    result.add(Pool.incomplete(
                            e.getKey(),
                            "generation " + first.generation + " declares " + first.resourceSliceCount + " slice(s), "
                                    + all.size() + " exist"));
                    continue;
                }
                pool = build(e.getKey(), relevant, all, f);
            }
            if (!f.stable() && pool.hasBindingConditions()) {
                withBindingConditions.add(pool);
            } else {
                result.add(pool);
            }
        }

        // Phase 3: first-fit order is by driver and pool name; pools with binding conditions go last. The stable
        // variant upstream leaves this to Go map order; dra4j sorts there too, to stay deterministic.
        result.sort(Comparator.comparing(Pool::id));
        withBindingConditions.sort(Comparator.comparing(Pool::id));
        result.addAll(withBindingConditions);
        return new Gathered(List.copyOf(result), List.copyOf(pools.keySet()));
    }

    private static void addSlice(Map<SliceInfo.PoolId, List<SliceInfo>> pools, SliceInfo s) {
        SliceInfo.PoolId id = s.poolId();
        List<SliceInfo> existing = pools.get(id);
        if (existing == null) {
            List<SliceInfo> l = new ArrayList<>();
            l.add(s);
            pools.put(id, l);
            return;
        }
        long gen = existing.get(0).generation;
        if (s.generation < gen) {
            return;
        }
        if (s.generation > gen) {
            existing.clear();
        }
        existing.add(s);
    }

    private static Pool build(
            SliceInfo.PoolId id, List<SliceInfo> relevant, List<SliceInfo> allOfGeneration, EngineFeatures f) {
        List<SliceInfo> sorted = new ArrayList<>(relevant);
        if (!f.stable()) {
            sorted.sort(Comparator.comparing(s -> s.name));
        }
        List<SliceInfo> deviceSlices = new ArrayList<>();
        List<SliceInfo> counterSlices = new ArrayList<>();
        for (SliceInfo s : sorted) {
            if (f.partitionableDevices() && s.hasSharedCounters()) {
                counterSlices.add(s);
            } else {
                deviceSlices.add(s);
            }
        }
        List<SliceInfo> notTargeting = new ArrayList<>();
        if (allOfGeneration != null && sorted.size() < allOfGeneration.size()) {
            Set<String> names = new HashSet<>();
            for (SliceInfo s : sorted) {
                names.add(s.name);
            }
            for (SliceInfo s : allOfGeneration) {
                if (names.contains(s.name)) {
                    continue;
                }
                if (f.partitionableDevices() && s.hasSharedCounters() && !f.stable()) {
                    counterSlices.add(s);
                } else {
                    notTargeting.add(s);
                }
            }
        }

        // Validation, in upstream's order; the first failure makes the whole pool invalid.
        Set<String> deviceNames = new HashSet<>();
        for (SliceInfo s : deviceSlices) {
            for (DeviceInfo d : s.devices()) {
                if (!deviceNames.add(d.name)) {
                    return Pool.invalid(id, "duplicate device name " + d.name);
                }
            }
        }
        if (!f.partitionableDevices()) {
            return new Pool(id, false, null, null, List.copyOf(deviceSlices), List.of(), Map.of(), Map.of());
        }
        Map<String, Map<String, BigDecimal>> counterSets = new LinkedHashMap<>();
        Map<String, Map<String, KubeQuantity.Format>> counterFormats = new LinkedHashMap<>();
        for (SliceInfo s : counterSlices) {
            for (SliceInfo.CounterSetInfo cs : s.sharedCounters) {
                if (counterSets.containsKey(cs.name())) {
                    return Pool.invalid(id, "duplicate counter set name " + cs.name());
                }
                counterSets.put(cs.name(), cs.counters());
                counterFormats.put(cs.name(), cs.formats());
            }
        }
        String dangling = danglingCounterReference(counterSets, deviceSlices);
        if (dangling == null) {
            dangling = danglingCounterReference(counterSets, notTargeting);
        }
        if (dangling != null) {
            return Pool.invalid(id, dangling);
        }
        return new Pool(
                id,
                false,
                null,
                null,
                List.copyOf(deviceSlices),
                List.copyOf(notTargeting),
                counterSets,
                counterFormats);
    }

    private static String danglingCounterReference(
            Map<String, Map<String, BigDecimal>> counterSets, List<SliceInfo> slices) {
        for (SliceInfo s : slices) {
            for (DeviceInfo d : s.devices()) {
                for (DeviceInfo.CounterConsumption c : d.consumesCounters) {
                    Map<String, BigDecimal> set = counterSets.get(c.counterSet());
                    if (set == null) {
                        return "counter set " + c.counterSet() + " not found";
                    }
                    for (String counter : c.counters().keySet()) {
                        if (!set.containsKey(counter)) {
                            return "counter " + counter + " not found in counter set " + c.counterSet();
                        }
                    }
                }
            }
        }
        return null;
    }
}
