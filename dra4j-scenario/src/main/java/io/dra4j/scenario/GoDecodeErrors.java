package io.dra4j.scenario;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * encoding/json's UnmarshalTypeError as kube-apiserver's strict decoder (sigs.k8s.io/json) words it, for a value of
 * the wrong JSON type: {@code json: cannot unmarshal object into Go struct field DeviceClaim.spec.devices.requests of
 * type []v1.DeviceRequest}. The struct is the Go type holding the innermost field (fabric8's model classes carry the
 * Go names), the field its JSON path without list indices and map keys, the type the Go type at the failing value (a
 * list's or map's element type when an element fails), from {@code go-field-types.tsv} (scripts/go-field-types,
 * generated from the API types' sources).
 */
final class GoDecodeErrors {
    /** (struct, JSON field) to Go type, as reflect prints it. */
    private static final Map<String, String> FIELD_TYPES = load();

    private GoDecodeErrors() {}

    private static Map<String, String> load() {
        try (InputStream in = GoDecodeErrors.class.getResourceAsStream("go-field-types.tsv")) {
            if (in == null) {
                throw new IllegalStateException("missing resource io/dra4j/scenario/go-field-types.tsv");
            }
            Map<String, String> out = new HashMap<>();
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (String line : lines) {
                String[] cells = line.split("\t");
                if (!line.startsWith("#") && cells.length == 3 && !cells[0].equals("struct")) {
                    out.put(cells[0] + "." + cells[1], cells[2]);
                }
            }
            return Map.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The decode error for {@code found} at the path of {@code refs}; empty where the path leaves the generated types
     * and the target is not a scalar either.
     *
     * @param scalarTarget the Java type Jackson wanted, whose Go scalar type stands in outside the generated types
     */
    static Optional<String> unmarshalTypeError(
            List<JacksonException.Reference> refs, JsonNode found, Class<?> scalarTarget) {
        List<String> fields = new ArrayList<>();
        String struct = null;
        Optional<String> type = Optional.empty();
        for (JacksonException.Reference r : refs) {
            Object from = r.from();
            if (from instanceof Map<?, ?>) {
                // A map's value: the map field's value type.
                type = type.map(GoDecodeErrors::mapValue);
            } else if (r.getPropertyName() != null) {
                struct = (from instanceof Class<?> c ? c : from.getClass()).getSimpleName();
                fields.add(r.getPropertyName());
                type = Optional.ofNullable(FIELD_TYPES.get(struct + "." + r.getPropertyName()));
            } else {
                // A list's element.
                type = type.map(t -> t.startsWith("[]") ? t.substring(2) : null);
            }
        }
        Optional<String> goType =
                type.map(t -> t.startsWith("*") ? t.substring(1) : t).or(() -> goScalar(scalarTarget));
        if (struct == null || goType.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("json: cannot unmarshal " + kind(found, goType.get()) + " into Go struct field " + struct
                + "." + String.join(".", fields) + " of type " + goType.get());
    }

    /** How encoding/json names the JSON value: its kind, and a number's literal where an integer was wanted. */
    private static String kind(JsonNode found, String goType) {
        if (found.isNumber()) {
            return goType.startsWith("int") || goType.startsWith("uint") ? "number " + found.numberValue() : "number";
        }
        if (found.isString()) {
            return "string";
        }
        if (found.isBoolean()) {
            return "bool";
        }
        return found.isArray() ? "array" : "object";
    }

    /** V of {@code map[K]V}, K possibly holding brackets of its own; null for a type that is not a map. */
    private static String mapValue(String type) {
        if (type == null || !type.startsWith("map[")) {
            return null;
        }
        int depth = 0;
        for (int i = 3; i < type.length(); i++) {
            char c = type.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                return type.substring(i + 1);
            }
        }
        return null;
    }

    /** The Go type of a fabric8 model field's scalar Java type, as the API types declare it. */
    private static Optional<String> goScalar(Class<?> type) {
        if (type == Long.class || type == long.class) {
            return Optional.of("int64");
        }
        if (type == Integer.class || type == int.class) {
            return Optional.of("int32");
        }
        if (type == String.class) {
            return Optional.of("string");
        }
        if (type == Boolean.class || type == boolean.class) {
            return Optional.of("bool");
        }
        return Optional.empty();
    }
}
