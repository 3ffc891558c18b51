package io.dra4j.cel.internal;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RegexLibraryTest {

    static Stream<Arguments> upstream() {
        return UpstreamFacts.load("regex-upstream.tsv");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("upstream")
    void matchesUpstream(String expr, String kind, String expected) {
        UpstreamFacts.check(expr, kind, expected);
    }
}
