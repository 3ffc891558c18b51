package io.dra4j.scenario;

import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Reads the documents of manifest sources into objects, collecting skipped kinds and problems; one parser per
 * {@link ManifestReader} call (it remembers the names seen, to report duplicates across sources).
 */
final class ManifestParser {
    private final List<ManifestObject> objects = new ArrayList<>();
    private final List<SkippedObject> skipped = new ArrayList<>();
    private final List<ManifestProblem> problems = new ArrayList<>();
    private final Map<String, ManifestOrigin> seen = new HashMap<>();
    private final boolean validate;
    private final FeatureGates gates;
    /** The document being read, for the line and column of a problem in it. */
    private YamlDocuments.Document current;

    /**
     * @param validate whether resource.k8s.io objects get the API server's defaults and validation
     * @param gates    the API server's gates for that validation
     */
    ManifestParser(boolean validate, FeatureGates gates) {
        this.validate = validate;
        this.gates = gates;
    }

    ManifestParser() {
        this(false, FeatureGates.defaults());
    }

    Manifests result() {
        return new Manifests(objects, skipped, problems);
    }

    void problem(ManifestOrigin origin, String object, String field, String message) {
        problems.add(new ManifestProblem(origin, object, field, message));
    }

    /**
     * Reads every document of one source with the shared YAML reader (JSON is YAML); a malformed document ends that
     * source (earlier ones are kept).
     */
    void parse(byte[] content, String source) {
        int[] documents = {0};
        try {
            YamlDocuments.read(content, doc -> {
                documents[0]++;
                current = doc;
                document(doc.root(), new ManifestOrigin(source, doc.index(), -1));
            });
            if (documents[0] == 0) {
                // kubectl apply -f: "error: no objects passed to apply".
                problem(
                        new ManifestOrigin(source, 0, -1),
                        "",
                        "",
                        "holds no Kubernetes objects (it is empty or only " + "comments)");
            }
        } catch (YamlDocuments.YamlError e) {
            problem(new ManifestOrigin(source, e.document(), -1), "", "", e.describe());
        }
    }

    /** One document: an object, a {@code kind: List} (or {@code PodList}, ...) of objects, or a JSON array of them. */
    private void document(JsonNode doc, ManifestOrigin at) {
        if (doc.isArray()) {
            items(doc, at, Optional.empty());
            return;
        }
        if (!doc.isObject()) {
            problem(
                    at,
                    "",
                    "",
                    "want a Kubernetes object (a mapping with apiVersion and kind), found " + Json.describe(doc));
            return;
        }
        String kind = Json.text(doc.get("kind")).orElse("");
        JsonNode items = doc.get("items");
        if (kind.endsWith("List") && items != null) {
            if (!items.isArray()) {
                problem(at, kind, "items", "want a list, found " + Json.describe(items));
                return;
            }
            // A typed list (PodList) may leave apiVersion and kind off its items: they are the list's.
            Optional<String[]> itemType = kind.equals("List")
                    ? Optional.empty()
                    : Optional.of(new String[] {
                        Json.text(doc.get("apiVersion")).orElse(""), kind.substring(0, kind.length() - "List".length())
                    });
            items(items, at, itemType);
            return;
        }
        object(doc, at, Optional.empty());
    }

