package io.dra4j.scenario;

import java.util.Objects;

/** An object of a kind the reader does not use (a Service, a ConfigMap, ...): listed, not an error. */
public record SkippedObject(ManifestOrigin origin, String apiVersion, String kind, String name) {
    public SkippedObject {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }
}
