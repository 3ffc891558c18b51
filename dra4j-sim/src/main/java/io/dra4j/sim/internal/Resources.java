package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.TreeMap;

/** A mutable vector of resource amounts by resource name, in {@link Quantities}' units. */
final class Resources {
    private final Map<String, Long> amounts = new TreeMap<>();

    static Resources of(Map<String, Quantity> list) {
        Resources r = new Resources();
        if (list != null) {
            list.forEach((name, q) -> r.amounts.merge(name, Quantities.value(name, q), Long::sum));
        }
        return r;
    }

    long get(String name) {
        return amounts.getOrDefault(name, 0L);
    }

    void set(String name, long value) {
        amounts.put(name, value);
    }

    Map<String, Long> asMap() {
        return amounts;
    }

    void add(Resources other) {
        other.amounts.forEach((k, v) -> amounts.merge(k, v, Long::sum));
    }

    void subtract(Resources other) {
        other.amounts.forEach((k, v) -> amounts.merge(k, -v, Long::sum));
    }

    /** Per resource the larger of the two. */
    void max(Resources other) {
        other.amounts.forEach((k, v) -> amounts.merge(k, v, Math::max));
    }

    Resources copy() {
        Resources r = new Resources();
        r.amounts.putAll(amounts);
        return r;
    }
}
