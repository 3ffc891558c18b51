package io.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.cel.KubeQuantity.Format;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KubeQuantityTest {

    /** Cases recorded from upstream Go (see the header of the resource file). */
    static Stream<Arguments> upstreamCases() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        load("quantity-upstream.tsv", cases);
        load("quantity-upstream-random.tsv", cases);
        return cases.stream();
    }

    private static void load(String resource, List<Arguments> cases) throws IOException {
        try (InputStream in = Objects.requireNonNull(KubeQuantityTest.class.getResourceAsStream(resource));
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                cases.add(Arguments.of(String.join(" | ", f), f));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("upstreamCases")
    void matchesUpstream(String name, String[] f) {
        switch (f[0]) {
            case "P" -> {
                if (f[2].equals("ERR")) {
                    assertThatThrownBy(() -> KubeQuantity.parse(f[1]))
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessage(f[3]);
                } else {
                    assertDescribes(KubeQuantity.parse(f[1]), f, 2);
                }
            }
            case "N", "M" -> {
                long value = Long.parseLong(f[1]);
                Format format = goFormat(f[2]);
                assertDescribes(
                        f[0].equals("N") ? KubeQuantity.ofInt64(value, format) : KubeQuantity.ofMilli(value, format),
                        f,
                        3);
            }
            case "A", "S" -> {
                KubeQuantity a = KubeQuantity.parse(f[1]);
                KubeQuantity b = KubeQuantity.parse(f[2]);
                KubeQuantity result = f[0].equals("A") ? a.add(b) : a.sub(b);
                assertDescribes(result, f, 3);
                assertThat(Integer.signum(a.compareTo(b))).as("cmp").isEqualTo(Integer.parseInt(f[11]));
            }
            default -> throw new AssertionError("unknown case kind " + f[0]);
        }
    }

    private static void assertDescribes(KubeQuantity q, String[] f, int at) {
        assertThat(q.canonical()).as("String()").isEqualTo(f[at]);
        assertThat(q.format()).as("format").isEqualTo(goFormat(f[at + 1]));
        assertThat(Long.toHexString(Double.doubleToRawLongBits(q.asApproximateFloat64())))
                .as("AsApproximateFloat64 bits")
                .isEqualTo(f[at + 2].replaceFirst("^0+(?=.)", ""));
        OptionalLong asInt = q.asInt64();
        assertThat(asInt.isPresent()).as("AsInt64 ok").isEqualTo(Boolean.parseBoolean(f[at + 4]));
        if (asInt.isPresent()) {
            assertThat(asInt.getAsLong()).as("AsInt64").isEqualTo(Long.parseLong(f[at + 3]));
        }
        assertThat(q.valueCeil()).as("Value()").isEqualTo(Long.parseLong(f[at + 5]));
        assertThat(q.milliValueCeil()).as("MilliValue()").isEqualTo(Long.parseLong(f[at + 6]));
        assertThat(q.signum()).as("Sign()").isEqualTo(Integer.parseInt(f[at + 7]));
    }

    private static Format goFormat(String go) {
        return switch (go) {
            case "DecimalSI" -> Format.DECIMAL_SI;
            case "BinarySI" -> Format.BINARY_SI;
            case "DecimalExponent" -> Format.DECIMAL_EXPONENT;
            default -> throw new AssertionError("unknown format " + go);
        };
    }

    @Test
    void canonicalExamplesFromUpstreamDocumentation() {
        // Quantity's doc comment: 1.5 prints as 1500m, 1.5Gi as 1536Mi.
        assertThat(KubeQuantity.parse("1.5").canonical()).isEqualTo("1500m");
        assertThat(KubeQuantity.parse("1.5Gi").canonical()).isEqualTo("1536Mi");
        // TestQuantityParseEmit.
        assertThat(KubeQuantity.parse("1024Mi").canonical()).isEqualTo("1Gi");
        assertThat(KubeQuantity.parse("1000M").canonical()).isEqualTo("1G");
        assertThat(KubeQuantity.parse(".001Ki").canonical()).isEqualTo("1024m");
        assertThat(KubeQuantity.parse(".000000000001Ki").canonical()).isEqualTo("2n");
        assertThat(KubeQuantity.parse("-.000001Ki").canonical()).isEqualTo("-1024u");
    }

    @Test
    void emptyStringIsFormatError() {
        assertThatThrownBy(() -> KubeQuantity.parse(""))
                .hasMessage(
                        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }

    @Test
    void addAndSubKeepReceiverFormatUnlessReceiverIsZero() {
        // TestQuantityAddZeroPreservesSuffix / TestQuantitySubZeroPreservesSuffix.
        KubeQuantity zero = KubeQuantity.parse("0");
        KubeQuantity mebi = KubeQuantity.parse("1Mi");
        assertThat(zero.add(mebi).canonical()).isEqualTo("1Mi");
        assertThat(zero.sub(mebi).canonical()).isEqualTo("-1Mi");
        assertThat(mebi.add(KubeQuantity.parse("1M")).format()).isEqualTo(Format.BINARY_SI);
        assertThat(KubeQuantity.parse("1M").add(mebi).canonical()).isEqualTo("2048576");
    }

    @Test
    void equalityIsNumericIdentityAlsoComparesFormat() {
        KubeQuantity k = KubeQuantity.parse("1k");
        KubeQuantity thousand = KubeQuantity.parse("1e3");
        assertThat(k).isEqualTo(thousand).hasSameHashCodeAs(thousand);
        assertThat(k.identical(thousand)).isFalse();
        assertThat(k.identical(KubeQuantity.parse("1000"))).isTrue();
        assertThat(KubeQuantity.parse("0"))
                .isEqualTo(KubeQuantity.parse("0Ki"))
                .hasSameHashCodeAs(KubeQuantity.parse("0m"));
        assertThat(k.compareTo(KubeQuantity.parse("1Ki"))).isNegative();
        assertThat(k.value()).isEqualByComparingTo("1000");
    }

    @Test
    void ofKeepsExactValueInArbitraryPrecisionForm() {
        KubeQuantity q = KubeQuantity.of(new BigDecimal("1.5"), Format.DECIMAL_SI);
        assertThat(q.canonical()).isEqualTo("1500m");
        assertThat(q.asInt64()).isEmpty();
        assertThat(KubeQuantity.of(new BigDecimal("2048"), Format.BINARY_SI).canonical())
                .isEqualTo("2Ki");
        assertThat(KubeQuantity.ofInt64(5, Format.DECIMAL_EXPONENT).asInt64()).hasValue(5);
    }

    @Test
    void fromFabric8CombinesAmountAndFormat() {
        assertThat(KubeQuantity.fromFabric8(new io.fabric8.kubernetes.api.model.Quantity("4", "Gi"))
                        .canonical())
                .isEqualTo("4Gi");
        assertThat(KubeQuantity.fromFabric8(new io.fabric8.kubernetes.api.model.Quantity("1500m"))
                        .canonical())
                .isEqualTo("1500m");
        assertThat(KubeQuantity.fromFabric8(new io.fabric8.kubernetes.api.model.Quantity("1e3"))
                        .canonical())
                .isEqualTo("1e3");
        assertThatThrownBy(() -> KubeQuantity.fromFabric8(new io.fabric8.kubernetes.api.model.Quantity("1", "ki")))
                .hasMessage("unable to parse quantity's suffix");
    }

    @Test
    void absurdExponentIsRefusedInsteadOfMaterialised() {
        assertThatThrownBy(() -> KubeQuantity.parse("1234567890123456789e999999"))
                .hasMessage("unable to parse numeric part of quantity");
        assertThat(KubeQuantity.parse("1234567890123456789e-999999").canonical())
                .isEqualTo("1e-9");
        assertThat(KubeQuantity.parse("1e999999").canonical()).isEqualTo("1e999999");
    }
}
