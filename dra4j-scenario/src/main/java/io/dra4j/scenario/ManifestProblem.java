package io.dra4j.scenario;

import java.util.Objects;

/**
 * An object (or a whole document or file) that could not be read: where it came from, what it is as far as the
 * input tells ({@code Pod team-a/train-0}, or empty), the field inside it (empty for the object as a whole), and
 * what is wrong. Other objects are still read.
 */
public record ManifestProblem(ManifestOrigin origin, String object, String field, String message) {
    public ManifestProblem {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(message, "message");
    }

    /** {@code pods.yaml: document 2: Pod team-a/train-0: spec.containers[0].resources.requests.cpu: quantity ...}. */
    public String describe() {
        StringBuilder b = new StringBuilder(origin.toString());
        if (!object.isEmpty()) {
            b.append(" (").append(object).append(')');
        }
        if (!field.isEmpty()) {
            b.append(": ").append(field);
        }
        return b.append(": ").append(message).toString();
    }
}
