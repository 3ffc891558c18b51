package io.dra4j.migrate;

import io.dra4j.migrate.internal.ApiSchema;
import io.dra4j.migrate.internal.Notes;
import io.dra4j.migrate.internal.Trees;
import io.dra4j.migrate.internal.V1Conversion;
import io.dra4j.migrate.internal.YamlDocuments;
import io.dra4j.migrate.internal.YamlText;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts resource.k8s.io objects of v1alpha3, v1beta1 and v1beta2 shape (DeviceClass, ResourceClaim,
 * ResourceClaimTemplate, ResourceSlice, DeviceTaintRule and their lists) to v1 by upstream's conversion rules,
 * from YAML text with any number of documents. Other documents, v1 objects and documents that cannot be converted
 * are written back unchanged (byte for byte), so the output is complete; the problems are in the findings.
 * Thread-safe: it holds no state between calls.
 */
public final class ApiConverter {
    private final YamlText yaml = new YamlText();
    private final ApiSchema schema = ApiSchema.kubernetes137();
    private final ApiSchema legacySchema = ApiSchema.kubernetes132();

    /**
     * The outcome for one input text.
     *
     * @param output    the converted text: every document of the input, in order, separated by {@code ---}
     * @param findings  what could not be converted (errors) and what was dropped for having no v1 form (warnings)
     * @param documents how many non-empty documents the input has
     * @param converted how many of them were changed
     */
    public record Result(String output, List<Finding> findings, int documents, int converted) {
        public Result {
            findings = List.copyOf(findings);
        }

        public boolean hasErrors() {
            return findings.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR);
        }
    }

    /** Converts every document of {@code text}; {@code source} names it in findings. */
    public Result toV1(String source, String text) {
        List<Finding> findings = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        List<YamlDocuments.Document> documents = YamlDocuments.read(text);
        int converted = 0;
        for (int i = 0; i < documents.size(); i++) {
            YamlDocuments.Document doc = documents.get(i);
            if (i > 0 || text.startsWith("---")) {
                out.append("---\n");
            }
            String converted1 = convert(source, doc, findings);
            if (converted1 == null) {
                out.append(doc.text());
                if (!doc.text().endsWith("\n")) {
                    out.append('\n');
                }
            } else {
                out.append(converted1);
                converted++;
            }
        }
        int real = (int) documents.stream().filter(d -> !d.blank()).count();
        return new Result(out.toString(), findings, real, converted);
    }

    /** The converted text of one document, or null when it is kept as written. */
    private String convert(String source, YamlDocuments.Document doc, List<Finding> findings) {
        if (doc.error() != null) {
            findings.add(new Finding(
                    source,
                    doc.error().line(),
                    doc.error().column(),
                    Finding.Severity.ERROR,
                    "invalid-yaml",
                    "document " + (doc.index() + 1) + ": " + doc.error().message()));
            return null;
        }
        if (doc.root() == null) {
            return null;
        }
        Trees.Located located;
        try {
            located = Trees.of(doc.root(), doc.startLine());
        } catch (Trees.TreeError e) {
            findings.add(new Finding(
                    source,
                    doc.startLine(),
                    1,
                    Finding.Severity.ERROR,
                    "invalid-yaml",
                    "document " + (doc.index() + 1) + ": " + (e.path().isEmpty() ? "" : e.path() + ": ")
                            + e.getMessage()));
            return null;
        }
        Notes notes = new Notes();
        V1Conversion.Result result = V1Conversion.convert(schema, legacySchema, located.tree(), notes);
        for (Notes.Note n : notes.all()) {
            int[] pos = located.positions().of(n.path());
            findings.add(new Finding(source, pos[0], pos[1], n.severity(), n.rule(), n.message()));
        }
        if (result.tree() == null || !result.changed()) {
            return null;
        }
        return yaml.write(result.tree())
                .map(written -> YamlText.leadingComments(doc.text()) + written)
                .orElseGet(() -> {
                    findings.add(new Finding(
                            source,
                            doc.startLine(),
                            1,
                            Finding.Severity.ERROR,
                            "internal",
                            "document " + (doc.index() + 1) + ": the converted object would not read back "
                                    + "unchanged as YAML; it is kept as written"));
                    return null;
                });
    }
}