    private void items(JsonNode items, ManifestOrigin at, Optional<String[]> itemType) {
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            ManifestOrigin origin = new ManifestOrigin(at.source(), at.document(), i);
            if (!item.isObject()) {
                problem(origin, "", "", "want a Kubernetes object, found " + Json.describe(item));
                continue;
            }
            object(item, origin, itemType);
        }
    }

    private void object(JsonNode node, ManifestOrigin at, Optional<String[]> defaultType) {
        String label = label(node, defaultType);
        String apiVersion = Json.text(node.get("apiVersion"))
                .or(() -> defaultType.map(t -> t[0]))
                .orElse("");
        String kind =
                Json.text(node.get("kind")).or(() -> defaultType.map(t -> t[1])).orElse("");
        if (apiVersion.isEmpty()) {
            problem(at, label, "apiVersion", "missing apiVersion, found " + Json.describe(node.get("apiVersion")));
            return;
        }
        if (kind.isEmpty()) {
            problem(at, label, "kind", "missing kind, found " + Json.describe(node.get("kind")));
            return;
        }
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        Optional<ManifestKinds.Kind> known = ManifestKinds.byGroupAndKind(group, kind);
        if (known.isEmpty() && group.equals("resource.k8s.io")) {
            problem(
                    at,
                    label,
                    "kind",
                    "unknown kind \"" + kind + "\" in resource.k8s.io (dra4j reads DeviceClass, "
                            + "DeviceTaintRule, ResourceClaim, ResourceClaimTemplate and ResourceSlice)");
            return;
        }
        if (known.isEmpty()) {
            skipped.add(new SkippedObject(
                    at,
                    apiVersion,
                    kind,
                    Json.text(node.path("metadata").get("name")).orElse("")));
            return;
        }
        ManifestKinds.Kind k = known.get();
        try {
            if (group.equals("resource.k8s.io")) {
                ObjectDecoder.checkApiVersion(apiVersion, kind, node);
            } else if (!apiVersion.equals(k.apiVersion())) {
                throw new BadInput(
                        "apiVersion",
                        "apiVersion " + apiVersion + " is not supported for " + kind + ", only " + k.apiVersion()
                                + " (the version Kubernetes 1.37 serves)");
            }
            HasMetadata value = Json.decode(node, k.type(), Mappers.API_READER);
            ZeroValues.fill(value);
            ModelChecker.check(value);
            if (validate && group.equals("resource.k8s.io")) {
                ApiValidation.defaultAndValidate(value, node, gates);
            }
            String key = identity(value, k);
            ManifestOrigin first = seen.putIfAbsent(key, at);
            if (first != null) {
                throw new BadInput(
                        "metadata.name",
                        key.substring(key.indexOf(' ') + 1) + " already exists (first read at " + first + ")");
            }
            objects.add(new ManifestObject(at, value));
        } catch (BadInput e) {
            // The parser's line and column of the field (its deepest part written in the document).
            String path = at.item() < 0
                    ? e.where()
                    : Where.index("items", at.item()) + (e.where().isEmpty() ? "" : "." + e.where());
            YamlDocuments.Position position = current.locate(path);
            // JSON documents carry no positions: their start alone would mislead.
            boolean located = position.line() > 0 && !position.equals(current.start());
            problems.add(new ManifestProblem(at, located ? position.toString() : "", label, e.where(), e.getMessage()));
        }
    }

    /**
     * {@code pods "team-a/train-0"}; objects with only a generateName get a key of their own (the API server
     * names them apart).
     *
     * @throws BadInput when the object has neither name nor generateName, in the API server's words
     */
    private String identity(HasMetadata value, ManifestKinds.Kind k) {
        String name = value.getMetadata() == null ? null : value.getMetadata().getName();
        String generateName =
                value.getMetadata() == null ? null : value.getMetadata().getGenerateName();
        if (name == null || name.isEmpty()) {
            if (generateName == null || generateName.isEmpty()) {
                throw new BadInput("metadata.name", "Required value: name or generateName is required");
            }
            return k.kind() + " #" + objects.size();
        }
        String resource = k.kind().toLowerCase() + "s";
        String ns = Manifests.namespaceOf(value);
        return k.kind() + " " + resource + " \"" + (ns.isEmpty() ? "" : ns + "/") + name + "\"";
    }

    /** {@code Pod team-a/train-0}, with as much as the object tells. */
    private static String label(JsonNode node, Optional<String[]> defaultType) {
        String kind =
                Json.text(node.get("kind")).or(() -> defaultType.map(t -> t[1])).orElse("");
        JsonNode meta = node.path("metadata");
        String name = Json.text(meta.get("name"))
                .or(() -> Json.text(meta.get("generateName")).map(g -> g + "*"))
                .orElse("");
        String ns = Json.text(meta.get("namespace")).orElse("");
        String what = kind + " " + (ns.isEmpty() || name.isEmpty() ? name : ns + "/" + name);
        return what.trim();
    }
}
