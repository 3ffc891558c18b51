package io.dra4j.scenario;

import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import tools.jackson.databind.JsonNode;

/** Reads the top level of one scenario document; the objects inside go through {@link ObjectDecoder}. */
final class ScenarioParser {
    private static final Set<String> TOP_LEVEL_KEYS = Set.of(
            "name",
            "source",
            "features",
            "confidence",
            "notes",
            "node",
            "deviceClasses",
            "resourceSlices",
            "deviceTaintRules",
            "allocatedDevices",
            "claims",
            "expect");
    private static final Set<String> NODE_KEYS = Set.of("name", "labels");
    private static final Set<String> DEVICE_KEYS =
            Set.of("driver", "pool", "device", "shared", "shareID", "consumedCapacity");

    private ScenarioParser() {}

    /**
     * Parses the text of a scenario file.
     *
     * @param validate whether the cluster objects get the API server's defaults and validation (claims already
     *                 allocated are taken as they are)
     * @throws BadInput located inside the file
     */
    static Scenario parse(byte[] content, Path file, boolean validate) {
        YamlDocuments.Document doc = singleDocument(content);
        try {
            return parse(doc.root(), file, validate);
        } catch (BadInput e) {
            throw e.at(doc.locate(e.where()));
        }
    }

    private static Scenario parse(JsonNode root, Path file, boolean validate) {
        if (!root.isObject()) {
            throw new BadInput(
                    "",
                    "a scenario file holds one YAML mapping with the scenario's keys, found " + Json.describe(root));
        }
        for (String key : root.propertyNames()) {
            if (!TOP_LEVEL_KEYS.contains(key)) {
                throw new BadInput(
                        key,
                        "unknown key \"" + key + "\" (known: "
                                + String.join(
                                        ", ", TOP_LEVEL_KEYS.stream().sorted().toList()) + ")");
            }
        }
        String name = requiredString(root, "name");
        Optional<List<DraFeature>> features = features(root);
        // The API server that would hold these objects runs with the scenario's gates (its strategies drop the
        // fields of disabled features before validating).
        FeatureGates gates =
                features.map(FeatureGates::of).orElseGet(() -> FeatureGates.defaults(KubernetesVersion.LATEST));
        return new Scenario(
                name,
                optionalString(root, "source"),
                features,
                optionalString(root, "confidence"),
                optionalString(root, "notes"),
                node(root.get("node")),
                objects(
                        root,
                        "deviceClasses",
                        (n, i) -> ObjectDecoder.decode(
                                n, "deviceClasses", i, "DeviceClass", DeviceClass.class, validate, gates)),
                objects(
                        root,
                        "resourceSlices",
                        (n, i) -> ObjectDecoder.decode(
                                n, "resourceSlices", i, "ResourceSlice", ResourceSlice.class, validate, gates)),
                objects(
                        root,
                        "deviceTaintRules",
                        (n, i) -> ObjectDecoder.decode(
                                n, "deviceTaintRules", i, "DeviceTaintRule", DeviceTaintRule.class, validate, gates)),
                objects(root, "allocatedDevices", ScenarioParser::allocatedDevice),
                objects(
                        root,
                        "claims",
                        (n, i) -> ObjectDecoder.decode(
                                n, "claims", i, "ResourceClaim", ResourceClaim.class, validate, gates)),
                root.has("expect")
                        ? Optional.of(ExpectationParser.parse(root.get("expect"), "expect"))
                        : Optional.empty(),
                file);
    }

    /** Ends reading at the first document. */
    private static final class FirstDocument extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient JsonNode root;

