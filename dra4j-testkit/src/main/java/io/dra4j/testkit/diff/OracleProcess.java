package io.dra4j.testkit.diff;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The upstream allocator as a child process: {@code oracle -} reads scenarios as JSON lines on stdin and answers each
 * with one outcome line, flushed at once. One process serves the whole run, first for the batch, then one scenario
 * at a time while shrinking. Not thread-safe.
 */
final class OracleProcess implements AutoCloseable {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Process process;
    private final BufferedWriter in;
    private final BufferedReader out;

    OracleProcess(Path binary) throws IOException {
        process = new ProcessBuilder(binary.toString(), "-")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Runs many scenarios (JSON lines); a writer thread feeds stdin while this thread reads the answers. */
    List<JsonNode> runAll(List<String> lines) throws IOException {
        Thread writer = new Thread(
                () -> {
                    try {
                        for (String line : lines) {
                            in.write(line);
                            in.write('\n');
                        }
                        in.flush();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                "oracle-writer");
        writer.start();
        List<JsonNode> outcomes = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            outcomes.add(readOutcome());
        }
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while feeding the oracle", e);
        }
        return outcomes;
    }

    /** Runs one scenario and waits for its outcome. */
    JsonNode run(String line) throws IOException {
        in.write(line);
        in.write('\n');
        in.flush();
        return readOutcome();
    }

    private JsonNode readOutcome() throws IOException {
        String answer = out.readLine();
        if (answer == null) {
            throw new IOException("the oracle ended early (exit status "
                    + (process.isAlive() ? "unknown" : String.valueOf(process.exitValue())) + ")");
        }
        return JSON.readTree(answer);
    }

    /**
     * Whether an outcome is the oracle's complaint that it could not read the scenario (as opposed to an allocation
     * error): such lines name the input, "stdin, document N: ...".
     */
    static boolean isReadError(JsonNode outcome) {
        return outcome.path("outcome").asString("").equals("error")
                && outcome.path("error").asString("").startsWith("stdin");
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
