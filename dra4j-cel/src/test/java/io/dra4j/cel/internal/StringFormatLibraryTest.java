package io.dra4j.cel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StringFormatLibraryTest {

    static Stream<Arguments> upstream() {
        return UpstreamFacts.load("strformat-upstream.tsv");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("upstream")
    void matchesUpstream(String expr, String kind, String expected) {
        UpstreamFacts.check(expr, kind, expected);
        if (kind.equals("COMPILE")) {
            // The literal-call check reports the same message at the same place as upstream.
            assertThat(firstLine(CelTestEnv.run(expr).text())).isEqualTo(firstLine(expected));
        }
    }

    private static String firstLine(String message) {
        int newline = message.indexOf("\\n");
        int realNewline = message.indexOf('\n');
        int end = newline < 0 ? realNewline : realNewline < 0 ? newline : Math.min(newline, realNewline);
        return end < 0 ? message : message.substring(0, end);
    }
}
