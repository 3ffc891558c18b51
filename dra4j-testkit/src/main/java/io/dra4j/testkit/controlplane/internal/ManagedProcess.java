package io.dra4j.testkit.controlplane.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One control plane component running as a child process, its output in a log file. It is started under a small
 * shell watchdog that holds a pipe from this JVM: when the JVM dies in any way (even SIGKILL), the pipe closes and
 * the watchdog terminates the component, so no etcd or kube-apiserver outlives the test run.
 */
public final class ManagedProcess {
    /**
     * Runs "$@" in the background, terminates it when standard input (the pipe from the JVM) reaches its end, and
     * exits with its status. The read loop runs in the shell itself, so no helper process is left behind.
     */
    private static final String WATCHDOG = String.join(
            "\n",
            "exec 3<&0",
            "\"$@\" </dev/null &",
            "child=$!",
            "{ while read -r _ <&3; do :; done; kill -TERM \"$child\" 2>/dev/null; } &",
            "watchdog=$!",
            "wait \"$child\"",
            "status=$?",
            "kill \"$watchdog\" 2>/dev/null",
            "exit \"$status\"");

    private static final long STOP_SECONDS = 20;

    private final String name;
    private final Process process;
    private final Path log;

    private ManagedProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command} (binary first) with its output appended to {@code log}. */
    public static ManagedProcess start(String name, List<String> command, Path log) {
        List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c", WATCHDOG, "sh"));
        wrapped.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(wrapped)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        try {
            return new ManagedProcess(name, builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + command.get(0) + ")", e);
        }
    }

    public String name() {
        return name;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The last {@code lines} lines of the component's output. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    public Path log() {
        return log;
    }

    /** The processes running under the watchdog: the component, and the watchdog's reader. */
    public List<ProcessHandle> descendants() {
        return process.descendants().toList();
    }

    /**
     * Stops the component and waits until it has exited (so its ports and files are free): a TERM through the
     * watchdog first, then KILL to it and everything under it.
     */
    public void stop() {
        try {
            OutputStream pipe = process.getOutputStream();
            pipe.close();
        } catch (IOException e) {
            // The pipe is already gone: the watchdog has seen its end and terminated the component.
        }
        if (!waitFor(STOP_SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            waitFor(STOP_SECONDS);
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
    }

    private boolean waitFor(long seconds) {
        try {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
