package io.dra4j.testkit.diff;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DiffTestTest {

    @Test
    void badUsageExitsWithTwoAndSaysWhy() {
        assertThat(run("1"))
                .startsWith("2:")
                .contains("expected SEED and COUNT")
                .contains("usage: DiffTest");
        assertThat(run("x", "10")).startsWith("2:").contains("SEED must be an integer, got 'x'");
        assertThat(run("1", "10", "--frobnicate")).startsWith("2:").contains("unknown option --frobnicate");
        assertThat(run("1", "10", "--out")).startsWith("2:").contains("--out needs a value");
    }

    @Test
    void aMissingOracleIsNamed() {
        assertThat(run("1", "10", "--oracle", "/nonexistent/oracle"))
                .startsWith("2:")
                .contains("oracle binary /nonexistent/oracle not found");
    }

    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = DiffTest.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return status + ":" + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }
}
