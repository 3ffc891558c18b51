package io.dra4j.migrate.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON fields of every resource.k8s.io kind in every version Kubernetes 1.37 serves, as its Go types declare
 * them ({@code resource-schema.json}, printed by {@code oracle/convert -schema}). Checks a document as the API
 * server's strict decoding does: a field the version does not have, or a string where a number belongs, is an error.
 * Values with their own decoding (quantities, times, opaque parameters) are not looked into. Immutable.
 */
public final class ApiSchema {

    private final JsonNode kinds;
    private final JsonNode types;

    private ApiSchema(JsonNode root) {
        this.kinds = root.get("kinds");
        this.types = root.get("types");
    }

    /** The schema of Kubernetes 1.37 ({@code oracle/convert -schema}), read from the class path. */
    public static ApiSchema kubernetes137() {
        return load("resource-schema.json");
    }

    /**
     * The schema of Kubernetes 1.32 ({@code oracle/convert-v132 -schema}), the last release that served claims,
     * classes and slices as v1alpha3.
     */
    public static ApiSchema kubernetes132() {
        return load("resource-schema-1.32.json");
    }

    private static ApiSchema load(String resource) {
        try (InputStream in = ApiSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the class path");
            }
            return new ApiSchema(JsonMapper.builder().build().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when {@code version} (e.g. {@code v1beta1}) has {@code kind}. */
    public boolean has(String version, String kind) {
        return kinds.has(version + "/" + kind);
    }

    /** Adds an error to {@code notes} for every field of {@code obj} that {@code version}'s {@code kind} lacks. */
    public void check(JsonNode obj, String version, String kind, String label, String path, Notes notes) {
        JsonNode root = kinds.get(version + "/" + kind);
        if (root == null) {
            throw new IllegalArgumentException(version + "/" + kind);
        }
        walk(obj, root, label, path, notes);
    }

    private void walk(JsonNode value, JsonNode shape, String label, String path, Notes notes) {
        if (value.isNull()) {
            return;
        }
        if (shape.isString()) {
            String s = shape.asString();
            switch (s) {
                case "any" -> {}
                case "string" -> expect(value.isString(), "a string", value, label, path, notes);
                case "bool" -> expect(value.isBoolean(), "a boolean", value, label, path, notes);
                case "int" -> expect(value.isIntegralNumber(), "an integer", value, label, path, notes);
                case "float" -> expect(value.isNumber(), "a number", value, label, path, notes);
                default -> object(value, s, label, path, notes);
            }
            return;
        }
        if (shape.has("list")) {
            if (expect(value.isArray(), "a list", value, label, path, notes)) {
                for (int i = 0; i < value.size(); i++) {
                    walk(value.get(i), shape.get("list"), label, Paths.index(path, i), notes);
                }
            }
            return;
        }
        if (expect(value.isObject(), "a map", value, label, path, notes)) {
            for (Map.Entry<String, JsonNode> e : value.properties()) {
                walk(e.getValue(), shape.get("map"), label, Paths.field(path, e.getKey()), notes);
            }
        }
    }

    private void object(JsonNode value, String type, String label, String path, Notes notes) {
        if (!expect(value.isObject(), "an object", value, label, path, notes)) {
            return;
        }
        JsonNode fields = types.get(type);
        for (Map.Entry<String, JsonNode> e : value.properties()) {
            String child = Paths.field(path, e.getKey());
            JsonNode shape = fields.get(e.getKey());
            if (shape == null) {
                notes.error(
                        child, "unknown-field", label + ": unknown field \"" + child + "\"" + hint(type, e.getKey()));
            } else {
                walk(e.getValue(), shape, label, child, notes);
            }
        }
    }

    /** What a field that is unknown here usually means: the shape of another version. */
    private static String hint(String type, String field) {
        boolean old = type.startsWith("resource/v1beta1.");
        String simple = type.substring(type.indexOf('.') + 1);
        boolean requestField = List.of(
                        "deviceClassName",
                        "selectors",
                        "allocationMode",
                        "count",
                        "adminAccess",
                        "tolerations",
                        "capacity")
                .contains(field);
        if (simple.equals("DeviceRequest") && !old && requestField) {
            return "; in v1beta2 and v1 it sits under exactly (requests[].exactly." + field + ")";
        }
        if (simple.equals("DeviceRequest") && old && field.equals("exactly")) {
            return "; exactly is the v1beta2 and v1 form, in v1beta1 the request's fields sit at the request";
        }
        if (simple.equals("DeviceRequest") && field.equals("resourceClassName")) {
            return "; resourceClassName is classic DRA (v1alpha2), use exactly.deviceClassName";
        }
        if (simple.equals("Device") && !old && field.equals("basic")) {
            return "; basic is the v1beta1 form, in v1beta2 and v1 a device's fields sit at the device";
        }
        if (simple.equals("Device") && old) {
            return "; in v1beta1 a device's fields sit under basic";
        }
        if (simple.equals("DeviceClaim") && field.equals("tolerations")) {
            return "; tolerations belong to a request (requests[].exactly.tolerations)";
        }
        return "";
    }

    private static boolean expect(boolean ok, String what, JsonNode value, String label, String path, Notes notes) {
        if (!ok) {
            notes.error(path, "invalid-field", label + ": " + path + ": expected " + what + ", not " + describe(value));
        }
        return ok;
    }

    private static String describe(JsonNode v) {
        if (v.isString()) {
            return "the string \"" + v.asString() + "\"";
        }
        if (v.isObject()) {
            return "an object";
        }
        if (v.isArray()) {
            return "a list";
        }
        return v.toString();
    }
}
