package io.dra4j.allocator.internal;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything an allocator compiles once and shares between allocations on different nodes: the slices with their
 * devices, slices grouped by node, device classes by name, the CEL environment, and the counters still available
 * per pool. Immutable apart from thread-safe caches.
 */
public final class ClusterView {
    final EngineFeatures features;
    final AllocatedState allocatedState;
    final List<SliceInfo> slices;
    final Map<String, List<SliceInfo>> slicesOnNode;
    final List<SliceInfo> slicesShared;
    final Map<String, DeviceClass> classes;
    final DeviceSelectorEnvironment cel;
    final int deviceCount;
    private final SymmetryClasses symmetry;
    final SelectorShortcuts shortcuts = new SelectorShortcuts();
    /** Counters available per pool after earlier allocations; computed lazily, as upstream, once per allocator. */
    final Map<SliceInfo.PoolId, Map<String, Map<String, BigDecimal>>> availableCounters = new ConcurrentHashMap<>();

    public ClusterView(EngineFeatures features, AllocatedState allocatedState, List<DeviceClass> classes,
                       List<ResourceSlice> slices, List<DeviceTaintRule> taintRules) {
        this.features = features;
        this.allocatedState = allocatedState;
        TaintRules rules = features.deviceTaintRules() && !taintRules.isEmpty() ? new TaintRules(taintRules) : TaintRules.NONE;
        List<SliceInfo> all = new ArrayList<>(slices.size());
        Map<String, List<SliceInfo>> onNode = new HashMap<>();
        List<SliceInfo> shared = new ArrayList<>();
        int next = 0;
        for (ResourceSlice s : slices) {
            SliceInfo info = new SliceInfo(s, next, rules);
            next += info.deviceCount();
            all.add(info);
            if (info.nodeName == null || info.nodeName.isEmpty()) {
                shared.add(info);
            } else {
                onNode.computeIfAbsent(info.nodeName, k -> new ArrayList<>()).add(info);
            }
        }
        this.deviceCount = next;
        this.symmetry = new SymmetryClasses(allocatedState);
        this.slices = Collections.unmodifiableList(all);
        this.slicesOnNode = Collections.unmodifiableMap(onNode);
        this.slicesShared = Collections.unmodifiableList(shared);
        Map<String, DeviceClass> byName = new HashMap<>();
        for (DeviceClass c : classes) {
            if (c.getMetadata() != null && c.getMetadata().getName() != null) {
                byName.put(c.getMetadata().getName(), c);
            }
        }
        this.classes = Collections.unmodifiableMap(byName);
        this.cel = DeviceSelectorEnvironment.get(new CelFeatures(
                features.consumableCapacity() || !features.stable(), features.listTypeAttributes()));
    }

    int symmetryClass(DeviceInfo d) {
        int c = d.symmetryClass;
        if (c < 0) {
            c = symmetry.classOf(d);
            d.symmetryClass = c;
        }
        return c;
    }

    /** The slices upstream considers for a node: its own, then those without a node name. */
    List<SliceInfo> slicesForNode(String nodeName) {
        if (features.stable()) {
            return slices;
        }
        List<SliceInfo> own = slicesOnNode.getOrDefault(nodeName, List.of());
        List<SliceInfo> out = new ArrayList<>(own.size() + slicesShared.size());
        out.addAll(own);
        out.addAll(slicesShared);
        return out;
    }
}
