package io.dra4j.cel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Expression outcomes recorded from upstream (cel-go with the k8s.io/apiserver v0.37.2 base environment for
 * Kubernetes 1.37). Line format, tab separated: {@code expr OK value cost}, {@code expr ERR message cost} or
 * {@code expr COMPILE message}.
 */
final class UpstreamFacts {

    private UpstreamFacts() {}

    static Stream<Arguments> load(String resource) {
        List<Arguments> cases = new ArrayList<>();
        try (InputStream in = Objects.requireNonNull(UpstreamFacts.class.getResourceAsStream(resource), resource);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                cases.add(Arguments.of(f[0], f[1], f[2]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return cases.stream();
    }

    /**
     * Compile failures are compared by kind only: cel-java and cel-go word checker errors differently. Upstream
     * rejects a constant invalid regex when the program is built (kind PROGRAM); here it fails at evaluation
     * with the same text as a non-constant one.
     */
    static void check(String expr, String kind, String expected) {
        if (kind.equals("PROGRAM")) {
            kind = "ERR";
            expected = "Illegal regex: " + expected;
        }
        CelTestEnv.Outcome outcome = CelTestEnv.run(expr);
        assertThat(outcome.kind())
                .as("outcome of %s (%s)", expr, outcome.text())
                .isEqualTo(kind);
        if (!kind.equals("COMPILE")) {
            assertThat(outcome.text()).as("result of %s", expr).isEqualTo(expected);
        }
    }
}
