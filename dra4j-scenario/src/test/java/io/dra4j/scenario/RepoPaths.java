package io.dra4j.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Where the tests find the repository's scenarios and the shared conformance cases. */
final class RepoPaths {
    private RepoPaths() {}

    /** The directory holding the root pom.xml (the one with modules), found by walking up from the working directory. */
    static Path repoRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom) && Files.readString(pom).contains("<modules>")) {
                    return dir;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no root pom.xml above " + Path.of("").toAbsolutePath());
    }

    /** The repository's conformance/cases (copied from the shared set, see conformance/README.md), or $DRA4J_CONFORMANCE_CASES. */
    static Path conformanceCases() {
        String env = System.getenv("DRA4J_CONFORMANCE_CASES");
        return env != null && !env.isEmpty()
                ? Path.of(env)
                : repoRoot().resolve("conformance").resolve("cases");
    }

    /** The *.yaml files directly inside {@code dir}, sorted by name; empty when the directory is absent. */
    static List<Path> yamlFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".yaml") && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
