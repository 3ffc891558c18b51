package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.KubernetesVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every repository scenario takes exactly the number of search steps recorded in {@code scenarios/search-steps.tsv}
 * (as upstream's tests assert {@code expectNumAllocateOneInvocations}), so that a change to pruning shows up as a
 * failing test, and never more steps than upstream v0.37.2 takes on it (recorded from the oracle).
 */
class SearchStepsTest {
    private static final Path TABLE = RepoPaths.repoRoot().resolve("scenarios").resolve("search-steps.tsv");

    /** A row of the table. */
    private record Recorded(String dra4j, String upstream) {}

    @Test
    void everyScenarioTakesTheRecordedNumberOfSearchSteps() throws IOException, ScenarioException {
        List<String> header = new ArrayList<>();
        Map<String, Recorded> table = read(header);
        List<Path> files =
                new ArrayList<>(RepoPaths.yamlFiles(RepoPaths.repoRoot().resolve("scenarios")));
        files.addAll(
                RepoPaths.yamlFiles(RepoPaths.repoRoot().resolve("scenarios").resolve("regressions")));
        assertThat(files).hasSizeGreaterThan(100);

        Map<String, Long> measured = new TreeMap<>();
        Map<String, Boolean> stable = new LinkedHashMap<>();
        for (Path file : files) {
            Scenario s = ScenarioReader.read(file);
            measured.put(s.name(), steps(s));
            stable.put(
                    s.name(),
                    ScenarioRunner.featureGates(s, KubernetesVersion.LATEST).selectsStableVariant());
        }
        if (Boolean.getBoolean("dra4j.updateSearchSteps")) {
            write(header, table, measured);
            return;
        }
        List<String> problems = new ArrayList<>();
        measured.forEach((name, steps) -> {
            Recorded r = table.get(name);
            if (r == null) {
                problems.add(name + ": not in " + TABLE.getFileName() + " (took " + steps + " steps)");
            } else if (!r.dra4j.equals(Long.toString(steps))) {
                problems.add(name + ": " + steps + " search steps, recorded " + r.dra4j);
            } else if (!r.upstream.matches("\\d+")) {
                problems.add(name + ": upstream's steps not recorded (oracle/bin/oracle -stats " + name + ")");
            } else if (!stable.get(name) && steps > Long.parseLong(r.upstream)) {
                problems.add(name + ": " + steps + " search steps, more than upstream's " + r.upstream);
            }
        });
        table.keySet().stream()
                .filter(n -> !measured.containsKey(n))
                .forEach(n -> problems.add(n + ": recorded, but no such scenario"));
        assertThat(problems).isEmpty();
    }

    private static long steps(Scenario s) {
        Allocator allocator;
        try {
            allocator = ScenarioRunner.allocator(s, KubernetesVersion.LATEST);
        } catch (IllegalArgumentException e) {
            return 0;
        }
        return allocator.allocateWithStats(s.node(), s.claims()).searchSteps();
    }

    private static Map<String, Recorded> read(List<String> header) throws IOException {
        Map<String, Recorded> out = new TreeMap<>();
        for (String line : Files.readAllLines(TABLE)) {
            if (line.startsWith("#") || line.startsWith("scenario\t")) {
                header.add(line);
                continue;
            }
            String[] f = line.split("\t");
            out.put(f[0], new Recorded(f[1], f[2]));
        }
        return out;
    }

    private static void write(List<String> header, Map<String, Recorded> table, Map<String, Long> measured)
            throws IOException {
        List<String> lines = new ArrayList<>(header);
        measured.forEach((name, steps) -> {
            Recorded r = table.get(name);
            lines.add(name + "\t" + steps + "\t" + (r == null ? "?" : r.upstream));
        });
        Files.write(TABLE, lines);
    }
}
