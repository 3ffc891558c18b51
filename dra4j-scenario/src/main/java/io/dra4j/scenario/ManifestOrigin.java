package io.dra4j.scenario;

import java.util.Objects;

/**
 * Where an object of a manifest came from: the source ({@code <stdin>} for {@code -}), the YAML or JSON document
 * in it (counted from 1, as people count; 0 for the source as a whole) and, for an object inside a {@code kind: List},
 * its index in {@code items} ({@code -1} otherwise).
 */
public record ManifestOrigin(String source, int document, int item) {
    public ManifestOrigin {
        Objects.requireNonNull(source, "source");
    }

    /** {@code nodes.yaml: document 2: items[3]}. */
    @Override
    public String toString() {
        if (document == 0) {
            return source;
        }
        return source + ": document " + document + (item < 0 ? "" : ": items[" + item + "]");
    }
}
