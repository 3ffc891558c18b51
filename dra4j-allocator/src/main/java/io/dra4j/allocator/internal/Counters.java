package io.dra4j.allocator.internal;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shared counters of partitionable devices within one allocation call. Availability per pool is computed once per
 * version of the cluster state from the devices earlier allocations hold; this call's consumption is tracked
 * separately, and a reservation fails when any counter of the pool would go below zero, including counters the
 * device does not consume (upstream checks them all).
 */
final class Counters {
    private final ClusterView view;
    private final Map<SliceInfo.PoolId, Map<String, Map<String, BigDecimal>>> consumed = new HashMap<>();

    Counters(ClusterView view) {
        this.view = view;
    }

    boolean reserve(DeviceInfo d, Pool pool) {
        Map<String, Map<String, BigDecimal>> available = available(view, pool);
        Map<String, Map<String, BigDecimal>> used = consumed.computeIfAbsent(pool.id(), id -> new HashMap<>());
        for (DeviceInfo.CounterConsumption cc : d.consumesCounters) {
            Map<String, BigDecimal> set = used.computeIfAbsent(cc.counterSet(), k -> new HashMap<>());
            cc.counters().forEach((name, v) -> set.merge(name, v, BigDecimal::add));
        }
        for (Map.Entry<String, Map<String, BigDecimal>> set : available.entrySet()) {
            Map<String, BigDecimal> inSet = used.getOrDefault(set.getKey(), Map.of());
            for (Map.Entry<String, BigDecimal> counter : set.getValue().entrySet()) {
                if (counter.getValue().compareTo(inSet.getOrDefault(counter.getKey(), BigDecimal.ZERO)) < 0) {
                    release(d, pool);
                    return false;
                }
            }
        }
        return true;
    }

    void release(DeviceInfo d, Pool pool) {
        Map<String, Map<String, BigDecimal>> used = consumed.get(pool.id());
        for (DeviceInfo.CounterConsumption cc : d.consumesCounters) {
            Map<String, BigDecimal> set = used.get(cc.counterSet());
            cc.counters().forEach((name, v) -> set.merge(name, v.negate(), BigDecimal::add));
        }
    }

    /** What a pool's counter sets still offer after earlier allocations; cached per version, as upstream. */
    static Map<String, Map<String, BigDecimal>> available(ClusterView view, Pool pool) {
        return view.availableCounters.computeIfAbsent(pool.id(), id -> compute(view, pool));
    }

    private static Map<String, Map<String, BigDecimal>> compute(ClusterView view, Pool pool) {
        Map<String, Map<String, BigDecimal>> available = new HashMap<>();
        pool.counterSets().forEach((name, counters) -> available.put(name, new HashMap<>(counters)));
        PoolAllocations held = view.allocations(pool.id());
        if (held.isEmpty()) {
            return available;
        }
        for (List<SliceInfo> slices : List.of(pool.targeting(), pool.notTargeting())) {
            for (SliceInfo s : slices) {
                for (DeviceInfo d : s.devices()) {
                    if (!held.inUse(d.name)) {
                        continue;
                    }
                    for (DeviceInfo.CounterConsumption cc : d.consumesCounters) {
                        Map<String, BigDecimal> set = available.get(cc.counterSet());
                        if (set == null) {
                            continue;
                        }
                        cc.counters().forEach((name, v) -> set.computeIfPresent(name, (k, old) -> old.subtract(v)));
                    }
                }
            }
        }
        return available;
    }
}
