package io.dra4j.cel;

import static io.dra4j.cel.TestDevices.device;
import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.cel.internal.CostModel;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import org.junit.jupiter.api.Test;

/** The runtime cost limit (CELSelectorExpressionMaxCost = 1,000,000) and the static bound that skips tracking. */
class SelectorCostTest {

    private static final String EXCEEDED = "operation cancelled: actual cost limit exceeded";
    private static final String TEN = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";

    private final DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(false, false));

    private EvalResult eval(String expression, Device device) {
        CompiledExpression compiled = env.compile(expression);
        assertThat(compiled.compileError()).isEmpty();
        return compiled.evaluate(env.device("dra.example.com", device));
    }

    /** Upstream's compile_test.go "expensive" case, also conformance case cel-expensive. */
    @Test
    void expensiveExpressionExceedsTheLimit() {
        String expression = TEN + ".all(x, " + TEN + ".all(y, " + TEN + ".all(z, " + TEN + ".all(z2, " + TEN
                + ".all(z3, " + TEN + ".all(z4, " + TEN + ".all(z5, int('1'.find('[0-9]*')) < 100)))))))";
        assertThat(eval(expression, device().build())).isEqualTo(new EvalResult.Failed(EXCEEDED));
    }

    /** Upstream: 724,812 for 300×300 and the limit exceeded for 400×400 (cel-go v0.29.2 actual cost). */
    @Test
    void limitSitsWhereUpstreamsIs() {
        assertThat(eval("lists.range(300).all(x, lists.range(300).all(y, x + y >= 0))", device().build()))
                .isEqualTo(new EvalResult.Matched(true));
        assertThat(eval("lists.range(400).all(x, lists.range(400).all(y, x + y >= 0))", device().build()))
                .isEqualTo(new EvalResult.Failed(EXCEEDED));
    }

    @Test
    void simpleSelectorsDoNotComeNearTheLimit() {
        Device d = device().stringAttr("model", "A100")
                .capacity("memory", "80Gi")
                .stringsAttr("ids", "a", "b")
                .build();
        assertThat(eval(
                        "device.attributes['dra.example.com'].model == 'A100' && device.capacity['dra.example.com']"
                                + ".memory.compareTo(quantity('40Gi')) >= 0",
                        d))
                .isEqualTo(new EvalResult.Matched(true));
        assertThat(eval("device.attributes['dra.example.com'].ids.exists(x, x == 'b')", d))
                .isEqualTo(new EvalResult.Matched(true));
    }

    @Test
    void staticBoundSkipsTrackingOnlyWithoutLoopsAndGrowth() {
        assertThat(bound("device.driver == 'a' && device.attributes['a'].x.matches('^[a-z]+$')", 64))
                .isTrue();
        assertThat(bound("device.capacity['a'].m.compareTo(quantity('1Gi')) > 0", 64))
                .isTrue();
        assertThat(bound("cel.bind(a, device.attributes['a'], a.x == 1)", 64)).isTrue();
        assertThat(bound("device.attributes['a'].x.exists(v, v == 1)", 64)).isFalse();
        assertThat(bound("device.attributes['a'].x + 'y' == 'z'", 64)).isFalse();
        assertThat(bound("lists.range(1000000).size() > 0", 64)).isFalse();
        assertThat(bound("device.attributes['a'].x.includes(1)", 64)).isTrue();
        // includes() is priced by traversing its target, which may be all of a big device.
        assertThat(bound("dyn(device.attributes).includes(1)", 64, 1_000_000)).isFalse();
        // Huge device values make even a simple selector worth tracking.
        assertThat(bound("device.attributes['a'].x.matches('^[a-z]+$')", 1_000_000))
                .isFalse();
    }

    private boolean bound(String expression, long deviceMaxSize) {
        return bound(expression, deviceMaxSize, 100);
    }

    private boolean bound(String expression, long deviceMaxSize, long deviceTraversal) {
        CompiledExpression compiled = env.compile(expression);
        assertThat(compiled.compileError()).isEmpty();
        CostModel model = compiled.program().orElseThrow().costModel();
        return model.provablyWithin(1_000_000, deviceMaxSize, deviceTraversal);
    }
}
