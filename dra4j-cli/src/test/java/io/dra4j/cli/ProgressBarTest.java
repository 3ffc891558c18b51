package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    @Test
    void theLineFillsInProportionToTheAttemptsAndNeverOverflows() {
        assertThat(ProgressBar.line(0, 40)).isEqualTo("[" + ".".repeat(30) + "] 0/40 scheduling attempts");
        assertThat(ProgressBar.line(20, 40))
                .isEqualTo("[" + "#".repeat(15) + ".".repeat(15) + "] 20/40 scheduling attempts");
        assertThat(ProgressBar.line(50, 40)).isEqualTo("[" + "#".repeat(30) + "] 50/40 scheduling attempts");
    }

    @Test
    void withoutATerminalNothingIsDrawn() {
        StringWriter text = new StringWriter();
        try (ProgressBar bar = ProgressBar.onTerminal(new PrintWriter(text))) {
            // Surefire runs without a console.
            for (int i = 0; i < 1000; i++) {
                bar.attempted(i, 1000);
            }
        }
        assertThat(text.toString()).isEmpty();
    }
}
