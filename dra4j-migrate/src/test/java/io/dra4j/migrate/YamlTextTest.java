package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.migrate.internal.Trees;
import io.dra4j.migrate.internal.YamlDocuments;
import io.dra4j.migrate.internal.YamlText;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

class YamlTextTest {
    @Test
    void writtenYamlReadsBackAsTheSameTree() {
        OldObjects gen = new OldObjects(7);
        YamlText yaml = new YamlText();
        for (int i = 0; i < 500; i++) {
            ObjectNode obj = gen.next();
            int n = i;
            assertThat(yaml.write(obj))
                    .as(() -> "object #" + n + " written as\n"
                            + YAMLMapper.builder().build().writeValueAsString(obj) + "\nreads back as "
                            + readBack(YAMLMapper.builder().build().writeValueAsString(obj)))
                    .isPresent();
        }
    }

    @Test
    void stringsThatLookLikeOtherScalarsAreQuoted() {
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        for (String s : List.of(
                "yes",
                "no",
                "on",
                "off",
                "y",
                "n",
                "true",
                "null",
                "~",
                "1",
                "0x1F",
                "1e3",
                "1.5",
                "0755",
                "",
                " lead",
                "a: b",
                "#c",
                "- x",
                "2026-05-01",
                "0000:3b:00.0",
                "1Gi")) {
            obj.put("k" + obj.size(), s);
        }
        assertThat(new YamlText().write(obj)).isPresent();
    }

    private static String readBack(String text) {
        List<YamlDocuments.Document> docs = YamlDocuments.read(text);
        if (docs.size() != 1 || docs.get(0).root() == null) {
            return docs.size() + " documents; "
                    + (docs.isEmpty() ? "" : docs.get(0).error());
        }
        JsonNode tree = Trees.of(docs.get(0).root(), 1).tree();
        return tree.toString();
    }
}
