package io.dra4j.testkit.controlplane.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManagedProcessIT {
    @Test
    void theComponentEndsWhenThePipeFromTheJvmCloses(@TempDir Path dir) throws Exception {
        ManagedProcess process = ManagedProcess.start("sleeper", List.of("sleep", "600"), dir.resolve("log"));
        ProcessHandle sleeper = awaitChild(process, "sleep");
        assertThat(sleeper.isAlive()).isTrue();

        process.stop();

        assertThat(sleeper.onExit().get(5, TimeUnit.SECONDS).isAlive()).isFalse();
        assertThat(process.isAlive()).isFalse();
    }

    @Test
    void aComponentThatExitsLeavesNothingBehindAndItsOutputIsKept(@TempDir Path dir) throws Exception {
        ManagedProcess process =
                ManagedProcess.start("talker", List.of("sh", "-c", "echo one; echo two; exit 3"), dir.resolve("log"));
        for (int i = 0; i < 100 && process.isAlive(); i++) {
            Thread.sleep(50);
        }
        assertThat(process.isAlive()).isFalse();
        assertThat(process.logTail(1)).isEqualTo("two");
        assertThat(process.logTail(10)).isEqualTo("one\ntwo");
        process.stop();
    }

    /** The component under the watchdog shell, once it has been forked. */
    private static ProcessHandle awaitChild(ManagedProcess process, String command) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            for (ProcessHandle handle : process.descendants()) {
                if (handle.info().command().map(c -> c.endsWith("/" + command)).orElse(false)) {
                    return handle;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError(command + " was not started under the watchdog");
    }
}
