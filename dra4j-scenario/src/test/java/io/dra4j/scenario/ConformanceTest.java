package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.KubernetesVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every shared conformance case and every scenario of the repository through {@link ScenarioRunner} and
 * compares the outcome with the scenario's expectation ({@link OutcomeComparison}, the rules of check.py). Also
 * checks that a run leaves its inputs unchanged.
 */
class ConformanceTest {

    @TestFactory
    Stream<DynamicTest> sharedConformanceCases() {
        List<Path> files = RepoPaths.yamlFiles(RepoPaths.conformanceCases());
        assertThat(files)
                .as("conformance cases in %s", RepoPaths.conformanceCases())
                .isNotEmpty();
        return files.stream().map(f -> DynamicTest.dynamicTest(name(f), f.toUri(), () -> check(f)));
    }

    @TestFactory
    Stream<DynamicTest> repositoryScenarios() {
        List<Path> files = new java.util.ArrayList<>(
                RepoPaths.yamlFiles(RepoPaths.repoRoot().resolve("scenarios")));
        files.addAll(
                RepoPaths.yamlFiles(RepoPaths.repoRoot().resolve("scenarios").resolve("regressions")));
        return files.stream().map(f -> DynamicTest.dynamicTest(name(f), f.toUri(), () -> check(f)));
    }

    private static void check(Path file) throws ScenarioException {
        Scenario scenario = ScenarioReader.read(file);
        assertThat(scenario.name()).as("name of %s", file).isEqualTo(name(file));
        Expectation expected =
                scenario.expectation().orElseThrow(() -> new AssertionError(file + " has no expect block"));

        String before = snapshot(scenario);
        AllocationOutcome outcome = ScenarioRunner.run(scenario, KubernetesVersion.LATEST);
        assertThat(snapshot(scenario)).as("inputs of %s after the run", file).isEqualTo(before);

        ScenarioOutcome result = ScenarioOutcome.of(scenario, outcome);
        Optional<String> mismatch = OutcomeComparison.compare(expected, result);
        if (mismatch.isPresent()) {
            fail(scenario.name() + ": " + mismatch.get() + "\nactual: " + OutcomeWriter.json(result));
        }
    }

    /** Everything a run could modify, serialized. */
    private static String snapshot(Scenario s) {
        List<Object> parts = new ArrayList<>();
        parts.add(s.node());
        parts.add(s.deviceClasses());
        parts.add(s.resourceSlices());
        parts.add(s.deviceTaintRules());
        parts.add(s.claims());
        for (AllocatedDevice d : s.allocatedDevices()) {
            parts.add(d instanceof AllocatedDevice.Claim c ? c.claim() : d.toString());
        }
        return Mappers.READER.writeValueAsString(parts);
    }

    private static String name(Path file) {
        String f = file.getFileName().toString();
        return f.substring(0, f.length() - ".yaml".length());
    }
}
