package io.dra4j.cel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.cel.KubernetesLibraries;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LibraryCostsTest {

    static Stream<Arguments> upstream() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        try (InputStream in = Objects.requireNonNull(LibraryCostsTest.class.getResourceAsStream("costs-upstream.tsv"));
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("COST\t")) {
                    String[] f = line.split("\t", -1);
                    cases.add(Arguments.of(f[2], Arrays.asList(f).subList(3, f.length - 1), f[f.length - 1]));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} = {2}")
    @MethodSource("upstream")
    void matchesUpstreamCallCost(String overloadId, List<String> argExprs, String expected) throws Exception {
        List<Object> args = new ArrayList<>();
        for (String e : argExprs) {
            args.add(CelTestEnv.eval(e));
        }
        long cost = KubernetesLibraries.runtimeCost(overloadId, args);
        assertThat(cost)
                .isEqualTo(expected.equals("nil") ? KubernetesLibraries.NO_COST_RULE : Long.parseLong(expected));
    }

    @Test
    void joinIsPricedByItsResult() {
        // Upstream: ceil(size(result) * 2 * 0.1); "a,b,c" has 5 code points.
        assertThat(KubernetesLibraries.runtimeCost("list_join_string", List.of(List.of("a", "b", "c"), ","), "a,b,c"))
                .isEqualTo(1);
        assertThat(KubernetesLibraries.runtimeCost("list_join", List.of(List.of("a".repeat(30))), "a".repeat(30)))
                .isEqualTo(6);
        assertThat(KubernetesLibraries.runtimeCost("list_join", List.of(List.of("a"))))
                .isEqualTo(-1);
    }

    @Test
    void unknownOverloadHasNoRule() {
        assertThat(KubernetesLibraries.runtimeCost("no_such_overload", List.of()))
                .isEqualTo(-1);
    }
}
