package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Aliases, merge keys and YAML 1.1 scalars read as kubectl reads them: every file under {@code yaml-kubectl/} through
 * dra4j's reader, against what k8s.io/apimachinery's document reader and sigs.k8s.io/yaml made of it
 * ({@code expected.jsonl}, recorded with {@code oracle/validate/bin/validate-oracle -yaml2json}).
 */
class KubectlYamlTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    static List<JsonNode> cases() throws IOException, URISyntaxException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir().resolve("expected.jsonl"))) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    private static Path dir() throws URISyntaxException {
        return Path.of(Objects.requireNonNull(KubectlYamlTest.class.getResource("/yaml-kubectl/expected.jsonl"))
                        .toURI())
                .getParent();
    }

    /** The same JSON value whatever node classes the reader chose for numbers. */
    private static JsonNode normal(JsonNode node) {
        return JSON.readTree(JSON.writeValueAsString(node));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readAsKubectlReadsIt(JsonNode expected) throws Exception {
        String file = expected.get("file").asString();
        byte[] content = Files.readAllBytes(dir().resolve(file));
        List<JsonNode> documents = new ArrayList<>();
        String error = null;
        try {
            YamlDocuments.read(content, doc -> documents.add(normal(doc.root())));
        } catch (YamlDocuments.YamlError e) {
            error = e.describe();
        }
        List<JsonNode> want = new ArrayList<>();
        expected.path("documents").forEach(d -> want.add(normal(d)));
        assertThat(documents).as(file).isEqualTo(want);
        if (expected.has("error")) {
            assertThat(error)
                    .as(
                            "%s: kubectl's reader fails with %s",
                            file, expected.get("error").asString())
                    .isNotNull();
        } else {
            assertThat(error).as(file).isNull();
        }
    }
}
