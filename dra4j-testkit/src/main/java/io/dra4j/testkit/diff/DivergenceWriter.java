package io.dra4j.testkit.diff;

import io.dra4j.testkit.gen.ScenarioGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes a divergence as a scenario file that {@code dra4j allocate} and the oracle can both run again: the (shrunk)
 * scenario with both engines' outcomes and the difference in {@code notes}.
 */
final class DivergenceWriter {
    private final Path dir;

    /** Creates the directory, and removes the divergence files an earlier run left there ({@code gen-*.yaml}). */
    DivergenceWriter(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
        try (DirectoryStream<Path> old = Files.newDirectoryStream(this.dir, "gen-*.yaml")) {
            for (Path file : old) {
                Files.delete(file);
            }
        }
    }

    /** @return the file written, named after the scenario */
    Path write(Divergence divergence, boolean shrunk, String origin) throws IOException {
        ObjectNode scenario = divergence.scenario().deepCopy();
        scenario.put(
                "notes",
                "difftest divergence (" + divergence.difference().aspect() + ") in " + origin
                        + (shrunk ? ", shrunk" : ", not shrunk") + ".\n"
                        + "difference: " + divergence.difference().detail() + "\n"
                        + "upstream: " + divergence.upstream() + "\n"
                        + "dra4j: " + divergence.dra4j() + "\n");
        Path file = dir.resolve(divergence.name() + ".yaml");
        Files.writeString(file, ScenarioGenerator.toYaml(scenario), StandardCharsets.UTF_8);
        return file;
    }
}
