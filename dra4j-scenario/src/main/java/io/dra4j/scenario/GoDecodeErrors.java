package io.dra4j.scenario;

import io.dra4j.cel.KubeQuantity;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    /**
     * A JSON field's Go type, as reflect prints it, and the Go names of the embedded structs it is promoted through
     * (encoding/json's field path names them: {@code spec.config.DeviceConfiguration.opaque}), each followed by a dot.
     */
    private record GoField(String type, String embedded) {}

    /** (struct, JSON field) to its Go field. */
    private static final Map<String, GoField> FIELD_TYPES = load();

    /** The structs of {@link #FIELD_TYPES}. */
    private static final Set<String> STRUCTS = FIELD_TYPES.keySet().stream()
            .map(k -> k.substring(0, k.indexOf('.')))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static final String QUANTITY = "resource.Quantity";

    private GoDecodeErrors() {}

    private static Map<String, GoField> load() {
        try (InputStream in = GoDecodeErrors.class.getResourceAsStream("go-field-types.tsv")) {
            if (in == null) {
                throw new IllegalStateException("missing resource io/dra4j/scenario/go-field-types.tsv");
            }
            Map<String, GoField> out = new HashMap<>();
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (String line : lines) {
                String[] cells = line.split("\t", -1);
                if (!line.startsWith("#") && cells.length == 4 && !cells[0].equals("struct")) {
                    out.put(cells[0] + "." + cells[1], new GoField(cells[2], cells[3].isEmpty() ? "" : cells[3] + "."));
                }
            }
            return Map.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The first unparsable quantity of {@code root} (a {@code struct}) in document order, as Go's decoder meets it:
     * resource.Quantity's UnmarshalJSON parses the value's text (a string's content, any other value's JSON) and its
     * error ends decoding, while a value of the wrong JSON type is skipped (its UnmarshalTypeError is only kept), so
     * this error wins over a type error before or after it. Empty when every quantity parses.
     */
    static Optional<BadInput> firstQuantityError(JsonNode root, String struct) {
        return quantityError(root, "v1." + struct, "");
    }

    private static Optional<BadInput> quantityError(JsonNode node, String goType, String path) {
        String type = goType.startsWith("*") ? goType.substring(1) : goType;
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (type.equals(QUANTITY)) {
            String text = node.isString() ? node.stringValue().strip() : Json.compact(node);
            try {
                KubeQuantity.parse(text);
                return Optional.empty();
            } catch (IllegalArgumentException e) {
                return Optional.of(new BadInput(path, ModelChecker.unparsable(text, e)));
            }
        }
        // The parts Go decodes, each with its path and Go type.
        List<Part> parts = new ArrayList<>();
        if (type.startsWith("[]") && node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                parts.add(new Part(node.get(i), type.substring(2), Where.index(path, i)));
            }
        } else if (type.startsWith("map[") && node.isObject()) {
            node.properties()
                    .forEach(e -> parts.add(new Part(e.getValue(), mapValue(type), Where.field(path, e.getKey()))));
        } else if (node.isObject() && STRUCTS.contains(type.substring(type.indexOf('.') + 1))) {
            String struct = type.substring(type.indexOf('.') + 1);
            node.properties().forEach(e -> {
                GoField f = FIELD_TYPES.get(struct + "." + e.getKey());
                if (f != null) {
                    parts.add(new Part(e.getValue(), f.type(), Where.field(path, e.getKey())));
                }
            });
        }
        for (Part part : parts) {
            Optional<BadInput> error = quantityError(part.node(), part.goType(), part.path());
            if (error.isPresent()) {
                return error;
            }
        }
        return Optional.empty();
    }

    private record Part(JsonNode node, String goType, String path) {}

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
                GoField f = FIELD_TYPES.get(struct + "." + r.getPropertyName());
                fields.add((f == null ? "" : f.embedded()) + r.getPropertyName());
                type = Optional.ofNullable(f).map(GoField::type);
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
