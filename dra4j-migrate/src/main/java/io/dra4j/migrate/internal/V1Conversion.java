package io.dra4j.migrate.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts one resource.k8s.io object of an older version to v1 by upstream's rules (k8s.io/kubernetes v1.37
 * {@code pkg/apis/resource/v1beta1/conversion.go} and the generated conversions through the internal version;
 * v1alpha3 objects of 1.31/1.32 through 1.32's v1alpha3 conversion first). Works on the JSON tree, since the typed
 * model has no old versions. Fields upstream carries over are kept as written; fields with no v1 form are reported.
 * Defaults are not applied: the API server adds them when the object is stored.
 */
public final class V1Conversion {
    public static final String GROUP = "resource.k8s.io";
    public static final String V1 = GROUP + "/v1";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> V1_KINDS =
            List.of("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule");
    /** The kinds v1alpha3 had in 1.31/1.32, before 1.33 kept only DeviceTaintRule there. */
    private static final Set<String> V1ALPHA3_LEGACY_KINDS =
            Set.of("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice");
    /**
     * The request fields that v1beta1 (and v1alpha3) keep at the request and v1 keeps under {@code exactly}
     * ({@code hasAnyMainRequestFieldsSet}).
     */
    private static final List<String> MAIN_REQUEST_FIELDS = List.of(
            "deviceClassName",
            "selectors",
            "allocationMode",
            "count",
            "adminAccess",
            "tolerations",
            "capacity",
            "derivedAttributes");

    private final ApiSchema schema;
    private final ApiSchema legacySchema;
    private final Notes notes;

    private V1Conversion(ApiSchema schema, ApiSchema legacySchema, Notes notes) {
        this.schema = schema;
        this.legacySchema = legacySchema;
        this.notes = notes;
    }

    /** The outcome for one document: the v1 tree (the input itself when nothing changed), or null on error. */
    public record Result(JsonNode tree, boolean changed) {}

    /**
     * Converts a document. Objects outside resource.k8s.io and v1 objects are returned unchanged; a {@code kind: List}
     * has each item converted. Errors and notes go to {@code notes}; on error the tree is null.
     */
    public static Result convert(ApiSchema schema, ApiSchema legacySchema, JsonNode doc, Notes notes) {
        V1Conversion c = new V1Conversion(schema, legacySchema, notes);
        JsonNode out = c.document(doc.deepCopy(), "");
        if (notes.hasErrors()) {
            return new Result(null, false);
        }
        return new Result(out, !out.equals(doc));
    }

