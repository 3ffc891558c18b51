package io.dra4j.scenario;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/** One decoded object of a manifest, with where it came from. */
public record ManifestObject(ManifestOrigin origin, HasMetadata object) {
    public ManifestObject {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(object, "object");
    }
}
