package io.dra4j.allocator.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What earlier allocations hold of a node view's candidates, per candidate position: held exclusively, holding
 * shares, capacity consumed by shares. Computed from the pools' {@link PoolAllocations}, which are immutable and
 * replaced exactly for the pools an allocate or deallocate touches, so the result stays valid while each pool's
 * allocations are the same object ({@link #validFor}). Immutable once built; the arrays are never written after
 * {@link #of}, so every search on the view may read them concurrently.
 */
final class HeldDevices {
    /** Nothing held, for a version without any allocation. */
    static final HeldDevices NONE = new HeldDevices(new SliceInfo.PoolId[0], new PoolAllocations[0], null, null, null);

    /** The candidates' pools in the order their runs appear, and the allocations each was computed from. */
    private final SliceInfo.PoolId[] pools;

    private final PoolAllocations[] basis;
    /** Null when no candidate is held (the common case on an empty node). */
    private final boolean[] exclusive;

    private final boolean[] share;
    private final Map<String, BigDecimal>[] capacity;

    private HeldDevices(
            SliceInfo.PoolId[] pools,
            PoolAllocations[] basis,
            boolean[] exclusive,
            boolean[] share,
            Map<String, BigDecimal>[] capacity) {
        this.pools = pools;
        this.basis = basis;
        this.exclusive = exclusive;
        this.share = share;
        this.capacity = capacity;
    }

    /** Resolves every candidate against the version's allocations, once per pool run. */
    @SuppressWarnings("unchecked")
    static HeldDevices of(ClusterView view, DeviceInfo[] candidates, Pool[] candidatePools) {
        List<SliceInfo.PoolId> pools = new ArrayList<>();
        List<PoolAllocations> basis = new ArrayList<>();
        boolean[] exclusive = null;
        boolean[] share = null;
        Map<String, BigDecimal>[] capacity = null;
        PoolAllocations held = null;
        Pool heldFor = null;
        for (int pos = 0; pos < candidates.length; pos++) {
            if (candidatePools[pos] != heldFor) {
                heldFor = candidatePools[pos];
                held = view.allocations(heldFor.id());
                pools.add(heldFor.id());
                basis.add(held);
            }
            if (held.isEmpty()) {
                continue;
            }
            if (exclusive == null) {
                exclusive = new boolean[candidates.length];
                share = new boolean[candidates.length];
                capacity = new Map[candidates.length];
            }
            String name = candidates[pos].name;
            exclusive[pos] = held.exclusive(name);
            share[pos] = held.shared(name);
            capacity[pos] = held.capacity(name);
        }
        return new HeldDevices(
                pools.toArray(new SliceInfo.PoolId[0]),
                basis.toArray(new PoolAllocations[0]),
                exclusive,
                share,
                capacity);
    }

    /** Whether the version holds exactly what this was computed from, for every pool of the candidates. */
    boolean validFor(ClusterView view) {
        for (int i = 0; i < pools.length; i++) {
            if (view.allocations(pools[i]) != basis[i]) {
                return false;
            }
        }
        return true;
    }

    boolean exclusive(int pos) {
        return exclusive != null && exclusive[pos];
    }

    boolean share(int pos) {
        return share != null && share[pos];
    }

    /** What shares of the device at pos consume, or null. */
    Map<String, BigDecimal> capacity(int pos) {
        return capacity == null ? null : capacity[pos];
    }
}