    private JsonNode document(JsonNode doc, String path) {
        if (!(doc instanceof ObjectNode obj)) {
            notes.error(path, "not-kubernetes", "not a Kubernetes object: expected a mapping with apiVersion and kind");
            return doc;
        }
        String apiVersion = text(obj, "apiVersion");
        String kind = text(obj, "kind");
        if (apiVersion == null || kind == null || apiVersion.isEmpty() || kind.isEmpty()) {
            notes.error(path, "not-kubernetes", "not a Kubernetes object: apiVersion and kind must be set as strings");
            return doc;
        }
        if (apiVersion.equals("v1") && kind.equals("List")) {
            JsonNode items = obj.get("items");
            if (items instanceof ArrayNode arr) {
                for (int i = 0; i < arr.size(); i++) {
                    arr.set(i, document(arr.get(i), Paths.index(Paths.field(path, "items"), i)));
                }
            }
            return obj;
        }
        if (!apiVersion.startsWith(GROUP + "/")) {
            return obj;
        }
        String version = apiVersion.substring(GROUP.length() + 1);
        String label = kind + " " + name(obj);
        if (version.equals("v1alpha1") || version.equals("v1alpha2")) {
            notes.error(
                    Paths.field(path, "apiVersion"),
                    "no-v1-form",
                    label + ": " + apiVersion + " is classic DRA (1.26-1.30: "
                            + "ResourceClass, parameters, control-plane controllers), which has no v1 form; write the "
                            + "claim again as structured parameters (DeviceClass selectors and device requests)");
            return obj;
        }
        if (!List.of("v1", "v1beta2", "v1beta1", "v1alpha3").contains(version)) {
            notes.error(
                    Paths.field(path, "apiVersion"),
                    "unknown-version",
                    label + ": " + apiVersion + " is not a "
                            + "version of resource.k8s.io that Kubernetes serves or served (v1alpha3, v1beta1, v1beta2, v1)");
            return obj;
        }
        boolean list = kind.endsWith("List") && kind.length() > 4;
        String itemKind = list ? kind.substring(0, kind.length() - 4) : kind;
        boolean legacy = version.equals("v1alpha3") && V1ALPHA3_LEGACY_KINDS.contains(itemKind);
        if (!legacy && !schema.has(version, kind) || !V1_KINDS.contains(itemKind)) {
            unknownKind(path, version, kind, label);
            return obj;
        }
        if (legacy) {
            // 1.31's classic DRA fields go first (1.32 no longer had them); then 1.32's v1alpha3 is checked and its
            // capacities take v1beta1's form.
            if (list) {
                forEachItem(
                        obj, path, (item, itemPath) -> alpha131(item, itemKind, itemKind + " " + name(item), itemPath));
            } else {
                alpha131(obj, kind, label, path);
            }
            legacySchema.check(obj, version, kind, label, path, notes);
            if (list) {
                forEachItem(
                        obj,
                        path,
                        (item, itemPath) -> alphaCapacities(item, itemKind, itemKind + " " + name(item), itemPath));
            } else {
                alphaCapacities(obj, kind, label, path);
            }
        } else {
            if (!list && version.equals("v1alpha3") && kind.equals("DeviceTaintRule")) {
                alphaTaintRule(child(obj, "spec"), label, Paths.field(path, "spec"));
            }
            schema.check(obj, version, kind, label, path, notes);
        }
        if (notes.hasErrors()) {
            return obj;
        }
        obj.put("apiVersion", V1);
        if (list) {
            forEachItem(obj, path, (item, itemPath) -> {
                if (item.has("apiVersion")) {
                    item.put("apiVersion", V1);
                }
                object(item, version, itemKind, itemKind + " " + name(item), itemPath);
            });
        } else {
            object(obj, version, kind, label, path);
        }
        // What comes out must be a v1 object; a field left behind would be a conversion bug, not the input's.
        Notes self = new Notes();
        schema.check(obj, "v1", kind, label, path, self);
        for (Notes.Note n : self.all()) {
            notes.error(n.path(), "internal", "dra4j's conversion left a field v1 does not have: " + n.message());
        }
        return obj;
    }

    private void forEachItem(ObjectNode list, String path, BiConsumer<ObjectNode, String> f) {
        if (list.get("items") instanceof ArrayNode arr) {
            for (int i = 0; i < arr.size(); i++) {
                if (arr.get(i) instanceof ObjectNode item) {
                    f.accept(item, Paths.index(Paths.field(path, "items"), i));
                }
            }
        }
    }

    private void unknownKind(String path, String version, String kind, String label) {
        String hint = switch (kind) {
            case "PodSchedulingContext" ->
                "; it served classic DRA's control-plane controllers (removed in 1.32) " + "and has no v1 form";
            case "ResourcePoolStatusRequest" -> "; it exists only in v1alpha3 (1.37 alpha) and has no v1 form";
            case "DeviceTaintRule" -> "; DeviceTaintRule is served as v1alpha3, v1beta2 and v1";
            default -> "";
        };
        if (schema.has(version, kind)) {
            notes.error(Paths.field(path, "kind"), "no-v1-form", label + ": " + kind + " has no v1 form" + hint);
            return;
        }
        notes.error(
                Paths.field(path, "kind"),
                "no-v1-form",
                label + ": no kind \"" + kind + "\" is registered for version \"" + GROUP + "/" + version + "\""
                        + hint);
    }

