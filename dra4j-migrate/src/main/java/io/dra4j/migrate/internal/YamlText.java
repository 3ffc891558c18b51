package io.dra4j.migrate.internal;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * Writes JSON trees as YAML in kubectl's layout (lists not indented under their key, quotes only where needed), and
 * checks that what it wrote reads back as the same tree the way Kubernetes reads YAML.
 */
public final class YamlText {
    private final YAMLMapper mapper = YAMLMapper.builder()
            .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
            .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
            .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .disable(YAMLWriteFeature.SPLIT_LINES)
            .build();

    /** The YAML text of one document, ending in a newline; empty when it would not read back as {@code tree}. */
    public Optional<String> write(JsonNode tree) {
        String text = mapper.writeValueAsString(tree);
        List<YamlDocuments.Document> back = YamlDocuments.read(text);
        if (back.size() != 1
                || back.get(0).root() == null
                || !Trees.of(back.get(0).root(), 1).tree().equals(YamlText::compareScalars, tree)) {
            return Optional.empty();
        }
        return Optional.of(text.endsWith("\n") ? text : text + "\n");
    }

    /** Numbers compare by value (an int written reads back as a long); other scalars by equality. */
    private static int compareScalars(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    }

    /** The comment lines a document's text starts with (Helm's {@code # Source:} lines), each ending in a newline. */
    public static String leadingComments(String chunk) {
        StringBuilder sb = new StringBuilder();
        for (String line : chunk.split("\n", -1)) {
            String t = line.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (!t.startsWith("#")) {
                break;
            }
            sb.append(line).append('\n');
        }
        return sb.toString();
    }
}
