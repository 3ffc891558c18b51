package io.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The static cost estimate against upstream's: each maximum is {@code CompilationResult.MaxCost} as printed by
 * {@code oracle/cel/bin/cel -cost} (k8s.io/dynamic-resource-allocation v0.37.2); the generated comparison is
 * {@code oracle/cel-cost-difftest}.
 */
class EstimatedCostTest {

    private final DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(true, true));

    static Stream<Arguments> upstream() {
        return Stream.of(
                Arguments.of("device.driver == \"gpu.example.com\"", "4"),
                Arguments.of("device.attributes[\"gpu.example.com\"].model.matches(\"^a[0-9]+$\")", "25"),
                Arguments.of(
                        "device.attributes.all(d, device.attributes[d].all(k, "
                                + "device.attributes[\"gpu.example.com\"].model.matches(\"^a[0-9]+$\")))",
                        "28931"),
                Arguments.of(
                        "device.attributes[\"gpu.example.com\"].labels.all(l, "
                                + "l.matches(device.attributes[\"gpu.example.com\"].model))",
                        "18446744073709551615"),
                Arguments.of("device.attributes[\"gpu.example.com\"].labels.sort().join(\",\").size() > 2", "9029"),
                Arguments.of(
                        "cel.bind(a, device.attributes[\"gpu.example.com\"], a.model.startsWith(\"a1\") "
                                + "&& a.model.lowerAscii().contains(\"x\"))",
                        "32"),
                Arguments.of("sets.contains([1, 2, 3], [1]) && has(device.attributes.x)", "26"),
                Arguments.of("device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"10Gi\")) >= 0", "7"),
                Arguments.of(
                        "device.attributes.all(a, device.attributes.all(b, device.attributes.exists(c, "
                                + "device.driver == device.attributes[\"gpu.example.com\"].model)))",
                        "563395"),
                // cel-go's optMap/optFlatMap expansion copies the target and binds the variable with cel.bind.
                Arguments.of("optional.none().optMap(v0, 1).hasValue()", "16"),
                Arguments.of("optional.of(\"abc\").optMap(v0, v0.lowerAscii()).hasValue()", "1844674407370955281"),
                Arguments.of(
                        "optional.none().or(optional.none()).optMap(v0, \"1.5\".lowerAscii()).value() == \"\"", "21"),
                Arguments.of("optional.of(\"abc\").optFlatMap(v0, optional.of(v0.size())).hasValue()", "18"),
                Arguments.of(
                        "cel.bind(v1, device.attributes[\"gpu.example.com\"][?\"enabled\"].orValue(true), "
                                + "optional.none()).optMap(v0, sets.equivalent([], [])).or([true, true].distinct()"
                                + "[?device.attributes[\"other.example.com\"][\"rack\"]]).orValue(true)",
                        "102"),
                // The estimate is of the expression as written: the program folds `x in []`, the checker does not.
                Arguments.of("1e300 in []", "10"));
    }

    @ParameterizedTest
    @MethodSource("upstream")
    void maximumIsUpstreams(String expression, String upstreamMax) {
        EstimatedCost cost = env.compile(expression).estimatedCost().orElseThrow();
        assertThat(Long.toUnsignedString(cost.max())).isEqualTo(upstreamMax);
        assertThat(Long.compareUnsigned(cost.min(), cost.max())).isLessThanOrEqualTo(0);
        assertThat(cost.exceedsLimit())
                .isEqualTo(Long.compareUnsigned(Long.parseUnsignedLong(upstreamMax), EstimatedCost.LIMIT) > 0);
    }

    @Test
    void noEstimateWithoutCompilation() {
        assertThat(env.compile("device.driver ==").estimatedCost()).isEmpty();
    }
}