        FirstDocument(JsonNode root) {
            super(null, null, false, false);
            this.root = root;
        }
    }

    /** See {@link ScenarioReader#isScenario}; reads only as far as the first document. */
    static boolean looksLikeScenario(byte[] content) {
        JsonNode first;
        try {
            YamlDocuments.read(content, doc -> {
                throw new FirstDocument(doc.root());
            });
            return false;
        } catch (FirstDocument d) {
            first = d.root;
        } catch (YamlDocuments.YamlError e) {
            return false;
        }
        return first.isObject() && !first.has("apiVersion") && !first.has("kind") && !first.has("items");
    }

    /** The {@code name} key of a document, if it has a string one; used to label errors. */
    static Optional<String> nameOf(byte[] content) {
        try {
            return Json.text(singleDocument(content).root().get("name"));
        } catch (BadInput e) {
            return Optional.empty();
        }
    }

    private static YamlDocuments.Document singleDocument(byte[] content) {
        List<YamlDocuments.Document> docs;
        try {
            docs = YamlDocuments.read(content);
        } catch (YamlDocuments.YamlError e) {
            throw new BadInput("", e.describe());
        }
        if (docs.isEmpty()) {
            throw new BadInput("", "the file holds no scenario (it is empty)");
        }
        if (docs.size() > 1) {
            throw new BadInput(
                    "", "the file holds " + docs.size() + " YAML documents; a scenario file holds one scenario");
        }
        return docs.get(0);
    }

    private static String requiredString(JsonNode root, String key) {
        JsonNode v = root.get(key);
        if (v == null || v.isNull()) {
            throw new BadInput(key, "missing " + key);
        }
        return Json.text(v)
                .filter(s -> !s.isEmpty())
                .orElseThrow(() -> new BadInput(key, "want a non-empty string, found " + Json.describe(v)));
    }

    private static String optionalString(JsonNode root, String key) {
        JsonNode v = root.get(key);
        if (v == null || v.isNull()) {
            return "";
        }
        return Json.text(v).orElseThrow(() -> new BadInput(key, "want a string, found " + Json.describe(v)));
    }

    /** Absent key: empty (release defaults apply). Present, even empty or null: exactly the listed gates. */
    private static Optional<List<DraFeature>> features(JsonNode root) {
        if (!root.has("features")) {
            return Optional.empty();
        }
        JsonNode list = root.get("features");
        if (list.isNull()) {
            return Optional.of(List.of());
        }
        if (!list.isArray()) {
            throw new BadInput("features", "want a list of feature gate names, found " + Json.describe(list));
        }
        List<DraFeature> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            String where = Where.index("features", i);
            String gate = Json.text(item)
                    .orElseThrow(() -> new BadInput(where, "want a feature gate name, found " + Json.describe(item)));
            out.add(DraFeature.byGateName(gate)
                    .orElseThrow(() -> new BadInput(
                            where,
                            "unknown DRA feature gate \""
                                    + gate + "\" (known: "
                                    + String.join(
                                            ", ",
                                            Arrays.stream(DraFeature.values())
                                                    .map(DraFeature::gateName)
                                                    .toList())
                                    + ")")));
        }
        return Optional.of(out);
    }

    private static Node node(JsonNode n) {
        if (n == null || n.isNull()) {
            throw new BadInput("node", "missing node (want {name, labels})");
        }
        if (!n.isObject()) {
            throw new BadInput("node", "want a mapping {name, labels}, found " + Json.describe(n));
        }
        for (String key : n.propertyNames()) {
            if (!NODE_KEYS.contains(key)) {
                throw new BadInput(Where.field("node", key), "unknown key \"" + key + "\" (known: labels, name)");
            }
        }
        String name = Json.text(n.get("name"))
                .filter(s -> !s.isEmpty())
                .orElseThrow(
                        () -> new BadInput("node.name", "want the node's name, found " + Json.describe(n.get("name"))));
        Map<String, String> labels = new LinkedHashMap<>();
        JsonNode l = n.get("labels");
        if (l != null && !l.isNull()) {
            if (!l.isObject()) {
                throw new BadInput("node.labels", "want a mapping of label names to values, found " + Json.describe(l));
            }
            for (Map.Entry<String, JsonNode> e : l.properties()) {
                String where = Where.field("node.labels", e.getKey());
                labels.put(
                        e.getKey(),
                        Json.text(e.getValue())
                                .orElseThrow(() -> new BadInput(
                                        where,
                                        "label values are strings, found " + Json.describe(e.getValue())
                                                + " (quote it)")));
            }
        }
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .build();
    }

    private static <T> List<T> objects(JsonNode root, String key, BiFunction<JsonNode, Integer, T> decode) {
        JsonNode list = root.get(key);
        if (list == null || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw new BadInput(key, "want a list, found " + Json.describe(list));
        }
        List<T> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            out.add(decode.apply(list.get(i), i));
        }
        return out;
    }

    /** A whole ResourceClaim when the entry says apiVersion or kind; a device reference otherwise. */
    private static AllocatedDevice allocatedDevice(JsonNode n, int index) {
        if (n.isObject() && (n.has("apiVersion") || n.has("kind"))) {
            return new AllocatedDevice.Claim(
                    ObjectDecoder.decode(n, "allocatedDevices", index, "ResourceClaim", ResourceClaim.class));
        }
        String at = Where.index("allocatedDevices", index);
        if (!n.isObject()) {
            throw new BadInput(at, "want {driver, pool, device} or a ResourceClaim, found " + Json.describe(n));
        }
        for (String key : n.propertyNames()) {
            if (!DEVICE_KEYS.contains(key)) {
                throw new BadInput(
                        Where.field(at, key),
                        "unknown key \"" + key + "\" (known: "
                                + String.join(
                                        ", ", DEVICE_KEYS.stream().sorted().toList())
                                + "; a whole ResourceClaim needs apiVersion and kind)");
            }
        }
        DeviceId id =
                new DeviceId(deviceField(n, at, "driver"), deviceField(n, at, "pool"), deviceField(n, at, "device"));
        JsonNode shared = n.get("shared");
        if (shared != null && !shared.isBoolean()) {
            throw new BadInput(Where.field(at, "shared"), "want a boolean, found " + Json.describe(shared));
        }
        if (shared == null || !shared.booleanValue()) {
            for (String key : List.of("consumedCapacity", "shareID")) {
                if (n.has(key)) {
                    throw new BadInput(Where.field(at, key), key + " needs shared: true");
                }
            }
            return new AllocatedDevice.Exclusive(id);
        }
        Optional<String> shareId = Optional.empty();
        if (n.has("shareID")) {
            shareId = Optional.of(Json.text(n.get("shareID"))
                    .orElseThrow(() -> new BadInput(
                            Where.field(at, "shareID"), "want a string, found " + Json.describe(n.get("shareID")))));
        }
        return new AllocatedDevice.Shared(
                id, shareId, consumedCapacity(n.get("consumedCapacity"), Where.field(at, "consumedCapacity")));
    }

    private static String deviceField(JsonNode n, String at, String key) {
        return Json.text(n.get(key))
                .filter(s -> !s.isEmpty())
                .orElseThrow(() -> new BadInput(
                        Where.field(at, key), "want a non-empty string, found " + Json.describe(n.get(key))));
    }

    private static Map<String, KubeQuantity> consumedCapacity(JsonNode n, String at) {
        Map<String, KubeQuantity> out = new LinkedHashMap<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw new BadInput(at, "want a mapping of capacity names to quantities, found " + Json.describe(n));
        }
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            String where = Where.field(at, e.getKey());
            JsonNode v = e.getValue();
            if (!v.isString() && !v.isNumber()) {
                throw new BadInput(where, "want a quantity, found " + Json.describe(v));
            }
            String text = v.isString() ? v.stringValue() : v.asString();
            try {
                out.put(e.getKey(), KubeQuantity.parse(text));
            } catch (IllegalArgumentException ex) {
                throw new BadInput(where, "quantity \"" + text + "\" cannot be parsed: " + ex.getMessage());
            }
        }
        return out;
    }
}
