package io.dra4j.scenario;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.KubernetesVersion;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs every shared conformance case and every scenario of the repository through {@link ScenarioRunner} and
 * compares the outcome with the scenario's expectation ({@link OutcomeComparison}, the rules of check.py). For the
 * shared cases whose expectation upstream v0.37.2 no longer reproduces, the expectation comes from
 * scenarios/overrides/conformance-overrides.yaml. Also checks that a run leaves its inputs unchanged.
 */
class ConformanceTest {
    private static final Path OVERRIDES =
            RepoPaths.repoRoot().resolve("scenarios").resolve("overrides").resolve("conformance-overrides.yaml");

    /** An override: the replacement expectation for one shared case, and why. */
    private record Override(String reason, Expectation expect) {
    }

    @TestFactory
    Stream<DynamicTest> sharedConformanceCases() {
        List<Path> files = RepoPaths.yamlFiles(RepoPaths.conformanceCases());
        assertThat(files).as("conformance cases in %s", RepoPaths.conformanceCases()).isNotEmpty();
        Map<String, Override> overrides = overrides();
        return files.stream().map(f -> DynamicTest.dynamicTest(name(f), f.toUri(), () -> check(f, overrides)));
    }

    @TestFactory
    Stream<DynamicTest> repositoryScenarios() {
        List<Path> files = new java.util.ArrayList<>(RepoPaths.yamlFiles(RepoPaths.repoRoot().resolve("scenarios")));
        files.addAll(RepoPaths.yamlFiles(RepoPaths.repoRoot().resolve("scenarios").resolve("regressions")));
        return files.stream().map(f -> DynamicTest.dynamicTest(name(f), f.toUri(), () -> check(f, Map.of())));
    }

    @Test
    void everyOverrideNamesAnExistingSharedCase() {
        Set<String> cases = RepoPaths.yamlFiles(RepoPaths.conformanceCases()).stream()
                .map(ConformanceTest::name)
                .collect(Collectors.toSet());
        assertThat(overrides().keySet()).isNotEmpty().allSatisfy(name ->
                assertThat(cases).as("override %s in %s names a shared case", name, OVERRIDES).contains(name));
    }

    private static void check(Path file, Map<String, Override> overrides) throws ScenarioException {
        Scenario scenario = ScenarioReader.read(file);
        assertThat(scenario.name()).as("name of %s", file).isEqualTo(name(file));
        Override override = overrides.get(scenario.name());
        Expectation expected = override != null ? override.expect()
                : scenario.expectation().orElseThrow(() -> new AssertionError(file + " has no expect block"));

        String before = snapshot(scenario);
        AllocationOutcome outcome = ScenarioRunner.run(scenario, KubernetesVersion.LATEST);
        assertThat(snapshot(scenario)).as("inputs of %s after the run", file).isEqualTo(before);

        ScenarioOutcome result = ScenarioOutcome.of(scenario, outcome);
        Optional<String> mismatch = OutcomeComparison.compare(expected, result);
        if (mismatch.isPresent()) {
            fail(scenario.name() + ": " + mismatch.get()
                    + (override != null ? "\n(expectation from " + OVERRIDES + ": " + override.reason() + ")" : "")
                    + "\nactual: " + OutcomeWriter.json(result));
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

    private static Map<String, Override> overrides() {
        JsonNode root;
        try {
            root = Mappers.READER.readTree(Files.readString(OVERRIDES));
        } catch (IOException e) {
            throw new AssertionError("cannot read " + OVERRIDES, e);
        }
        Map<String, Override> out = new LinkedHashMap<>();
        JsonNode list = root.get("overrides");
        for (int i = 0; i < list.size(); i++) {
            JsonNode o = list.get(i);
            String where = "overrides[" + i + "].expect";
            try {
                out.put(o.get("name").stringValue(),
                        new Override(o.get("reason").stringValue(), ExpectationParser.parse(o.get("expect"), where)));
            } catch (BadInput e) {
                throw new AssertionError(OVERRIDES + ": " + e.describe());
            }
        }
        return out;
    }

    private static String name(Path file) {
        String f = file.getFileName().toString();
        return f.substring(0, f.length() - ".yaml".length());
    }
}
