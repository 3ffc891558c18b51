package io.dra4j.scenario;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.List;
import java.util.Objects;

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

    private ApiValidator() {
    }

    /**
     * Applies the v1 defaults to {@code object} (it is modified, as the API server's decoder modifies what it reads)
     * and returns the validation errors, empty when the object would be accepted.
     */
    public static List<FieldError> defaultAndValidate(HasMetadata object) {
        return ApiValidation.errors(Objects.requireNonNull(object, "object")).stream()
                .map(e -> new FieldError(e.field(), e.body())).toList();
    }
}
