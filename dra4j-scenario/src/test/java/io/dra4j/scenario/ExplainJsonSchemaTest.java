package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.KubernetesVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** docs/explain-json.md against the record types and against what ExplanationWriter writes. */
class ExplainJsonSchemaTest {
    private static final Path DOC = RepoPaths.repoRoot().resolve("docs/explain-json.md");
    /** A table row: the field, then the rest of the line (its type may hold an escaped \\|). */
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| (.*)$", Pattern.MULTILINE);

    private static final Pattern SUBFIELDS = Pattern.compile("`\\{([^}]+)}`");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static String doc() throws Exception {
        return Files.readString(DOC);
    }

    /** Documented field paths ({@code claims[].requests[].funnel[].stage}); arrays end in []. */
    private static Set<String> documentedFields() throws Exception {
        Set<String> out = new TreeSet<>();
        Matcher m = ROW.matcher(doc());
        while (m.find()) {
            String name = m.group(1).replace("\u2026requests[]", "claims[].requests[]");
            out.add(name);
            Matcher sub = SUBFIELDS.matcher(
                    m.group(2).substring(0, Math.max(0, m.group(2).indexOf(" | "))));
            if (sub.find()) {
                for (String f : sub.group(1).split(",\\s*")) {
                    out.add(name + "." + f.trim());
                }
            }
        }
        return out;
    }

    private static List<String> backticked(String text, String after, String before) throws Exception {
        String d = doc();
        int from = d.indexOf(after);
        int to = d.indexOf(before, from);
        assertThat(from).as("doc has '%s'", after).isNotNegative();
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("`([^`]+)`").matcher(d.substring(from + after.length(), to));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void reasonsAreTheEnumInItsOrder() throws Exception {
        assertThat(backticked(doc(), "`reason` is one of", "(in the order"))
                .containsExactlyElementsOf(Arrays.stream(Explanation.Reason.values())
                        .map(Enum::name)
                        .toList());
    }

    @Test
    void changeKindsAreThePermittedRecords() throws Exception {
        assertThat(new TreeSet<>(backticked(doc(), "`change` is the kind:", "|")))
                .isEqualTo(new TreeSet<>(Arrays.stream(Explanation.Change.class.getPermittedSubclasses())
                        .map(Class::getSimpleName)
                        .toList()));
    }

    /** Every field written is documented, and every documented array is in every record. */
    @Test
    void writtenRecordsMatchTheDocumentedFields() throws Exception {
        Set<String> documented = documentedFields();
        List<String> lines = new ArrayList<>();
        for (String name :
                List.of("tainted-two-devices", "with-class-device-config", "cel-runtime-error-lookup-identifier")) {
            Path file = RepoPaths.conformanceCases().resolve(name + ".yaml");
            if (Files.exists(file)) {
                Scenario s = ScenarioReader.read(file);
                Explanation x = ScenarioRunner.explain(s, KubernetesVersion.LATEST);
                lines.add(ExplanationWriter.json(s.name(), x));
                String claim = s.claims().get(0).getMetadata().getName();
                String line = ExplanationWriter.jsonForClaim(
                        "pod default/p",
                        x,
                        "default/p",
                        "default/" + claim,
                        s.node().getMetadata().getName());
                assertThat(JSON.readTree(line).get("claims")).as(line).hasSize(1);
                lines.add(line);
            }
        }
        assertThat(lines).hasSizeGreaterThanOrEqualTo(2);
        lines.add(ExplanationWriter.unreadable(
                "broken", "scenario file broken.yaml: malformed YAML at line 1, column 1: x"));
        Set<String> topArrays = new LinkedHashSet<>();
        for (String f : documented) {
            if (f.endsWith("[]") && !f.contains(".")) {
                topArrays.add(f.substring(0, f.length() - 2));
            }
        }
        assertThat(topArrays).contains("claims", "pools", "suggestions");
        for (String line : lines) {
            JsonNode root = JSON.readTree(line);
            Set<String> written = new TreeSet<>();
            paths(root, "", written);
            assertThat(written).as(line).isSubsetOf(documented);
            for (String array : topArrays) {
                assertThat(root.has(array) && root.get(array).isArray())
                        .as("%s in %s", array, line)
                        .isTrue();
            }
        }
    }

    private static void paths(JsonNode node, String at, Set<String> out) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                String p = at.isEmpty() ? e.getKey() : at + "." + e.getKey();
                if (e.getValue().isArray()) {
                    out.add(p + "[]");
                    for (JsonNode item : e.getValue()) {
                        if (item.isObject()) {
                            paths(item, p + "[]", out);
                        }
                    }
                } else {
                    out.add(p);
                    paths(e.getValue(), p, out);
                }
            }
        }
    }
}
