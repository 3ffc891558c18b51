package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dra4j.migrate.internal.Trees;
import io.dra4j.migrate.internal.YamlDocuments;
import io.dra4j.migrate.internal.YamlText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code convert} against Kubernetes' own conversion code: generated objects of every version and the realistic
 * manifests under {@code src/test/resources/convert/} go through dra4j and through {@code oracle/convert}
 * (k8s.io/kubernetes v1.37.2), which decides per object whether both reject it or both give the same v1 object.
 * v1alpha3 claims, classes and slices (served until 1.32) take the path they took in a cluster: 1.32's conversion code
 * ({@code oracle/convert-v132}, k8s.io/kubernetes v1.32.13) to v1beta1, then 1.37's to v1.
 * Runs when {@code -Ddra4j.convert.oracle=PATH} and {@code -Ddra4j.convert.oracle132=PATH} name the oracle binaries
 * ({@code oracle/convert/difftest} builds and passes them); {@code dra4j.convert.seed} and {@code dra4j.convert.count}
 * size the run.
 */
class ConvertDifferentialIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final java.util.Set<String> LEGACY_KINDS = java.util.Set.of(
            "DeviceClass",
            "ResourceClaim",
            "ResourceClaimTemplate",
            "ResourceSlice",
            "DeviceClassList",
            "ResourceClaimList",
            "ResourceClaimTemplateList",
            "ResourceSliceList");

    record Case(String name, String yaml) {}

    @Test
    void convertAgreesWithUpstream() throws Exception {
        String oracle = System.getProperty("dra4j.convert.oracle");
        assumeTrue(oracle != null && !oracle.isEmpty(), "set -Ddra4j.convert.oracle (oracle/convert/difftest does)");
        String oracle132 = System.getProperty("dra4j.convert.oracle132", "");
        assertThat(Path.of(oracle)).as("convert oracle binary").isExecutable();
        assertThat(Path.of(oracle132)).as("1.32 convert oracle binary").isExecutable();
        long seed = Long.getLong("dra4j.convert.seed", 1);
        int count = Integer.getInteger("dra4j.convert.count", 500);

        List<Case> cases = new ArrayList<>(manifests());
        int manifests = cases.size();
        OldObjects gen = new OldObjects(seed);
        YamlText yaml = new YamlText();
        for (int i = 0; i < count; i++) {
            ObjectNode obj = gen.next();
            cases.add(new Case(
                    "generated seed " + seed + " #" + i, yaml.write(obj).orElseThrow()));
        }

        List<JsonNode> results = compare(oracle, oracle132, cases);
        assertThat(results).hasSize(cases.size());
        List<String> differences = new ArrayList<>();
        int rejectedByBoth = 0;
        for (int i = 0; i < cases.size(); i++) {
            JsonNode res = results.get(i);
            if (!res.path("equal").asBoolean(false)) {
                differences.add(cases.get(i).name() + ":\n" + cases.get(i).yaml() + "  -> "
                        + res.path("detail").asString() + "\n  upstream: " + res.path("upstream")
                        + res.path("upstreamError").asString());
            } else if (res.has("upstreamError")) {
                rejectedByBoth++;
            }
        }
        System.out.printf(
                "convert difftest: %d objects (%d from manifests, %d generated with seed %d; %d rejected "
                        + "by both), %d differences%n",
                cases.size(), manifests, count, seed, rejectedByBoth, differences.size());
        assertThat(differences).as("differences from upstream's conversion").isEmpty();
        assertThat(rejectedByBoth)
                .as("some generated inputs are ones upstream rejects")
                .isPositive();
        assertThat(rejectedByBoth).as("most generated inputs convert").isLessThan(cases.size() / 4);
    }

    /** Every document of the realistic manifests, as its own case. */
    private static List<Case> manifests() throws IOException {
        Path dir = Path.of("src/test/resources/convert");
        List<Case> cases = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                for (YamlDocuments.Document d : YamlDocuments.read(Files.readString(f))) {
                    if (d.blank()) {
                        continue;
                    }
                    cases.add(new Case(f.getFileName() + " document " + (d.index() + 1), d.text()));
                }
            }
        }
        assertThat(cases).as("manifests under " + dir).isNotEmpty();
        return cases;
    }

    /**
     * Converts each case with dra4j and has the oracle judge all of them in one process; legacy v1alpha3 cases go
     * through the 1.32 oracle first, whose v1beta1 result is what the 1.37 oracle then converts.
     */
    private static List<JsonNode> compare(String oracle, String oracle132, List<Case> cases) throws Exception {
        ApiConverter converter = new ApiConverter();
        List<Integer> legacy = new ArrayList<>();
        List<String> legacyLines = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            if (isLegacy(cases.get(i).yaml())) {
                legacy.add(i);
                legacyLines.add(JSON.writeValueAsString(
                        JSON.createObjectNode().put("inputYaml", cases.get(i).yaml())));
            }
        }
        List<JsonNode> beta1 = run(oracle132, List.of(), legacyLines);
        assertThat(beta1).hasSize(legacy.size());
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            ApiConverter.Result result = converter.toV1(c.name(), c.yaml());
            ObjectNode line = JSON.createObjectNode();
            int li = legacy.indexOf(i);
            if (li < 0) {
                line.put("inputYaml", c.yaml());
            } else if (beta1.get(li).has("error")) {
                // 1.32 rejects it: give the 1.37 oracle something it rejects too, with 1.32's reason.
                line.put(
                        "inputYaml",
                        "1.32 rejects it: " + beta1.get(li).get("error").asString());
            } else {
                line.set("input", beta1.get(li).get("v1beta1"));
            }
            if (result.hasErrors()) {
                line.put(
                        "dra4jError",
                        result.findings().stream()
                                .filter(f -> f.severity() == Finding.Severity.ERROR)
                                .findFirst()
                                .orElseThrow()
                                .format());
            } else {
                List<YamlDocuments.Document> out = YamlDocuments.read(result.output());
                assertThat(out).as(c.name() + ": one document out").hasSize(1);
                line.set("dra4j", Trees.of(out.get(0).root(), 1).tree());
            }
            lines.add(JSON.writeValueAsString(line));
        }
        return run(oracle, List.of("-compare"), lines);
    }

    /** A v1alpha3 claim, class or slice of 1.31/1.32 (or a list of them). */
    private static boolean isLegacy(String yaml) {
        List<YamlDocuments.Document> docs = YamlDocuments.read(yaml);
        if (docs.size() != 1 || docs.get(0).root() == null) {
            return false;
        }
        JsonNode tree;
        try {
            tree = Trees.of(docs.get(0).root(), 1).tree();
        } catch (Trees.TreeError e) {
            return false;
        }
        return tree.path("apiVersion").asString("").equals("resource.k8s.io/v1alpha3")
                && LEGACY_KINDS.contains(tree.path("kind").asString(""));
    }

    /** Feeds JSON Lines to an oracle process and reads one JSON line back per line. */
    private static List<JsonNode> run(String binary, List<String> args, List<String> lines) throws Exception {
        List<String> command = new ArrayList<>(List.of(binary));
        command.addAll(args);
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        CompletableFuture<Void> feed = CompletableFuture.runAsync(() -> {
            try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
                for (String l : lines) {
                    w.write(l);
                    w.write('\n');
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        List<JsonNode> results = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                results.add(JSON.readTree(l));
            }
        }
        feed.get();
        assertThat(p.waitFor()).as("oracle exit status").isZero();
        return results;
    }
}
