package io.dra4j.cli;

import io.dra4j.drivers.nvidia.GpuInfo;
import io.dra4j.drivers.nvidia.NvidiaHealthMonitor;
import io.dra4j.drivers.nvidia.NvidiaSmi;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Option;

/**
 * The GPU health options of {@code dra4j driver nvidia} and {@code dra4j device-plugin nvidia}, and the checks they
 * run: both read health through one {@link NvidiaHealthMonitor}, so the DRA driver's taints and the device plugin's
 * Unhealthy devices come from the same rules.
 */
final class NvidiaHealthOptions {
    @Option(
            names = "--health",
            description = "Check GPU health (uncorrectable ECC errors from nvidia-smi, XIDs "
                    + "from --kernel-log) every --health-interval seconds and report failing GPUs.")
    boolean health;

    @Option(
            names = "--kernel-log",
            description = "The kernel log to read XIDs from (a file 'dmesg' or "
                    + "'journalctl -k' output goes to); without it only ECC counters are checked.")
    Path kernelLog;

    @Option(
            names = "--health-interval",
            defaultValue = "10",
            description = "Seconds between health checks (default: ${DEFAULT-VALUE}).")
    long intervalSeconds;

    /** The checks that run every interval until closed. */
    record Checks(ScheduledExecutorService executor) implements AutoCloseable {
        @Override
        public void close() {
            executor.shutdownNow();
        }
    }

    /** The monitor, checked once: a failing first check is an error naming the command and its output. */
    NvidiaHealthMonitor monitor(List<GpuInfo> gpus, NvidiaSmi smi) throws IOException {
        if (intervalSeconds < 1) {
            throw new IOException("--health-interval must be at least 1 second, got " + intervalSeconds);
        }
        NvidiaHealthMonitor monitor = new NvidiaHealthMonitor(
                gpus, smi, () -> kernelLog == null ? "" : Files.readString(kernelLog), Clock.systemUTC());
        try {
            monitor.check();
        } catch (IOException e) {
            throw new IOException("health check: " + e.getMessage(), e);
        }
        return monitor;
    }

    /**
     * Checks {@code monitor} every interval on a thread of its own, running {@code onChange} after a check that
     * changed something; a failing check is reported on {@code err} and changes nothing.
     */
    Checks schedule(NvidiaHealthMonitor monitor, PrintWriter err, Runnable onChange) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "nvidia-health-checks");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(
                () -> {
                    boolean changed;
                    try {
                        changed = monitor.check();
                    } catch (IOException e) {
                        err.println("dra4j: health check: " + e.getMessage());
                        return;
                    }
                    if (changed) {
                        onChange.run();
                    }
                },
                intervalSeconds,
                intervalSeconds,
                TimeUnit.SECONDS);
        return new Checks(executor);
    }
}
