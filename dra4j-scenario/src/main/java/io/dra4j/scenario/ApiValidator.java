package io.dra4j.scenario;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * kube-apiserver 1.37's defaults and validation of {@code resource.k8s.io/v1} objects at creation, as
 * {@link ManifestReader} and {@link ScenarioReader} apply them: an object this rejects is one the API server would
 * reject, with its field path and message. See {@code oracle/validate} for how that is checked against the API
 * server's own code.
 */
public final class ApiValidator {
    /** One field error as the API server reports it: {@code spec.devices.requests[0].exactly.count} and its message. */
    public record FieldError(String field, String message) {
        public FieldError {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(message, "message");
        }
    }

    private ApiValidator() {}

    /**
     * Applies the v1 defaults to {@code object} (it is modified, as the API server's decoder modifies what it reads)
     * and returns the validation errors, empty when the object would be accepted.
     */
    public static List<FieldError> defaultAndValidate(HasMetadata object) {
        return defaultAndValidate(object, FeatureGates.defaults(KubernetesVersion.V1_37));
    }

    /**
     * Like {@link #defaultAndValidate(HasMetadata)}, as an API server with {@code gates} does it: the fields of
     * disabled features are dropped from {@code object} first, as the API server's strategies drop them.
     */
    public static List<FieldError> defaultAndValidate(HasMetadata object, FeatureGates gates) {
        return errors(object, null, gates);
    }

    /**
     * Like {@link #defaultAndValidate(HasMetadata, FeatureGates)}, for an object decoded from {@code json}, its text
     * as written: the fabric8 model reads an explicitly empty list ({@code bindingConditions: []}) as an absent one,
     * which the API server tells apart in some checks and messages.
     *
     * @throws IllegalArgumentException when {@code json} is not JSON
     */
    public static List<FieldError> defaultAndValidate(HasMetadata object, String json, FeatureGates gates) {
        JsonNode raw;
        try {
            raw = Mappers.READER.readTree(Objects.requireNonNull(json, "json"));
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
        return errors(object, raw, gates);
    }

    private static List<FieldError> errors(HasMetadata object, JsonNode raw, FeatureGates gates) {
        return ApiValidation.errors(
                        Objects.requireNonNull(object, "object"), raw, Objects.requireNonNull(gates, "gates"))
                .stream()
                .map(e -> new FieldError(e.field(), e.body()))
                .toList();
    }
}
