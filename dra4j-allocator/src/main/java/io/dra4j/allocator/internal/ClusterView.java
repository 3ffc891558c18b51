package io.dra4j.allocator.internal;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Everything an allocator compiles once and shares between allocations on different nodes: the slices with their
 * devices, slices grouped by node, device classes by name, the CEL environment, and the counters still available
 * per pool. Immutable apart from thread-safe caches.
 */
public final class ClusterView {
    final EngineFeatures features;
    final AllocatedState allocatedState;
    private final List<ResourceSlice> rawSlices;
    private final TaintRules taintRules;
    /** Slices are compiled on first use: an allocation on one node needs only that node's slices. */
    private final AtomicReferenceArray<SliceInfo> compiled;
    private final int[] firstDeviceIndex;
    private final Map<String, int[]> slicesOnNode;
    private final int[] slicesShared;
    /** Slices with a node name and shared counters: the stable variant considers them on every node. */
    private final int[] counterSlicesOnNodes;
    private volatile Map<SliceInfo.PoolId, int[]> slicesByPool;
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
        this.taintRules = features.deviceTaintRules() && !taintRules.isEmpty() ? new TaintRules(taintRules) : TaintRules.NONE;
        this.rawSlices = slices;
        this.compiled = new AtomicReferenceArray<>(slices.size());
        this.firstDeviceIndex = new int[slices.size()];
        Map<String, List<Integer>> onNode = new HashMap<>();
        List<Integer> shared = new ArrayList<>();
        List<Integer> counterSlices = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < slices.size(); i++) {
            ResourceSliceSpec spec = slices.get(i).getSpec();
            firstDeviceIndex[i] = next;
            next += spec == null || spec.getDevices() == null ? 0 : spec.getDevices().size();
            String nodeName = spec == null ? null : spec.getNodeName();
            if (nodeName == null || nodeName.isEmpty()) {
                shared.add(i);
            } else {
                onNode.computeIfAbsent(nodeName, k -> new ArrayList<>()).add(i);
                if (spec.getSharedCounters() != null && !spec.getSharedCounters().isEmpty()) {
                    counterSlices.add(i);
                }
            }
        }
        this.deviceCount = next;
        this.symmetry = new SymmetryClasses(allocatedState);
        Map<String, int[]> byNode = new HashMap<>();
        onNode.forEach((k, v) -> byNode.put(k, toArray(v)));
        this.slicesOnNode = byNode;
        this.slicesShared = toArray(shared);
        this.counterSlicesOnNodes = toArray(counterSlices);
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

    private static int[] toArray(List<Integer> l) {
        int[] a = new int[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    /** The compiled slice at an input position. */
    SliceInfo slice(int i) {
        SliceInfo s = compiled.get(i);
        if (s == null) {
            s = new SliceInfo(rawSlices.get(i), firstDeviceIndex[i], taintRules, allocatedState);
            if (!compiled.compareAndSet(i, null, s)) {
                s = compiled.get(i);
            }
        }
        return s;
    }

    /** Every slice of a pool, of any generation, in input order. */
    List<SliceInfo> poolSlices(SliceInfo.PoolId pool) {
        Map<SliceInfo.PoolId, int[]> index = slicesByPool;
        if (index == null) {
            Map<SliceInfo.PoolId, List<Integer>> build = new HashMap<>();
            for (int i = 0; i < rawSlices.size(); i++) {
                ResourceSliceSpec spec = rawSlices.get(i).getSpec();
                String driver = spec == null || spec.getDriver() == null ? "" : spec.getDriver();
                String name = spec == null || spec.getPool() == null || spec.getPool().getName() == null ? "" : spec.getPool().getName();
                build.computeIfAbsent(new SliceInfo.PoolId(driver, name), k -> new ArrayList<>()).add(i);
            }
            Map<SliceInfo.PoolId, int[]> done = new HashMap<>();
            build.forEach((k, v) -> done.put(k, toArray(v)));
            index = done;
            slicesByPool = index;
        }
        return slices(index.getOrDefault(pool, new int[0]));
    }

    private List<SliceInfo> slices(int[] indices) {
        List<SliceInfo> out = new ArrayList<>(indices.length);
        for (int i : indices) {
            out.add(slice(i));
        }
        return out;
    }

    int symmetryClass(DeviceInfo d) {
        int c = d.symmetryClass;
        if (c < 0) {
            c = symmetry.classOf(d);
            d.symmetryClass = c;
        }
        return c;
    }

    /**
     * The slices upstream considers for a node, in its order: its own, then those without a node name. The stable
     * variant scans every slice in input order; slices of other nodes without shared counters can never match there,
     * so only the rest is returned, still in input order.
     */
    List<SliceInfo> slicesForNode(String nodeName) {
        int[] own = nodeName == null ? new int[0] : slicesOnNode.getOrDefault(nodeName, new int[0]);
        if (!features.stable()) {
            List<SliceInfo> out = slices(own);
            out.addAll(slices(slicesShared));
            return out;
        }
        java.util.TreeSet<Integer> merged = new java.util.TreeSet<>();
        for (int[] part : new int[][]{own, slicesShared, counterSlicesOnNodes}) {
            for (int i : part) {
                merged.add(i);
            }
        }
        List<SliceInfo> out = new ArrayList<>(merged.size());
        for (int i : merged) {
            out.add(slice(i));
        }
        return out;
    }
}
