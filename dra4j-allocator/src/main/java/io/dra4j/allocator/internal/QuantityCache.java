package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The quantities of the slices of one lineage of cluster states, parsed once per text: the devices of a cluster
 * repeat a handful of capacity and counter values ("80Gi", "1"), and a quantity depends only on its text. Parse
 * errors are not kept, so they are raised again with the place that has them. Thread-safe.
 */
final class QuantityCache {
    /** Texts kept at most; further ones are parsed every time. */
    private static final int MAX_ENTRIES = 4096;

    private final Map<String, KubeQuantity> parsed = new ConcurrentHashMap<>();

    /** The quantity, as {@link KubeQuantity#fromFabric8}; errors name the place {@code where} supplies. */
    KubeQuantity parse(Quantity q, Supplier<String> where) {
        if (q == null) {
            throw new IllegalArgumentException(where.get() + ": value: Required value");
        }
        String amount = q.getAmount() == null ? "" : q.getAmount();
        String text = q.getFormat() == null || q.getFormat().isEmpty() ? amount : amount + q.getFormat();
        KubeQuantity k = parsed.get(text);
        if (k == null) {
            try {
                k = KubeQuantity.parse(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where.get() + ": " + e.getMessage(), e);
            }
            if (parsed.size() < MAX_ENTRIES) {
                parsed.putIfAbsent(text, k);
            }
        }
        return k;
    }
}
