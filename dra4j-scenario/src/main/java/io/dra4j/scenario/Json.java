package io.dra4j.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Small helpers over Jackson trees for the reader: typed access, descriptions for messages, decoding. */
final class Json {
    private static final JsonMapper COMPACT = JsonMapper.builder().build();

    private Json() {}

    /** The string value of a string node; empty for anything else (absent, null, number, ...). */
    static Optional<String> text(JsonNode node) {
        return node != null && node.isString() ? Optional.of(node.stringValue()) : Optional.empty();
    }

    /** What a node is, for messages: {@code a list}, {@code the number 3}, ... */
    static String describe(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        if (node.isNull()) {
            return "null";
        }
        if (node.isObject()) {
            return "a mapping";
        }
        if (node.isArray()) {
            return "a list";
        }
        if (node.isString()) {
            return "the string \"" + node.stringValue() + "\"";
        }
        if (node.isBoolean()) {
            return "the boolean " + node.booleanValue();
        }
        if (node.isNumber()) {
            return "the number " + node.numberValue();
        }
        return "a " + node.getNodeType().name().toLowerCase();
    }

    /**
     * Decodes a tree into a model class, with {@code reader} ({@link Mappers#READER} for scenario files,
     * {@link Mappers#API_READER} for manifests).
     *
     * @throws BadInput located at the field whose value has the wrong type
     */
    static <T> T decode(JsonNode node, Class<T> type, YAMLMapper reader) {
        try {
            return reader.treeToValue(node, type);
        } catch (DatabindException e) {
            // Go's decoder keeps a type error and goes on, and an unparsable quantity anywhere ends it with its error.
            java.util.Optional<BadInput> quantity = GoDecodeErrors.firstQuantityError(node, type.getSimpleName());
            if (quantity.isPresent()) {
                throw quantity.get();
            }
            String path = path(e.getPath());
            JsonNode found = at(node, e.getPath());
            String what;
            if (found == null) {
                what = shortMessage(e);
            } else if (e instanceof MismatchedInputException m
                    && !e.getPath().isEmpty()
                    && !found.isNull()
                    && GoDecodeErrors.unmarshalTypeError(e.getPath(), found, m.getTargetType())
                            .isPresent()) {
                what = GoDecodeErrors.unmarshalTypeError(e.getPath(), found, m.getTargetType())
                        .orElseThrow();
            } else if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
                what = "want " + expected(m.getTargetType()) + ", found " + describe(found);
            } else {
                what = "cannot use " + describe(found) + " here";
            }
            throw new BadInput(path, what);
        } catch (JacksonException e) {
            throw new BadInput("", shortMessage(e));
        }
    }

    /** A value as compact JSON, as Go's json.Marshal writes it in API server messages ({@code null} for null). */
    static String compact(Object value) {
        return COMPACT.writeValueAsString(value);
    }

    /** Deep, immutable plain-Java copy of a tree: maps keep their key order and may hold null values. */
    static Object plain(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                out.put(e.getKey(), plain(e.getValue()));
            }
            return Collections.unmodifiableMap(out);
        }
        if (node.isArray()) {
            List<Object> out = new ArrayList<>();
            for (JsonNode e : node) {
                out.add(plain(e));
            }
            return Collections.unmodifiableList(out);
        }
        if (node.isString()) {
            return node.stringValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isNumber()) {
            return node.numberValue();
        }
        return node.asString();
    }

    private static String expected(Class<?> type) {
        if (java.util.Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "a mapping";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "a boolean";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        return "a mapping (" + type.getSimpleName() + ")";
    }

    private static String path(List<JacksonException.Reference> refs) {
        String out = "";
        for (JacksonException.Reference r : refs) {
            out = r.getPropertyName() != null ? Where.field(out, r.getPropertyName()) : Where.index(out, r.getIndex());
        }
        return out;
    }

    private static JsonNode at(JsonNode root, List<JacksonException.Reference> refs) {
        JsonNode n = root;
        for (JacksonException.Reference r : refs) {
            if (n == null) {
                return null;
            }
            n = r.getPropertyName() != null ? n.get(r.getPropertyName()) : n.get(r.getIndex());
        }
        return n;
    }

    private static String shortMessage(JacksonException e) {
        String m = e.getOriginalMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
