package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The devices of one pool that earlier allocations hold, by device name: who holds each exclusively, how many shares
 * each has, and the capacity its shares consume. Immutable; an update copies only this pool's entries.
 */
final class PoolAllocations {
    static final PoolAllocations EMPTY = new PoolAllocations(Map.of(), Map.of(), Map.of());

    /** Device name to the owners holding it exclusively (an owner may be null when unknown). */
    private final Map<String, List<String>> exclusive;

    private final Map<String, Integer> shares;
    private final Map<String, Capacity> capacity;

    /** Capacity consumed on one device: the number of holdings and their sum, exact and as quantities. */
    record Capacity(int holdings, Map<String, KubeQuantity> sum, Map<String, BigDecimal> values) {}

    private PoolAllocations(
            Map<String, List<String>> exclusive, Map<String, Integer> shares, Map<String, Capacity> capacity) {
        this.exclusive = exclusive;
        this.shares = shares;
        this.capacity = capacity;
    }

    boolean isEmpty() {
        return exclusive.isEmpty() && shares.isEmpty() && capacity.isEmpty();
    }

    boolean exclusive(String device) {
        return exclusive.containsKey(device);
    }

    /** The first known owner of an exclusively held device, or null. */
    String owner(String device) {
        List<String> owners = exclusive.get(device);
        if (owners == null) {
            return null;
        }
        for (String o : owners) {
            if (o != null) {
                return o;
            }
        }
        return null;
    }

    boolean shared(String device) {
        return shares.containsKey(device);
    }

    /** What shares of the device consume, or null when none is recorded. */
    Map<String, BigDecimal> capacity(String device) {
        Capacity c = capacity.get(device);
        return c == null ? null : c.values;
    }

    Map<String, KubeQuantity> capacityQuantities(String device) {
        Capacity c = capacity.get(device);
        return c == null ? null : c.sum;
    }

    boolean inUse(String device) {
        return exclusive.containsKey(device) || shares.containsKey(device) || capacity.containsKey(device);
    }

    void forEachExclusive(java.util.function.BiConsumer<String, String> action) {
        exclusive.forEach((d, owners) -> action.accept(d, owner(d)));
    }

    void forEachShared(java.util.function.Consumer<String> action) {
        shares.keySet().forEach(action);
    }

    void forEachCapacity(java.util.function.BiConsumer<String, Map<String, KubeQuantity>> action) {
        capacity.forEach((d, c) -> action.accept(d, c.sum));
    }

    /** This pool's allocations with the holdings added (sign +1) or taken away again (sign -1). */
    PoolAllocations apply(List<Holding> holdings, int sign) {
        Map<String, List<String>> ex = exclusive;
        Map<String, Integer> sh = shares;
        Map<String, Capacity> cap = capacity;
        for (Holding h : holdings) {
            String name = h.device().device();
            switch (h.kind()) {
                case EXCLUSIVE -> {
                    ex = ex == exclusive ? new HashMap<>(exclusive) : ex;
                    List<String> owners = new ArrayList<>(ex.getOrDefault(name, List.of()));
                    if (sign > 0) {
                        owners.add(h.owner());
                    } else {
                        owners.remove(h.owner());
                    }
                    if (owners.isEmpty()) {
                        ex.remove(name);
                    } else {
                        ex.put(name, Collections.unmodifiableList(owners));
                    }
                }
                case SHARE -> {
                    sh = sh == shares ? new HashMap<>(shares) : sh;
                    int n = sh.getOrDefault(name, 0) + sign;
                    if (n <= 0) {
                        sh.remove(name);
                    } else {
                        sh.put(name, n);
                    }
                }
                case CAPACITY -> {
                    cap = cap == capacity ? new HashMap<>(capacity) : cap;
                    Capacity old = cap.get(name);
                    int n = (old == null ? 0 : old.holdings) + sign;
                    if (n <= 0) {
                        cap.remove(name);
                        continue;
                    }
                    Map<String, KubeQuantity> sum = new LinkedHashMap<>(old == null ? Map.of() : old.sum);
                    h.consumed().forEach((k, q) -> sum.merge(k, q, sign > 0 ? KubeQuantity::add : KubeQuantity::sub));
                    Map<String, BigDecimal> values = new LinkedHashMap<>();
                    sum.forEach((k, q) -> values.put(k, q.value()));
                    cap.put(
                            name,
                            new Capacity(n, Collections.unmodifiableMap(sum), Collections.unmodifiableMap(values)));
                }
            }
        }
        return new PoolAllocations(ex, sh, cap);
    }
}
