package io.dra4j.cel;

import static io.dra4j.cel.TestDevices.device;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * List-type attributes and {@code includes()}. At 1.37 StoredExpressions ignores DRAListTypeAttributes: list values
 * are always passed through, attribute values are {@code dyn} and {@code includes()} (the Kubernetes lists library's,
 * without the 48-element guard of the 1.36 DRA variant) is always declared. So every case must behave the same with
 * the gate on and off. Expected outcomes are those of upstream's compile_test.go.
 */
class ListAttributesTest {

    private static final String D = "device.attributes[\"dra.example.com\"]";

    static Stream<Arguments> features() {
        return Stream.of(
                Arguments.of(new CelFeatures(false, false)),
                Arguments.of(new CelFeatures(false, true)),
                Arguments.of(new CelFeatures(true, false)),
                Arguments.of(new CelFeatures(true, true)));
    }

    private static EvalResult eval(CelFeatures features, String expression, Device device) {
        DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(features);
        CompiledExpression compiled = env.compile(expression);
        assertThat(compiled.compileError()).as(expression).isEmpty();
        return compiled.evaluate(env.device("dra.example.com", device));
    }

    private static EvalResult matched(boolean value) {
        return new EvalResult.Matched(value);
    }

    @ParameterizedTest
    @MethodSource("features")
    void listValuesOfEveryType(CelFeatures features) {
        assertThat(eval(
                        features,
                        D + ".names.size() == 2",
                        device().boolsAttr("names", true, false).build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".names.size() == 2",
                        device().intsAttr("names", 1L, 2L).build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".names.size() == 2",
                        device().stringsAttr("names", "fish", "bird").build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".names.size() == 2",
                        device().versionsAttr("names", "1.0.0", "2.0.0").build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".names",
                        device().stringsAttr("names", "fish", "bird").build()))
                .isEqualTo(
                        new EvalResult.Failed(
                                "CEL result of type list could not be converted to bool: type conversion error from list to 'bool'"));
    }

    @ParameterizedTest
    @MethodSource("features")
    void macrosOnLists(CelFeatures features) {
        assertThat(eval(
                        features,
                        D + ".names.exists(x, x > 0)",
                        device().intsAttr("names", 1L, 2L).build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".names.all(x, x != \"\")",
                        device().stringsAttr("names", "fish", "bird").build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".names.all(x, x.isGreaterThan(semver(\"0.0.1\")))",
                        device().versionsAttr("names", "1.0.0", "2.0.0").build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        "1 in " + D + ".names",
                        device().intsAttr("names", 1L, 2L, 3L).build()))
                .isEqualTo(matched(true));
    }

    @ParameterizedTest
    @MethodSource("features")
    void macrosOnScalarsFailAsUpstream(CelFeatures features) {
        assertThat(eval(
                        features,
                        D + ".name.exists(x, x > 0)",
                        device().intAttr("name", 1).build()))
                .isEqualTo(new EvalResult.Failed("got 'types.Int', expected iterable type"));
        assertThat(eval(
                        features,
                        D + ".name.exists(x, x == true)",
                        device().boolAttr("name", true).build()))
                .isEqualTo(new EvalResult.Failed("got 'types.Bool', expected iterable type"));
        assertThat(eval(
                        features,
                        D + ".name.exists(x, x == \"fish\")",
                        device().stringAttr("name", "fish").build()))
                .isEqualTo(new EvalResult.Failed("got 'types.String', expected iterable type"));
        assertThat(eval(
                        features,
                        D + ".name.exists(x, x.isGreaterThan(semver(\"0.0.1\")))",
                        device().versionAttr("name", "1.0.0").build()))
                .isEqualTo(new EvalResult.Failed("got 'cel.Semver', expected iterable type"));
    }

    @ParameterizedTest
    @MethodSource("features")
    void includesOnListsAndScalars(CelFeatures features) {
        assertThat(eval(
                        features,
                        D + ".name.includes(\"fish\")",
                        device().stringsAttr("name", "fish", "bird").build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".name.includes(\"cat\")",
                        device().stringsAttr("name", "fish", "bird").build()))
                .isEqualTo(matched(false));
        assertThat(eval(
                        features,
                        D + ".name.includes(1)",
                        device().intsAttr("name", 1L, 2L).build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".name.includes(3)",
                        device().intsAttr("name", 1L, 2L).build()))
                .isEqualTo(matched(false));
        assertThat(eval(
                        features,
                        D + ".name.includes(false)",
                        device().boolsAttr("name", true, true).build()))
                .isEqualTo(matched(false));
        assertThat(eval(
                        features,
                        D + ".name.includes(semver(\"1.0.0\"))",
                        device().versionsAttr("name", "1.0.0", "2.0.0").build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".name.includes(semver(\"3.0.0\"))",
                        device().versionsAttr("name", "1.0.0", "2.0.0").build()))
                .isEqualTo(matched(false));
        // A scalar target compares for equality.
        assertThat(eval(
                        features,
                        D + ".attr.includes(\"fish\")",
                        device().stringAttr("attr", "fish").build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        features,
                        D + ".name.includes(true)",
                        device().boolAttr("name", false).build()))
                .isEqualTo(matched(false));
        assertThat(eval(
                        features,
                        D + ".name.includes(1)",
                        device().intAttr("name", 2).build()))
                .isEqualTo(matched(false));
        assertThat(eval(
                        features,
                        D + ".name.includes(semver(\"1.0.0\"))",
                        device().versionAttr("name", "1.0.0").build()))
                .isEqualTo(matched(true));
    }

    @ParameterizedTest
    @MethodSource("features")
    void includesHasNoElementLimit(CelFeatures features) {
        String[] values = IntStream.range(0, 60).mapToObj(i -> "value-" + i).toArray(String[]::new);
        Device d = device().stringsAttr("name", values).build();
        assertThat(eval(features, D + ".name.includes(\"value-48\")", d)).isEqualTo(matched(true));
        assertThat(eval(features, D + ".name.includes(\"value-60\")", d)).isEqualTo(matched(false));
    }
}
