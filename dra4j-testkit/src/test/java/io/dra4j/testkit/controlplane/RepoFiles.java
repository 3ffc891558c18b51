package io.dra4j.testkit.controlplane;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root, found from the module directory Maven runs the tests in. */
final class RepoFiles {
    private RepoFiles() {}

    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("run-tests"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException(
                    "not inside the dra4j repository: " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
