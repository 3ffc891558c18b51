package io.dra4j.allocator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.EvalResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SelectorShortcutsTest {
    private final SelectorShortcuts shortcuts = new SelectorShortcuts();

    @ParameterizedTest
    @ValueSource(
            strings = {
                "device.driver == \"gpu.example.com\"",
                "  device.driver==\"gpu.example.com\" ",
                "device.driver == 'gpu.example.com'",
                "\"gpu.example.com\" == device.driver"
            })
    void recognisesDriverEqualityAndAgreesWithCel(String expression) {
        assertThat(shortcuts.driverEquality(expression)).isEqualTo("gpu.example.com");
        DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(true, false));
        var device = new DeviceBuilder().withName("d").build();
        assertThat(env.compile(expression).evaluate(env.device("gpu.example.com", device)))
                .isEqualTo(new EvalResult.Matched(true));
        assertThat(env.compile(expression).evaluate(env.device("other.example.com", device)))
                .isEqualTo(new EvalResult.Matched(false));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "device.driver != \"gpu.example.com\"",
                "device.driver == \"a\\\"b\"",
                "device.driver == \"a\" || true",
                "device.driver == \"a\" && device.driver == \"b\"",
                "device.driver == 'a\""
            })
    void leavesEverythingElseToCel(String expression) {
        assertThat(shortcuts.driverEquality(expression)).isNull();
    }
}
