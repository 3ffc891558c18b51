package io.dra4j.cli;

import io.dra4j.sim.Simulator;
import java.io.PrintWriter;

/**
 * The simulation's progress on standard error, drawn only when the console is a terminal and only once the run has
 * taken longer than a second; redrawn at most ten times a second and erased when the run ends.
 */
final class ProgressBar implements Simulator.Progress, AutoCloseable {
    private static final long SHOW_AFTER_NANOS = 1_000_000_000L;
    private static final long REDRAW_NANOS = 100_000_000L;
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final boolean enabled;
    private final long start = System.nanoTime();
    private long lastDraw;
    private boolean drawn;

    private ProgressBar(PrintWriter err, boolean enabled) {
        this.err = err;
        this.enabled = enabled;
    }

    /** A bar that draws when there is a console (standard input and output a terminal), else does nothing. */
    static ProgressBar onTerminal(PrintWriter err) {
        return new ProgressBar(err, System.console() != null);
    }

    @Override
    public void attempted(int done, int queued) {
        if (!enabled) {
            return;
        }
        long now = System.nanoTime();
        if (now - start < SHOW_AFTER_NANOS || now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        drawn = true;
        err.print("\r" + line(done, queued));
        err.flush();
    }

    /** {@code [#####.....] 12/40 scheduling attempts}; attempts may exceed the pods queued as pods are retried. */
    static String line(int done, int queued) {
        int filled = queued == 0 ? WIDTH : (int) Math.min(WIDTH, (long) WIDTH * Math.min(done, queued) / queued);
        return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + done + "/" + queued
                + " scheduling attempts";
    }

    @Override
    public void close() {
        if (drawn) {
            err.print("\r" + " ".repeat(WIDTH + 40) + "\r");
            err.flush();
        }
    }
}
