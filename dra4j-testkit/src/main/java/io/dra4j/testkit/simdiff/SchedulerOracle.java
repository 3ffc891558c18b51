package io.dra4j.testkit.simdiff;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The oracle's scheduler mode ({@code oracle/scheduler}, kube-scheduler v1.37.2's framework in-process) as a child
 * process: {@code scheduler -} reads one snapshot per JSON line and answers with one line per scheduling attempt,
 * then a {@code done} line. One process serves a whole run. Not thread-safe.
 */
final class SchedulerOracle implements AutoCloseable {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * The oracle's answer for one snapshot: its attempts and the run's outcome (the {@code done} line: per pod its
     * node, PreEnqueue rejections, per PodGroup its outcome), or the error that stopped it.
     */
    record Answer(List<ObjectNode> attempts, ObjectNode done, String error) {}

    private final Process process;
    private final BufferedWriter in;
    private final BufferedReader out;

    SchedulerOracle(Path binary) throws IOException {
        process = new ProcessBuilder(binary.toString(), "-")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    Answer run(ObjectNode snapshot) throws IOException {
        in.write(JSON.writeValueAsString(snapshot));
        in.write('\n');
        in.flush();
        List<ObjectNode> attempts = new ArrayList<>();
        while (true) {
            String line = out.readLine();
            if (line == null) {
                throw new IOException("the scheduler oracle ended early (exit status "
                        + (process.isAlive() ? "unknown" : String.valueOf(process.exitValue())) + ")");
            }
            JsonNode node = JSON.readTree(line);
            if (node.path("done").asBoolean(false)) {
                return new Answer(
                        attempts, (ObjectNode) node, node.path("error").asString(""));
            }
            attempts.add((ObjectNode) node);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroy();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
        }
    }
}
