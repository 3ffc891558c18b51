package io.dra4j.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A module uses another module only through its API: no source file refers to an {@code internal} package of
 * another module. This stands in for module-info.java exports, which the dependencies do not allow: dev.cel 0.14.0
 * splits its packages (dev.cel.common in five jars, dev.cel.runtime in two), so its jars cannot be modules, and a
 * named module cannot read them on the class path.
 */
class ApiBoundaryTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern INTERNAL = Pattern.compile("\\bio\\.dra4j(?:\\.\\w+)*?\\.internal\\b");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    @Test
    void noModuleRefersToAnotherModulesInternalPackages() throws IOException {
        List<String> modules = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")))
                .results()
                .map(m -> m.group(1))
                .toList();
        Map<String, String> owner = new HashMap<>();
        for (String module : modules) {
            for (Path dir : javaFiles(ROOT.resolve(module).resolve("src/main/java"))
                    .map(Path::getParent)
                    .distinct()
                    .toList()) {
                String pkg = ROOT.resolve(module)
                        .resolve("src/main/java")
                        .relativize(dir)
                        .toString()
                        .replace(dir.getFileSystem().getSeparator(), ".");
                if (pkg.endsWith(".internal") || pkg.contains(".internal.")) {
                    owner.put(pkg.substring(0, pkg.indexOf(".internal") + ".internal".length()), module);
                }
            }
        }
        assertThat(owner)
                .as("internal packages found (the scan sees the sources)")
                .isNotEmpty();

        List<String> crossings = new ArrayList<>();
        for (String module : modules) {
            for (String tree : List.of("src/main/java", "src/test/java")) {
                javaFiles(ROOT.resolve(module).resolve(tree)).forEach(file -> {
                    Matcher m = INTERNAL.matcher(read(file));
                    while (m.find()) {
                        String pkg = m.group();
                        if (!module.equals(owner.get(pkg))) {
                            crossings.add(ROOT.relativize(file) + ": " + pkg + " (of " + owner.get(pkg) + ")");
                        }
                    }
                });
            }
        }
        assertThat(crossings).isEmpty();
    }

    private static Stream<Path> javaFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Stream.empty();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
