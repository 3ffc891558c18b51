package io.dra4j.testkit.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Every generated scenario is one the upstream oracle reads (its decoding is strict: unknown fields are errors). */
class ScenarioGeneratorOracleIT {
    private static final Path ORACLE_DIR = Path.of("..", "oracle");

    @Test
    void theOracleReadsEveryGeneratedScenario() throws Exception {
        Path oracle = oracleBinary();
        Path input = Files.createTempFile("generated", ".jsonl");
        Path output = Files.createTempFile("outcomes", ".jsonl");
        try {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                lines.add(ScenarioGenerator.toJsonLine(ScenarioGenerator.generate(2024, i)));
            }
            Files.write(input, lines, StandardCharsets.UTF_8);
            Process p = new ProcessBuilder(oracle.toString(), "-")
                    .redirectInput(input.toFile())
                    .redirectOutput(output.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue())
                    .as("oracle exit status (1 = some input unreadable)")
                    .isZero();
            List<String> outcomes = Files.readAllLines(output, StandardCharsets.UTF_8);
            assertThat(outcomes).hasSize(lines.size());
            JsonMapper json = JsonMapper.builder().build();
            for (String line : outcomes) {
                JsonNode o = json.readTree(line);
                assertThat(o.path("error").asString(""))
                        .as(o.path("scenario").asString())
                        .doesNotStartWith("stdin");
            }
        } finally {
            Files.deleteIfExists(input);
            Files.deleteIfExists(output);
        }
    }

    /**
     * oracle/bin/oracle, built with go when it is missing; the test is skipped without either, unless
     * DRA4J_ORACLE_REQUIRED=1 (run-tests builds the oracle first and sets it), where a missing oracle fails.
     */
    private static Path oracleBinary() throws IOException, InterruptedException {
        Path binary = ORACLE_DIR.resolve("bin").resolve("oracle");
        boolean required = "1".equals(System.getenv("DRA4J_ORACLE_REQUIRED"));
        if (!Files.isExecutable(binary)) {
            try {
                Process build = new ProcessBuilder("go", "build", "-o", "bin/oracle", "./cmd/oracle")
                        .directory(ORACLE_DIR.toFile())
                        .inheritIO()
                        .start();
                if (!build.waitFor(900, TimeUnit.SECONDS)) {
                    build.destroyForcibly();
                }
            } catch (IOException e) {
                assertThat(required)
                        .as("DRA4J_ORACLE_REQUIRED=1 but go cannot run: %s", e.getMessage())
                        .isFalse();
                assumeTrue(false, "no oracle binary and no go toolchain: " + e.getMessage());
            }
        }
        if (required) {
            assertThat(binary).as("DRA4J_ORACLE_REQUIRED=1: the oracle binary").isExecutable();
        }
        assumeTrue(Files.isExecutable(binary), "oracle binary not available");
        return binary;
    }
}
