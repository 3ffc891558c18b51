package io.dra4j.migrate.internal;

import io.dra4j.migrate.Finding;
import io.dra4j.scenario.ManifestObject;
import io.dra4j.scenario.ManifestProblem;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The objects of lint's inputs, each as written (for the rules about versions), as v1 (converted by
 * {@link V1Conversion}, for the rules about fields) and, for the kinds dra4j models, decoded and validated by the
 * scenario reader (the API server's checks in {@code ApiValidation}, for the rules that evaluate). Every object keeps
 * its file and the positions of its fields.
 */
public final class LintObjects {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One object of an input. {@code prefix} is its path in the document ({@code items[3]} inside a List). */
    public record LintObject(
            String source,
            Trees.Positions positions,
            String prefix,
            JsonNode original,
            JsonNode v1,
            HasMetadata typed) {
        public String apiVersion() {
            return text(original, "apiVersion");
        }

        public String kind() {
            return text(original, "kind");
        }

        public String name() {
            return text(original.path("metadata"), "name");
        }

        public String namespace() {
            String ns = text(original.path("metadata"), "namespace");
            return ns.isEmpty() ? Manifests.DEFAULT_NAMESPACE : ns;
        }

        /** {@code DeviceClass gpu} or {@code ResourceClaim team-a/train}. */
        public String label() {
            boolean clusterScoped = kind().equals("DeviceClass")
                    || kind().equals("ResourceSlice")
                    || kind().equals("Node")
                    || kind().equals("DeviceTaintRule");
            return kind() + " " + (clusterScoped ? name() : namespace() + "/" + name());
        }

        /** A finding at a field path of this object (relative to the object). */
        public Finding at(String path, Finding.Severity severity, String rule, String message) {
            String full = prefix.isEmpty() ? path : path.isEmpty() ? prefix : prefix + "." + path;
            int[] pos = positions.of(written(positions, full));
            return new Finding(source, pos[0], pos[1], severity, rule, message);
        }
    }

    private LintObjects() {}

    /**
     * Where a v1 field path sits in what was written: itself, or, for an object of an older version, the path with
     * the request fields directly in the request (no {@code exactly}) or a slice's device fields under {@code basic}.
     */
    private static String written(Trees.Positions positions, String full) {
        if (positions.has(full)) {
            return full;
        }
        List<String> older = List.of(
                full.replace(".exactly.", ".").replaceAll("\\.exactly$", ""),
                full.replaceFirst("(spec\\.devices\\[\\d+\\])\\.", "$1.basic."));
        return older.stream().filter(positions::has).findFirst().orElse(full);
    }

    /** The objects of one input text; what cannot be read goes to {@code findings}. */
    public static List<LintObject> read(String source, String text, List<Finding> findings) {
        ApiSchema schema = ApiSchema.kubernetes137();
        ApiSchema legacy = ApiSchema.kubernetes132();
        List<LintObject> out = new ArrayList<>();
        for (YamlDocuments.Document doc : YamlDocuments.read(text)) {
            if (doc.error() != null) {
                findings.add(new Finding(
                        source,
                        doc.error().line(),
                        doc.error().column(),
                        Finding.Severity.ERROR,
                        "invalid-yaml",
                        "document " + (doc.index() + 1) + ": " + doc.error().message()));
                continue;
            }
            if (doc.root() == null) {
                continue;
            }
            Trees.Located located;
            try {
                located = Trees.of(doc.root(), doc.startLine());
            } catch (Trees.TreeError e) {
                int[] pos = new int[] {doc.startLine(), 1};
                findings.add(new Finding(
                        source,
                        pos[0],
                        pos[1],
                        Finding.Severity.ERROR,
                        "invalid-yaml",
                        "document " + (doc.index() + 1) + ": " + (e.path().isEmpty() ? "" : e.path() + ": ")
                                + e.getMessage()));
                continue;
            }
            Notes notes = new Notes();
            V1Conversion.Result converted = V1Conversion.convert(schema, legacy, located.tree(), notes);
            for (Notes.Note n : notes.all()) {
                int[] pos = located.positions().of(n.path());
                findings.add(new Finding(source, pos[0], pos[1], n.severity(), n.rule(), n.message()));
            }
            if (converted.tree() == null) {
                continue;
            }
            split(source, located, converted.tree(), out, findings);
        }
        return out;
    }

    /** One object per document, or per item of a {@code kind: List}, with its decoded form where dra4j has one. */
    private static void split(
            String source, Trees.Located located, JsonNode v1, List<LintObject> out, List<Finding> findings) {
        JsonNode original = located.tree();
        Manifests typed = ManifestReader.parse(JSON.writeValueAsBytes(v1), source);
        boolean list =
                text(original, "kind").equals("List") && original.path("items").isArray();
        for (ManifestProblem p : typed.problems()) {
            String prefix =
                    list && p.origin().item() >= 0 ? "items[" + p.origin().item() + "]" : "";
            String path = prefix.isEmpty() ? p.field() : p.field().isEmpty() ? prefix : prefix + "." + p.field();
            int[] pos = located.positions().of(path);
            findings.add(new Finding(
                    source,
                    pos[0],
                    pos[1],
                    Finding.Severity.ERROR,
                    "invalid-object",
                    (p.object().isEmpty() ? "" : p.object() + ": ")
                            + (p.field().isEmpty() ? "" : p.field() + ": ")
                            + p.message()));
        }
        if (!list) {
            out.add(new LintObject(source, located.positions(), "", original, v1, typedAt(typed, -1)));
            return;
        }
        for (int i = 0; i < original.get("items").size(); i++) {
            out.add(new LintObject(
                    source,
                    located.positions(),
                    "items[" + i + "]",
                    original.get("items").get(i),
                    v1.path("items").path(i),
                    typedAt(typed, i)));
        }
    }

    private static HasMetadata typedAt(Manifests typed, int item) {
        for (ManifestObject o : typed.objects()) {
            if (o.origin().item() == item) {
                return o.object();
            }
        }
        return null;
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isString() ? v.asString() : "";
    }

    /** The JSON text of a tree, for messages. */
    static String json(JsonNode node) {
        return new String(JSON.writeValueAsBytes(node), StandardCharsets.UTF_8);
    }
}
