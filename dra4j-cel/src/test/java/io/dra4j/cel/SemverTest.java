package io.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SemverTest {

    static Stream<Arguments> upstreamCases() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        try (InputStream in = Objects.requireNonNull(SemverTest.class.getResourceAsStream("semver-upstream.tsv"));
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                cases.add(Arguments.of(f[0] + " [" + f[1] + "]", f));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("upstreamCases")
    void matchesUpstream(String name, String[] f) {
        Function<String, Semver> parser = f[0].equals("S") ? Semver::parse : Semver::parseNormalized;
        if (f[2].equals("ERR")) {
            assertThatThrownBy(() -> parser.apply(f[1]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(f[3]);
            if (f[0].equals("S")) {
                assertThat(Semver.isValid(f[1])).isFalse();
            }
            return;
        }
        Semver v = parser.apply(f[1]);
        assertThat(v.toString()).isEqualTo(f[2]);
        if (f[0].equals("S")) {
            assertThat(Semver.isValid(f[1])).isTrue();
            assertThat(Long.toUnsignedString(v.major())).isEqualTo(f[3]);
            assertThat(Long.toUnsignedString(v.minor())).isEqualTo(f[4]);
            assertThat(Long.toUnsignedString(v.patch())).isEqualTo(f[5]);
        }
    }

    @Test
    void precedenceFollowsTheSemverSpecificationExample() {
        // SemVer 2.0.0, item 11.
        List<String> ascending = List.of(
                "1.0.0-alpha",
                "1.0.0-alpha.1",
                "1.0.0-alpha.beta",
                "1.0.0-beta",
                "1.0.0-beta.2",
                "1.0.0-beta.11",
                "1.0.0-rc.1",
                "1.0.0",
                "1.0.1",
                "1.1.0",
                "2.0.0");
        for (int i = 0; i < ascending.size(); i++) {
            for (int j = 0; j < ascending.size(); j++) {
                Semver a = Semver.parse(ascending.get(i));
                Semver b = Semver.parse(ascending.get(j));
                assertThat(a.compareTo(b)).as("%s vs %s", a, b).isEqualTo(Integer.compare(i, j));
            }
        }
    }

    @Test
    void buildMetadataDoesNotAffectPrecedenceOrEquality() {
        Semver a = Semver.parse("1.2.3+build.1");
        Semver b = Semver.parse("1.2.3+other");
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.compareTo(b)).isZero();
        assertThat(a.toString()).isEqualTo("1.2.3+build.1");
    }

    @Test
    void numbersAreUnsigned() {
        Semver big = Semver.parse("18446744073709551615.0.0");
        assertThat(big.major()).isEqualTo(-1L);
        assertThat(big.compareTo(Semver.parse("1.0.0"))).isEqualTo(1);
        assertThat(Semver.parse("1.0.0-18446744073709551615").compareTo(Semver.parse("1.0.0-2")))
                .isEqualTo(1);
    }

    /** isValid answers plain versions without parsing; it must agree with parse on them and on their near misses. */
    @Test
    void isValidAgreesWithParse() {
        List<String> inputs = List.of(
                "1.2.3",
                "0.0.0",
                "10.20.30",
                "123456789012345678.0.1",
                "1234567890123456789.0.1",
                "18446744073709551615.0.0",
                "18446744073709551616.0.0",
                "01.2.3",
                "1.02.3",
                "1.2.03",
                "1.2",
                "1.2.3.4",
                "1..3",
                ".1.2",
                "1.2.",
                "1.2.3-rc.1",
                "1.2.3+build",
                "v1.2.3",
                "1.2.3 ",
                "",
                "1.2.x",
                "1.2.3-",
                "1.2.\u0663");
        for (String s : inputs) {
            boolean parses;
            try {
                Semver.parse(s);
                parses = true;
            } catch (IllegalArgumentException e) {
                parses = false;
            }
            assertThat(Semver.isValid(s)).as(s).isEqualTo(parses);
        }
    }
}
