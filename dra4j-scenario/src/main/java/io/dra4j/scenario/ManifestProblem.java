package io.dra4j.scenario;

import java.util.Objects;

/**
 * An object (or a whole document or file) that could not be read: where it came from, where in the file the field is
 * ({@code line 13, column 16}, or empty), what it is as far as the input tells ({@code Pod team-a/train-0}, or empty),
 * the field inside it (empty for the object as a whole), and what is wrong. Other objects are still read.
 */
public record ManifestProblem(ManifestOrigin origin, String position, String object, String field, String message) {
    public ManifestProblem {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(position, "position");
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(message, "message");
    }

    /** A problem whose place in the file is not known beyond its origin. */
    public ManifestProblem(ManifestOrigin origin, String object, String field, String message) {
        this(origin, "", object, field, message);
    }

    /**
     * {@code pods.yaml: document 2, line 14, column 18 (Pod team-a/train-0): spec.containers[0].resources.requests
     * .cpu: quantity ...}.
     */
    public String describe() {
        StringBuilder b = new StringBuilder(origin.toString());
        if (!position.isEmpty()) {
            b.append(", ").append(position);
        }
        if (!object.isEmpty()) {
            b.append(" (").append(object).append(')');
        }
        if (!field.isEmpty()) {
            b.append(": ").append(field);
        }
        return b.append(": ").append(message).toString();
    }
}