    private void object(ObjectNode obj, String version, String kind, String label, String path) {
        if (version.equals("v1") || version.equals("v1beta2") || kind.equals("DeviceTaintRule")) {
            return;
        }
        boolean legacy = version.equals("v1alpha3");
        switch (kind) {
            case "DeviceClass" -> {}
            case "ResourceClaim" -> claimSpec(child(obj, "spec"), label, Paths.field(path, "spec"), legacy);
            case "ResourceClaimTemplate" -> {
                ObjectNode spec = child(obj, "spec");
                claimSpec(
                        spec == null ? null : child(spec, "spec"),
                        label,
                        Paths.field(Paths.field(path, "spec"), "spec"),
                        legacy);
            }
            case "ResourceSlice" -> sliceSpec(child(obj, "spec"), label, Paths.field(path, "spec"));
            default -> throw new IllegalStateException("kind " + kind);
        }
    }

    /** 1.31's v1alpha3 had classic DRA's fields, which have no later form. */
    private void alpha131(ObjectNode obj, String kind, String label, String path) {
        switch (kind) {
            case "DeviceClass" -> {
                ObjectNode spec = child(obj, "spec");
                if (spec != null) {
                    dropNoV1Form(
                            spec,
                            "suitableNodes",
                            label,
                            Paths.field(path, "spec"),
                            "was used by classic DRA's control-plane controllers (removed in 1.32)");
                }
            }
            case "ResourceClaim" -> {
                alphaController(child(obj, "spec"), label, Paths.field(path, "spec"));
                alphaClaimStatus(child(obj, "status"), label, Paths.field(path, "status"));
            }
            case "ResourceClaimTemplate" -> {
                ObjectNode spec = child(obj, "spec");
                alphaController(
                        spec == null ? null : child(spec, "spec"),
                        label,
                        Paths.field(Paths.field(path, "spec"), "spec"));
            }
            default -> {}
        }
    }

    /** 1.32's v1alpha3 differs from v1beta1 only in capacities: a quantity, not {@code {value}}. */
    private void alphaCapacities(ObjectNode obj, String kind, String label, String path) {
        if (!kind.equals("ResourceSlice")) {
            return;
        }
        ObjectNode spec = child(obj, "spec");
        JsonNode devices = spec == null ? null : spec.get("devices");
        if (devices instanceof ArrayNode arr) {
            for (int i = 0; i < arr.size(); i++) {
                if (arr.get(i) instanceof ObjectNode d && d.get("basic") instanceof ObjectNode basic) {
                    alphaCapacity(
                            basic,
                            label,
                            Paths.field(Paths.index(Paths.field(Paths.field(path, "spec"), "devices"), i), "basic"));
                }
            }
        }
    }

    private void alphaController(ObjectNode spec, String label, String path) {
        if (spec == null || !spec.has("controller")) {
            return;
        }
        JsonNode controller = spec.get("controller");
        String cpath = Paths.field(path, "controller");
        if (controller.isNull()
                || controller.isString() && controller.asString().isEmpty()) {
            spec.remove("controller");
            notes.info(cpath, "no-v1-form", label + ": " + cpath + " (1.31 classic DRA) is empty and was dropped");
        } else {
            notes.error(
                    cpath,
                    "no-v1-form",
                    label + ": " + cpath + ": a claim allocated by a control-plane "
                            + "controller (classic DRA, removed in 1.32) has no v1 form; remove the field to have the "
                            + "scheduler allocate it with structured parameters");
        }
    }

    // --- claims: the flat request fields move under exactly

