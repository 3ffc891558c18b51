package io.dra4j.drivers.nvidia;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How the driver runs {@code nvidia-smi}: every discovery, MIG and health command goes through one of these, so that
 * tests answer with recorded or simulated outputs instead of a GPU.
 */
@FunctionalInterface
public interface NvidiaSmi {
    /** What one run printed (standard output and error together) and its exit status. */
    record Output(int exitCode, String text) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    /** Runs nvidia-smi with {@code args}; fails only when it cannot be run at all (not on a non-zero exit). */
    Output run(List<String> args) throws IOException;

    /** Runs it and returns what it printed, failing with the command and its output on a non-zero exit. */
    default String check(String... args) throws NvidiaSmiParser.DiscoveryException {
        Output out;
        try {
            out = run(List.of(args));
        } catch (NvidiaSmiParser.DiscoveryException e) {
            throw e;
        } catch (IOException e) {
            throw new NvidiaSmiParser.DiscoveryException(
                    "cannot run nvidia-smi " + String.join(" ", args) + ": " + e.getMessage());
        }
        if (!out.ok()) {
            throw new NvidiaSmiParser.DiscoveryException("nvidia-smi " + String.join(" ", args) + " exited with "
                    + out.exitCode() + ": " + out.text().strip());
        }
        return out.text();
    }

    /** The nvidia-smi binary at {@code path}, each run bounded to 60 s. */
    static NvidiaSmi process(String path) {
        return args -> {
            List<String> cmd = new ArrayList<>();
            cmd.add(path);
            cmd.addAll(args);
            Process p;
            try {
                p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            } catch (IOException e) {
                throw new NvidiaSmiParser.DiscoveryException(
                        "cannot run " + String.join(" ", cmd) + ": " + e.getMessage());
            }
            byte[] out = p.getInputStream().readAllBytes();
            try {
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new NvidiaSmiParser.DiscoveryException(String.join(" ", cmd) + " did not finish within 60 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new NvidiaSmiParser.DiscoveryException("interrupted while running " + String.join(" ", cmd));
            }
            return new Output(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        };
    }
}
