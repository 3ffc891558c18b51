package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.KubernetesVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden explanations: the text rendering of every shared conformance case that does not allocate (errors and
 * unschedulable cases), compared with the reviewed file under src/test/resources/explain-golden. Regenerate after
 * a deliberate change with {@code -Ddra4j.updateGolden=true} and review the diff.
 */
class ExplainGoldenTest {
    private static final Path GOLDEN = RepoPaths.repoRoot().resolve("dra4j-scenario/src/test/resources/explain-golden");

    @TestFactory
    Stream<DynamicTest> explanationsMatchTheReviewedText() throws Exception {
        List<Path> cases = new ArrayList<>();
        for (Path p : RepoPaths.yamlFiles(RepoPaths.conformanceCases())) {
            String text = Files.readString(p);
            if (text.contains("\n  unschedulable: true") || text.contains("\n  error: ")) {
                cases.add(p);
            }
        }
        assertThat(cases).hasSizeGreaterThanOrEqualTo(40);
        boolean update = Boolean.getBoolean("dra4j.updateGolden");
        return cases.stream()
                .map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
                    Scenario s = ScenarioReader.read(p);
                    String actual =
                            ExplanationWriter.text(s.name(), ScenarioRunner.explain(s, KubernetesVersion.LATEST));
                    Path golden = GOLDEN.resolve(s.name() + ".txt");
                    if (update) {
                        Files.createDirectories(GOLDEN);
                        Files.writeString(golden, actual);
                    }
                    assertThat(golden).as("golden file for %s", s.name()).exists();
                    assertThat(actual).isEqualTo(Files.readString(golden));
                }));
    }
}