    private void claimSpec(ObjectNode spec, String label, String path, boolean legacy) {
        if (spec == null) {
            return;
        }
        ObjectNode devices = child(spec, "devices");
        if (devices == null) {
            return;
        }
        String dpath = Paths.field(path, "devices");
        JsonNode requests = devices.get("requests");
        if (requests == null || requests.isNull()) {
            return;
        }
        if (!(requests instanceof ArrayNode arr)) {
            notes.error(
                    Paths.field(dpath, "requests"),
                    "invalid-field",
                    label + ": " + Paths.field(dpath, "requests") + ": expected a list");
            return;
        }
        for (int i = 0; i < arr.size(); i++) {
            String rpath = Paths.index(Paths.field(dpath, "requests"), i);
            if (arr.get(i) instanceof ObjectNode request) {
                arr.set(i, request(request, legacy));
            } else if (!arr.get(i).isNull()) {
                notes.error(rpath, "invalid-field", label + ": " + rpath + ": expected an object");
            }
        }
    }

    /**
     * Up-conversion creates {@code exactly} iff any main field is set as Go sees it (a non-empty string, a non-zero
     * count, any non-null list or object); it then holds every main field, in the order written, where the first one
     * stood. Main fields left at their zero value have no v1 place and are equal to absent.
     */
    private ObjectNode request(ObjectNode request, boolean legacy) {
        boolean anySet = false;
        for (String f : MAIN_REQUEST_FIELDS) {
            anySet |= isSet(request.get(f), f, legacy);
        }
        ObjectNode out = NODES.objectNode();
        ObjectNode exactly = NODES.objectNode();
        boolean placed = false;
        for (Map.Entry<String, JsonNode> e : request.properties()) {
            if (!MAIN_REQUEST_FIELDS.contains(e.getKey())) {
                out.set(e.getKey(), e.getValue());
                continue;
            }
            if (!anySet) {
                continue;
            }
            if (!placed) {
                out.set("exactly", exactly);
                placed = true;
            }
            if (!e.getValue().isNull()) {
                exactly.set(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /**
     * Whether Go sees the field as set; its type was checked against the schema before. A 1.32 v1alpha3 object
     * reached 1.37 as stored v1beta1, and storage keeps no empty lists: {@code selectors: []} arrives unset.
     */
    private static boolean isSet(JsonNode v, String field, boolean legacy) {
        if (v == null || v.isNull() || legacy && v.isArray() && v.isEmpty()) {
            return false;
        }
        return switch (field) {
            case "deviceClassName", "allocationMode" -> !v.asString().isEmpty();
            case "count" -> v.bigIntegerValue().signum() != 0;
            default -> true;
        };
    }

    private void alphaClaimStatus(ObjectNode status, String label, String path) {
        if (status == null) {
            return;
        }
        dropNoV1Form(
                status,
                "deallocationRequested",
                label,
                path,
                "was used by classic DRA's control-plane controllers (removed in 1.32)");
        ObjectNode allocation = child(status, "allocation");
        if (allocation != null) {
            dropNoV1Form(
                    allocation,
                    "controller",
                    label,
                    Paths.field(path, "allocation"),
                    "named the classic DRA controller that allocated the claim (removed in 1.32)");
        }
    }

    private void dropNoV1Form(ObjectNode obj, String field, String label, String path, String why) {
        if (obj.has(field)) {
            String fpath = Paths.field(path, field);
            obj.remove(field);
            notes.warning(fpath, "no-v1-form", label + ": " + fpath + " has no v1 form and was dropped: it " + why);
        }
    }

    // --- slices: devices lose the basic wrapper; v1alpha3 capacities become {value}

    private void sliceSpec(ObjectNode spec, String label, String path) {
        if (spec == null) {
            return;
        }
        // v1beta1 has nodeName as a string and allNodes as a bool; v1 has pointers, unset when empty or false.
        JsonNode nodeName = spec.get("nodeName");
        if (nodeName != null
                && (nodeName.isNull()
                        || nodeName.isString() && nodeName.asString().isEmpty())) {
            spec.remove("nodeName");
        }
        JsonNode allNodes = spec.get("allNodes");
        if (allNodes != null && (allNodes.isNull() || allNodes.isBoolean() && !allNodes.booleanValue())) {
            spec.remove("allNodes");
        }
        JsonNode devices = spec.get("devices");
        if (devices == null || devices.isNull()) {
            return;
        }
        String dpath = Paths.field(path, "devices");
        if (!(devices instanceof ArrayNode arr)) {
            notes.error(dpath, "invalid-field", label + ": " + dpath + ": expected a list");
            return;
        }
        for (int i = 0; i < arr.size(); i++) {
            String devPath = Paths.index(dpath, i);
            if (arr.get(i) instanceof ObjectNode device) {
                arr.set(i, device(device, label, devPath));
            } else if (!arr.get(i).isNull()) {
                notes.error(devPath, "invalid-field", label + ": " + devPath + ": expected an object");
            }
        }
    }

    private ObjectNode device(ObjectNode device, String label, String path) {
        ObjectNode out = NODES.objectNode();
        for (Map.Entry<String, JsonNode> e : device.properties()) {
            if (!e.getKey().equals("basic")) {
                out.set(e.getKey(), e.getValue());
                continue;
            }
            JsonNode basic = e.getValue();
            if (basic.isNull()) {
                continue;
            }
            String bpath = Paths.field(path, "basic");
            if (!(basic instanceof ObjectNode b)) {
                notes.error(bpath, "invalid-field", label + ": " + bpath + ": expected an object");
                continue;
            }
            for (Map.Entry<String, JsonNode> f : b.properties()) {
                out.set(f.getKey(), f.getValue());
            }
        }
        return out;
    }

    /** 1.32's v1alpha3 capacity is a quantity per name; v1beta1 and later wrap it: {@code {value: q}}. */
    private void alphaCapacity(ObjectNode basic, String label, String path) {
        JsonNode capacity = basic.get("capacity");
        if (!(capacity instanceof ObjectNode cap)) {
            return;
        }
        String cpath = Paths.field(path, "capacity");
        for (Map.Entry<String, JsonNode> e : cap.properties()) {
            JsonNode q = e.getValue();
            String qpath = Paths.field(cpath, e.getKey());
            if (q.isString() || q.isNumber()) {
                ObjectNode wrapped = NODES.objectNode();
                wrapped.set("value", q);
                e.setValue(wrapped);
            } else if (!q.isNull()) {
                notes.error(
                        qpath,
                        "invalid-field",
                        label + ": " + qpath + ": expected a quantity such as 40Gi; "
                                + "{value: ...} is the v1beta1 form");
            }
        }
    }

    // --- device taint rules

    private void alphaTaintRule(ObjectNode spec, String label, String path) {
        if (spec == null) {
            return;
        }
        ObjectNode selector = child(spec, "deviceSelector");
        if (selector == null) {
            return;
        }
        String spath = Paths.field(path, "deviceSelector");
        for (String f : List.of("deviceClassName", "selectors")) {
            if (selector.has(f) && !selector.get(f).isNull()) {
                String fpath = Paths.field(spath, f);
                notes.error(
                        fpath,
                        "no-v1-form",
                        label + ": " + fpath + " has no v1 form: 1.35 removed class and CEL "
                                + "selection from DeviceTaintRules (kubernetes#134152); dropping it would taint more devices. "
                                + "Select by driver, pool and device instead, one rule per device set");
            }
        }
    }

    // --- helpers

    private ObjectNode child(ObjectNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v instanceof ObjectNode o) {
            return o;
        }
        return null;
    }

    private static String text(ObjectNode obj, String field) {
        JsonNode v = obj.get(field);
        return v != null && v.isString() ? v.asString() : null;
    }

    static String name(ObjectNode obj) {
        JsonNode meta = obj.get("metadata");
        if (meta == null || !meta.isObject()) {
            return "(unnamed)";
        }
        String name = text((ObjectNode) meta, "name");
        String ns = text((ObjectNode) meta, "namespace");
        if (name == null) {
            String generate = text((ObjectNode) meta, "generateName");
            name = generate == null ? "(unnamed)" : generate + "*";
        }
        return ns == null || ns.isEmpty() ? name : ns + "/" + name;
    }
}
