package io.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A guard turns the runtime error on a device that lacks what the selector reads into "does not match", and leaves
 * the outcome on a device that has it unchanged; both are checked by evaluating, not by comparing text alone.
 */
class SelectorGuardTest {

    private static final String GPU = "gpu.example.com";
    private final DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(false, false));

    private final CelDevice withKey = env.device(
            GPU,
            TestDevices.device()
                    .boolAttr("migCapable", true)
                    .intAttr("memoryGiB", 80)
                    .capacity("memory", "80Gi")
                    .build());
    private final CelDevice withoutKey =
            env.device(GPU, TestDevices.device().intAttr("memoryGiB", 80).build());
    private final CelDevice otherDriver =
            env.device("nic.example.com", TestDevices.device().build());

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "device.attributes[\"gpu.example.com\"].migCapable"
                        + "|has(device.attributes[\"gpu.example.com\"].migCapable)",
                "device.attributes[\"gpu.example.com\"][\"migCapable\"] == true"
                        + "|\"migCapable\" in device.attributes[\"gpu.example.com\"]",
                "device.attributes[\"gpu.example.com\"].memoryGiB > 10 && device.attributes[\"gpu.example.com\"].migCapable"
                        + "|has(device.attributes[\"gpu.example.com\"].migCapable)",
                "[1, 2].exists(x, x == 1) && device.attributes[\"gpu.example.com\"].migCapable"
                        + "|has(device.attributes[\"gpu.example.com\"].migCapable)",
            })
    void aMissingAttributeIsGuardedAndTheGuardedSelectorDecidesAsBeforeWhereTheAttributeExists(
            String selector, String expectedGuard) {
        String error = failure(selector, withoutKey);
        assertThat(error).startsWith("no such key: migCapable");

        SelectorGuard guard =
                SelectorGuard.forRuntimeError(selector, error, GPU).orElseThrow();

        assertThat(guard.guard()).isEqualTo(expectedGuard);
        assertThat(guard.expression()).isEqualTo(expectedGuard + " && (" + selector + ")");
        assertThat(env.compile(guard.expression()).evaluate(withoutKey)).isEqualTo(new EvalResult.Matched(false));
        assertThat(env.compile(guard.expression()).evaluate(withKey))
                .isEqualTo(env.compile(selector).evaluate(withKey));
    }

    @Test
    void aDeviceOfAnotherDriverIsExcludedByADriverCheck() {
        String selector = "device.attributes[\"gpu.example.com\"].memoryGiB >= 40";
        String error = failure(selector, otherDriver);

        SelectorGuard guard = SelectorGuard.forRuntimeError(selector, error, "nic.example.com")
                .orElseThrow();

        assertThat(guard.guard()).isEqualTo("device.driver == \"gpu.example.com\"");
        assertThat(env.compile(guard.expression()).evaluate(otherDriver)).isEqualTo(new EvalResult.Matched(false));
        assertThat(env.compile(guard.expression()).evaluate(withKey)).isEqualTo(new EvalResult.Matched(true));
    }

    @Test
    void aMissingCapacityIsGuardedWithIn() {
        String selector = "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0";
        String error = failure(selector, withoutKey);

        SelectorGuard guard =
                SelectorGuard.forRuntimeError(selector, error, GPU).orElseThrow();

        assertThat(env.compile(guard.expression()).evaluate(withoutKey)).isEqualTo(new EvalResult.Matched(false));
        assertThat(env.compile(guard.expression()).evaluate(withKey)).isEqualTo(new EvalResult.Matched(true));
    }

    @Test
    void otherErrorsAndAccessesThroughMacroVariablesGetNoGuard() {
        assertThat(SelectorGuard.forRuntimeError("1 / 0 == 1", "division by zero", GPU))
                .isEmpty();
        // The key is read through the macro's variable, not from device: no guard on device would help.
        assertThat(SelectorGuard.forMissingKey("[{'a': 1}].all(m, m.migCapable)", "migCapable", GPU))
                .isEmpty();
        assertThat(SelectorGuard.forMissingKey("device.attributes[", "migCapable", GPU))
                .isEmpty();
        assertThat(SelectorGuard.forMissingKey("device.driver == \"x\"", "migCapable", GPU))
                .isEqualTo(Optional.empty());
    }

    private String failure(String selector, CelDevice device) {
        EvalResult result = env.compile(selector).evaluate(device);
        assertThat(result).isInstanceOf(EvalResult.Failed.class);
        return ((EvalResult.Failed) result).message();
    }
}
