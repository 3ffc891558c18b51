package io.dra4j.allocator.properties;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * How the tries of one property run fell into categories (the kinds of outcome, the features an allocation used),
 * printed after the run so that a generator that stopped producing some kind of scenario shows. Statistics only:
 * nothing here decides whether a property holds.
 */
final class Tallies {
    private final Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();

    /** Counts one try under {@code label} as {@code value}. */
    void collect(String label, Object value) {
        counts.computeIfAbsent(label, l -> new TreeMap<>()).merge(String.valueOf(value), 1, Integer::sum);
    }

    boolean isEmpty() {
        return counts.isEmpty();
    }

    /** One line per label: each value with its share of the tries that collected under that label. */
    String format() {
        return counts.entrySet().stream()
                .map(e -> {
                    int total = e.getValue().values().stream()
                            .mapToInt(Integer::intValue)
                            .sum();
                    return "  " + e.getKey() + ": "
                            + e.getValue().entrySet().stream()
                                    .sorted(Map.Entry.<String, Integer>comparingByValue()
                                            .reversed())
                                    .map(v -> String.format("%s %.1f %%", v.getKey(), 100.0 * v.getValue() / total))
                                    .collect(Collectors.joining(", "));
                })
                .collect(Collectors.joining("\n"));
    }
}
