package io.dra4j.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The training run for the application class-data-sharing archive that the {@code dra4j} launcher builds beside the
 * jar ({@code java -XX:ArchiveClassesAtExit=ARCHIVE -cp dra4j.jar io.dra4j.cli.CdsTraining SCENARIO [OLD-DRA-FILE]}).
 * The archive holds the classes this run loads, already parsed and verified, so that a later start maps them instead
 * of loading them one by one from the jar, which is where most of a short command's time goes. It runs the common
 * commands (allocate and explain on the scenario, simulate on the bundled fleet, convert on the old DRA file) with
 * their output discarded: only which classes they load matters.
 */
public final class CdsTraining {
    private CdsTraining() {}

    public static void main(String[] args) {
        List<List<String>> runs = new ArrayList<>();
        runs.add(List.of("--help"));
        runs.add(List.of("version"));
        runs.add(List.of("simulate"));
        runs.add(List.of("simulate", "-o", "json"));
        if (args.length > 0) {
            for (String output : List.of("text", "json", "yaml")) {
                runs.add(List.of("allocate", "-o", output, args[0]));
            }
            for (String output : List.of("text", "json")) {
                runs.add(List.of("explain", "-o", output, args[0]));
            }
        }
        if (args.length > 1) {
            runs.add(List.of("convert", args[1]));
        }
        PrintWriter sink = new PrintWriter(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        for (List<String> run : runs) {
            Main.run(run.toArray(String[]::new), sink, sink);
        }
    }
}
