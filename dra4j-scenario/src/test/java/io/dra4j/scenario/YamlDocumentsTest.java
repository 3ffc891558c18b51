package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The shared YAML reader: YAML 1.1 as go-yaml v2 / sigs.k8s.io/yaml (kubectl) read it, with bounds. */
class YamlDocumentsTest {
    private static JsonNode one(String yaml) {
        List<YamlDocuments.Document> docs = YamlDocuments.read(yaml.getBytes(StandardCharsets.UTF_8));
        assertThat(docs).hasSize(1);
        return docs.get(0).root();
    }

    private static YamlDocuments.YamlError error(String yaml) {
        return catchThrowableOfType(
                YamlDocuments.YamlError.class, () -> YamlDocuments.read(yaml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aliasIsItsAnchorsValueNotItsName() {
        JsonNode root = one("""
                a: &m h100
                b: *m
                list: &l [1, 2]
                copy: *l
                """);
        assertThat(root.get("b").stringValue()).isEqualTo("h100");
        assertThat(root.get("copy").toString()).isEqualTo("[1,2]");
    }

    @Test
    void mergeKeyMergesAndExplicitKeysOverride() {
        JsonNode root = one("""
                base: &b {model: a100, memory: 40Gi}
                gpu:
                  <<: *b
                  memory: 80Gi
                """);
        assertThat(root.get("gpu").toString()).isEqualTo("{\"model\":\"a100\",\"memory\":\"80Gi\"}");
        assertThat(root.get("gpu").has("<<")).isFalse();
    }

    @Test
    void mergeOfASequenceGivesEarlierMappingsPrecedence() {
        JsonNode root = one("""
                x: &x {a: 1, b: 1}
                y: &y {b: 2, c: 2}
                z:
                  <<: [*x, *y]
                """);
        assertThat(root.get("z").toString()).isEqualTo("{\"b\":1,\"c\":2,\"a\":1}");
    }

    @Test
    void quotedMergeKeyIsAnOrdinaryKey() {
        assertThat(one("m: {'<<': {a: 1}}").get("m").has("<<")).isTrue();
    }

    @Test
    void mergeOfAScalarIsAnError() {
        assertThat(error("a: &s x\nb:\n  <<: *s\n").getMessage())
                .isEqualTo("map merge requires map or sequence of maps as the value");
    }

    @Test
    void billionLaughsFailsFastWithGoYamlsMessage() {
        StringBuilder y =
                new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char c = 'b'; c <= 'i'; c++) {
            char p = (char) (c - 1);
            y.append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 9; i++) {
                y.append(i == 0 ? "" : ",").append('*').append(p);
            }
            y.append("]\n");
        }
        YamlDocuments.YamlError e = error(y.toString());
        assertThat(e.getMessage()).isEqualTo("document contains excessive aliasing");
        assertThat(e.position().line()).isPositive();
    }

    @Test
    void manyAliasesInALargeDocumentAreFine() {
        StringBuilder y = new StringBuilder("base: &b {driver: gpu.example.com, model: h100}\ndevices:\n");
        for (int i = 0; i < 2000; i++) {
            y.append("- name: gpu-").append(i).append("\n  <<: *b\n");
        }
        JsonNode root = one(y.toString());
        assertThat(root.get("devices").size()).isEqualTo(2000);
        assertThat(root.get("devices").get(1999).get("model").stringValue()).isEqualTo("h100");
    }

    @Test
    void aliasContainingItselfIsAnError() {
        assertThat(error("a: &a [*a]\n").getMessage()).isEqualTo("anchor 'a' value contains itself");
    }

    @Test
    void unknownAnchorIsAnErrorWithPosition() {
        YamlDocuments.YamlError e = error("a: 1\nb: *nope\n");
        assertThat(e.getMessage()).isEqualTo("unknown anchor 'nope' referenced");
        assertThat(e.position()).isEqualTo(new YamlDocuments.Position(2, 4));
        assertThat(e.describe()).isEqualTo("malformed YAML at line 2, column 4: unknown anchor 'nope' referenced");
    }

    @Test
    void duplicateKeyIsAnErrorNamingBothPlaces() {
        YamlDocuments.YamlError e = error("a: 1\nb: 2\na: 3\n");
        assertThat(e.getMessage()).isEqualTo("key \"a\" already set in map (first at line 1, column 1)");
        assertThat(e.position()).isEqualTo(new YamlDocuments.Position(3, 1));
    }

    @Test
    void plainScalarsResolveAsYaml11() {
        JsonNode root = one("""
                yes1: yes
                on1: On
                no1: n
                quoted: "yes"
                hex: 0x1f
                octal: 017
                underscore: 1_000
                integralFloat: 2.0
                float: 1.5
                exp: 1e3
                big: 18446744073709551615
                stamp: 2024-01-02
                nul: ~
                version: 1.2.3
                str: !!str 5
                """);
        assertThat(root.get("yes1").isBoolean()).isTrue();
        assertThat(root.get("on1").booleanValue()).isTrue();
        assertThat(root.get("no1").booleanValue()).isFalse();
        assertThat(root.get("quoted").stringValue()).isEqualTo("yes");
        assertThat(root.get("hex").intValue()).isEqualTo(31);
        assertThat(root.get("octal").intValue()).isEqualTo(15);
        assertThat(root.get("underscore").intValue()).isEqualTo(1000);
        assertThat(root.get("integralFloat").isIntegralNumber()).isTrue();
        assertThat(root.get("integralFloat").longValue()).isEqualTo(2);
        assertThat(root.get("float").doubleValue()).isEqualTo(1.5);
        assertThat(root.get("exp").longValue()).isEqualTo(1000);
        assertThat(root.get("big").bigIntegerValue().toString()).isEqualTo("18446744073709551615");
        assertThat(root.get("stamp").stringValue()).isEqualTo("2024-01-02");
        assertThat(root.get("nul").isNull()).isTrue();
        assertThat(root.get("version").stringValue()).isEqualTo("1.2.3");
        assertThat(root.get("str").stringValue()).isEqualTo("5");
    }

    @Test
    void keysBecomeStringsAsSigsYamlWritesThem() {
        JsonNode root = one("1: a\ntrue: b\n1.5: c\n0x10: d\n");
        assertThat(root.propertyNames()).containsExactly("1", "true", "1.5", "16");
    }

    @Test
    void mappingAsKeyIsAnError() {
        assertThat(error("? {a: 1}\n: x\n").getMessage()).startsWith("invalid map key");
    }

    @Test
    void infinityHasNoJsonForm() {
        assertThat(error("a: .inf\n").getMessage()).isEqualTo("json: unsupported value: +Inf");
    }

    @Test
    void fileOverSnakeyamlsDefaultCodePointLimitIsRead() {
        StringBuilder y = new StringBuilder("devices:\n");
        String pad = "x".repeat(100);
        int n = 0;
        while (y.length() < 5_000_000) {
            y.append("- name: device-")
                    .append(n++)
                    .append("\n  note: ")
                    .append(pad)
                    .append('\n');
        }
        assertThat(one(y.toString()).get("devices").size()).isEqualTo(n);
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() {
        String deep = "a: " + "[".repeat(100_000) + "]".repeat(100_000);
        YamlDocuments.YamlError e = error(deep);
        assertThat(e.getMessage()).startsWith("exceeded max depth of " + YamlDocuments.MAX_DEPTH);
        YamlDocuments.YamlError json = error("[".repeat(100_000) + "]".repeat(100_000));
        assertThat(json.describe()).startsWith("malformed JSON at line 1").contains("(" + YamlDocuments.MAX_DEPTH);
    }

    @Test
    void nestingWithinTheLimitIsRead() {
        String deep = "a: " + "[".repeat(YamlDocuments.MAX_DEPTH - 1) + "]".repeat(YamlDocuments.MAX_DEPTH - 1);
        assertThat(one(deep).get("a").isArray()).isTrue();
    }

    @Test
    void aliasExpansionCannotExceedTheDepthLimit() {
        StringBuilder y = new StringBuilder("a0: &a0 [1]\n");
        for (int i = 1; i < 40; i++) {
            y.append("a")
                    .append(i)
                    .append(": &a")
                    .append(i)
                    .append(" ")
                    .append("[".repeat(30))
                    .append("*a")
                    .append(i - 1)
                    .append("]".repeat(30))
                    .append('\n');
        }
        assertThat(error(y.toString()).getMessage()).startsWith("exceeded max depth of");
    }

    @Test
    void truncatedFlowSequenceIsMalformedWithPosition() {
        YamlDocuments.YamlError e = error("a: [1, 2\n");
        assertThat(e.position().line()).isPositive();
        assertThat(e.describe()).startsWith("malformed YAML at line ");
    }

    @Test
    void binaryInputIsAnErrorNotACrash() {
        byte[] binary = new byte[256];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }
        assertThatThrownBy(() -> YamlDocuments.read(binary)).isInstanceOf(YamlDocuments.YamlError.class);
    }

    @Test
    void multipleDocumentsKeepTheirOwnAnchorsAndPositions() {
        List<YamlDocuments.Document> docs = YamlDocuments.read("""
                a: &x 1
                ---
                ---
                b: 2
                """.getBytes(StandardCharsets.UTF_8));
        assertThat(docs).hasSize(2);
        assertThat(docs.get(1).start().line()).isEqualTo(4);
        assertThat(error("a: &x 1\n---\nb: *x\n").getMessage()).isEqualTo("unknown anchor 'x' referenced");
    }

    @Test
    void jsonStreamOfSeveralObjectsIsReadAsKubectlDoes() {
        List<YamlDocuments.Document> docs =
                YamlDocuments.read("{\"a\": 1}\n{\"b\": 2}\n[3]".getBytes(StandardCharsets.UTF_8));
        assertThat(docs).extracting(d -> d.root().toString()).containsExactly("{\"a\":1}", "{\"b\":2}", "[3]");
        assertThat(docs.get(1).index()).isEqualTo(2);
        assertThat(docs.get(1).start()).isEqualTo(new YamlDocuments.Position(2, 1));
        assertThat(error("{\"a\": 1, \"a\": 2}").describe()).startsWith("malformed JSON at line 1");
        assertThat(error("{\"a\": 1}\n{\"b\": ").document()).isEqualTo(2);
    }

    @Test
    void jsonIsReadToo() {
        JsonNode root = one("{\"count\": 2, \"name\": \"yes\", \"on\": true}");
        assertThat(root.get("count").intValue()).isEqualTo(2);
        assertThat(root.get("name").stringValue()).isEqualTo("yes");
    }

    @Test
    void locateFindsTheValueOfAFieldPath() {
        YamlDocuments.Document doc =
                YamlDocuments.read("""
                claims:
                - metadata:
                    name: c
                  spec:
                    devices:
                      requests:
                      - name: r
                        exactly: {count: 1.5}
                """.getBytes(StandardCharsets.UTF_8)).get(0);
        assertThat(doc.locate("claims[0] (ResourceClaim c): spec.devices.requests[0].exactly.count"))
                .isEqualTo(new YamlDocuments.Position(8, 26));
        assertThat(doc.locate("claims[0] (ResourceClaim c): spec.nothing.here"))
                .isEqualTo(new YamlDocuments.Position(5, 5));
    }
}
