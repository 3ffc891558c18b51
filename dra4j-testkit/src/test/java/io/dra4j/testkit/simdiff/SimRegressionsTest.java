package io.dra4j.testkit.simdiff;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The snapshots in {@code scenarios/sim-regressions} (divergences the scheduler differential test found, shrunk):
 * dra4j's attempts on each must match upstream's, recorded next to it by the oracle
 * ({@code NAME.oracle.jsonl}, written by {@code oracle/sim-difftest}), and where the file ends with the oracle's
 * {@code done} line, the run's outcome (pods' nodes, PreEnqueue rejections, PodGroups) must match too.
 */
class SimRegressionsTest {
    private static final Path DIR = Path.of("..", "scenarios", "sim-regressions");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    @TestFactory
    Stream<DynamicTest> dra4jSchedulesEveryRegressionSnapshotAsUpstreamDid() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(DIR)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        return files.stream()
                .map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
                    ObjectNode snapshot = (ObjectNode) YAML.readTree(Files.readString(file));
                    String before = snapshot.toString();
                    Path recorded = Path.of(file.toString().replaceFirst("\\.yaml$", ".oracle.jsonl"));
                    List<ObjectNode> upstream = new ArrayList<>();
                    ObjectNode done = null;
                    for (String line : Files.readAllLines(recorded)) {
                        if (line.isBlank()) {
                            continue;
                        }
                        ObjectNode o = (ObjectNode) JSON.readTree(line);
                        if (o.path("done").asBoolean(false)) {
                            done = o;
                        } else {
                            upstream.add(o);
                        }
                    }
                    assertThat(upstream.isEmpty() && done == null).isFalse();
                    TraceComparison.Result r = TraceComparison.compare(
                            upstream,
                            done,
                            Dra4jTrace.run(snapshot, file.getFileName().toString()));
                    assertThat(r.difference()).as(file.toString()).isEmpty();
                    assertThat(snapshot.toString()).isEqualTo(before);
                }));
    }
}
