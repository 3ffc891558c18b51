package io.dra4j.cel;

import static io.dra4j.cel.TestDevices.device;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import org.junit.jupiter.api.Test;

/**
 * The {@code device} variable as upstream builds it (dynamic-resource-allocation v0.37.2 cel/compile.go,
 * DeviceMatches); expected outcomes are upstream's (its compile_test.go cases or runs of the upstream code).
 */
class DeviceVariableTest {

    private static final String DRIVER = "dra.example.com";
    private static final String HINT = ". consider using CEL optional chaining (.? followed by orValue()) or guarding"
            + " the check with has() for optional fields";

    private final DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(false, false));

    private EvalResult eval(String expression, Device device) {
        return eval(expression, DRIVER, device);
    }

    private EvalResult eval(String expression, String driver, Device device) {
        CompiledExpression compiled = env.compile(expression);
        assertThat(compiled.compileError()).isEmpty();
        return compiled.evaluate(env.device(driver, device));
    }

    private static EvalResult matched(boolean value) {
        return new EvalResult.Matched(value);
    }

    @Test
    void driverIsTheSliceDriver() {
        assertThat(eval("device.driver == \"dra.example.com\"", device().build()))
                .isEqualTo(matched(true));
        assertThat(eval("device.driver == \"\"", "", device().build())).isEqualTo(matched(true));
    }

    @Test
    void allowMultipleAllocationsIsDeclaredAndFalseWhenUnset() {
        assertThat(eval("device.allowMultipleAllocations == false", device().build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        "device.allowMultipleAllocations",
                        device().allowMultipleAllocations(true).build()))
                .isEqualTo(matched(true));
        assertThat(eval(
                        "device.allowMultipleAllocations == false",
                        device().allowMultipleAllocations(false).build()))
                .isEqualTo(matched(true));
    }

    @Test
    void shortNamesLiveInTheDriverDomain() {
        Device d = device().boolAttr("name", true).build();
        assertThat(eval("device.attributes[\"dra.example.com\"].name", d)).isEqualTo(matched(true));
        assertThat(eval("device.attributes[\"dra.example.com\"][\"name\"]", d)).isEqualTo(matched(true));
    }

    @Test
    void qualifiedNamesLiveInTheirOwnDomain() {
        Device d = device().boolAttr("other.example.com/name", true).build();
        assertThat(eval("device.attributes[\"other.example.com\"].name", d)).isEqualTo(matched(true));
        assertThat(eval("\"other.example.com\" in device.attributes", d)).isEqualTo(matched(true));
    }

    @Test
    void namesSplitAtTheFirstSlash() {
        Device d = device().stringAttr("a.example.com/b/c", "v").build();
        assertThat(eval("device.attributes[\"a.example.com\"][\"b/c\"] == \"v\"", d))
                .isEqualTo(matched(true));
    }

    @Test
    void fullyQualifiedEntryWinsOverShortNameInEitherOrder() {
        Device shortFirst = device().boolAttr("x", false)
                .boolAttr("dra.example.com/x", true)
                .build();
        Device qualifiedFirst = device().boolAttr("dra.example.com/x", true)
                .boolAttr("x", false)
                .build();
        assertThat(eval("device.attributes[\"dra.example.com\"].x", shortFirst)).isEqualTo(matched(true));
        assertThat(eval("device.attributes[\"dra.example.com\"].x", qualifiedFirst))
                .isEqualTo(matched(true));
    }

    @Test
    void unknownDomainLooksUpAsEmptyMapButIsNotAMember() {
        Device d = device().boolAttr("dra.example.com/something", true).build();
        assertThat(eval("device.attributes[\"no-such-domain\"].size() == 0", d)).isEqualTo(matched(true));
        assertThat(eval("device.capacity[\"no-such-domain\"].size() == 0", d)).isEqualTo(matched(true));
        assertThat(eval("\"no-such-domain\" in device.attributes", d)).isEqualTo(matched(false));
        assertThat(eval("\"dra.example.com\" in device.attributes", d)).isEqualTo(matched(true));
        assertThat(eval("device.attributes.size() == 1", d)).isEqualTo(matched(true));
        // Upstream's Find-based lookup also answers has() for any domain.
        assertThat(eval("has(device.attributes.nosuch)", d)).isEqualTo(matched(true));
        assertThat(eval("device.attributes[?\"zz\"].hasValue()", d)).isEqualTo(matched(true));
        assertThat(eval("device.attributes.exists_one(x, x == \"dra.example.com\")", d))
                .isEqualTo(matched(true));
    }

    @Test
    void unknownIdIsNoSuchKeyWithUpstreamHint() {
        assertThat(eval("device.attributes[\"no-such-domain\"].noSuchAttr", device().build()))
                .isEqualTo(new EvalResult.Failed("no such key: noSuchAttr" + HINT));
        assertThat(eval("device.attributes[\"no-such-domain\"][\"noSuchAttr\"]", device().build()))
                .isEqualTo(new EvalResult.Failed("no such key: noSuchAttr" + HINT));
        assertThat(eval("dyn(device.capacity[\"dra.example.com\"].memory)", device().build()))
                .isEqualTo(new EvalResult.Failed("no such key: memory" + HINT));
        assertThat(eval("has(device.attributes[\"dra.example.com\"].x)", device().build()))
                .isEqualTo(matched(false));
        assertThat(eval("device.attributes[\"dra.example.com\"][?\"n\"].orValue(1) == 1", device().build()))
                .isEqualTo(matched(true));
    }

    @Test
    void scalarAttributeValues() {
        Device d = device().intAttr("int", 1)
                .boolAttr("bool", true)
                .stringAttr("string", "fish")
                .versionAttr("version", "1.0.0")
                .build();
        assertThat(eval("device.attributes[\"dra.example.com\"].int > 0", d)).isEqualTo(matched(true));
        assertThat(eval("device.attributes[\"dra.example.com\"].bool", d)).isEqualTo(matched(true));
        assertThat(eval("device.attributes[\"dra.example.com\"].string == \"fish\"", d))
                .isEqualTo(matched(true));
        assertThat(eval("device.attributes[\"dra.example.com\"].version", d))
                .isEqualTo(new EvalResult.Failed("CEL result of type kubernetes.Semver could not be converted to bool:"
                        + " type conversion error from 'Semver' to 'bool'"));
    }

    @Test
    void capacityValuesAreQuantities() {
        CompiledExpression compiled = env.compile("device.capacity[\"dra.example.com\"].memory");
        assertThat(compiled.compileError())
                .contains("must evaluate to bool or the unknown type, not kubernetes.Quantity");
        Device d = device().capacity("memory", "1Gi").build();
        assertThat(eval("dyn(device.capacity[\"dra.example.com\"].memory)", d))
                .isEqualTo(
                        new EvalResult.Failed("CEL result of type kubernetes.Quantity could not be converted to bool:"
                                + " type conversion error from 'Quantity' to 'bool'"));
    }

    @Test
    void attributeWithoutValueBreaksEveryEvaluationOnTheDevice() {
        Device d = device().emptyAttr("n").build();
        assertThat(eval("true", d)).isEqualTo(new EvalResult.Failed("attribute n: unsupported attribute value"));
    }

    @Test
    void unparsableVersionBreaksEveryEvaluationOnTheDevice() {
        Device d = device().versionAttr("n", "v1.0.0").build();
        assertThat(eval("true", d))
                .isEqualTo(new EvalResult.Failed(
                        "attribute n: parse semantic version: Invalid character(s) found in major number \"v1\""));
    }
}
