package io.dra4j.testkit.diff;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.OutcomeWriter;
import io.dra4j.scenario.Scenario;
import io.dra4j.scenario.ScenarioException;
import io.dra4j.scenario.ScenarioOutcome;
import io.dra4j.scenario.ScenarioReader;
import io.dra4j.scenario.ScenarioRunner;
import io.dra4j.testkit.gen.ScenarioGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * dra4j, run exactly as {@code dra4j allocate --output json} runs a scenario file: the scenario is written to a file,
 * read with {@link ScenarioReader}, allocated with {@link ScenarioRunner} and rendered with {@link OutcomeWriter}.
 * An unexpected exception inside dra4j becomes an error outcome naming it, so that it shows up as a divergence.
 * Not thread-safe: it reuses one scratch file.
 */
final class Dra4jEngine implements Engine {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Path file;

    Dra4jEngine(Path scratchDir) {
        this.file = scratchDir.resolve("scenario.yaml");
    }

    @Override
    public JsonNode run(ObjectNode scenario) {
        try {
            Files.writeString(file, ScenarioGenerator.toYaml(scenario), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ScenarioOutcome outcome;
        try {
            Scenario parsed = ScenarioReader.read(file);
            try {
                outcome = ScenarioOutcome.of(parsed, ScenarioRunner.run(parsed, KubernetesVersion.LATEST));
            } catch (RuntimeException | StackOverflowError e) {
                outcome = ScenarioOutcome.of(parsed, new AllocationOutcome.Failed("dra4j internal error: " + e, false));
            }
        } catch (ScenarioException e) {
            outcome = ScenarioOutcome.unreadable(e);
        }
        return JSON.readTree(OutcomeWriter.json(outcome));
    }
}
