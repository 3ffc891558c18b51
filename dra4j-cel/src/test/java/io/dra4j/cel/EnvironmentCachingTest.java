package io.dra4j.cel;

import static io.dra4j.cel.TestDevices.device;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Each environment owns its cache of compiled expressions (per text); environments share nothing, and both are safe
 * to share across threads.
 */
class EnvironmentCachingTest {

    @Test
    void environmentsShareNoCompiledExpressions() {
        DeviceSelectorEnvironment a = DeviceSelectorEnvironment.create(new CelFeatures(true, false));
        DeviceSelectorEnvironment b = DeviceSelectorEnvironment.create(new CelFeatures(true, false));
        assertThat(b).isNotSameAs(a);
        assertThat(b.compile("device.driver == 'a'")).isNotSameAs(a.compile("device.driver == 'a'"));
        assertThat(a.features()).isEqualTo(new CelFeatures(true, false));
    }

    @Test
    void compiledExpressionsAreCachedByExactText() {
        DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(false, false));
        CompiledExpression first = env.compile("device.driver == 'a'");
        assertThat(env.compile("device.driver == 'a'")).isSameAs(first);
        assertThat(env.compile("device.driver == 'a' ")).isNotSameAs(first);
        assertThat(first.expression()).isEqualTo("device.driver == 'a'");
        CompiledExpression broken = env.compile("noSuchVar");
        assertThat(env.compile("noSuchVar")).isSameAs(broken);
    }

    @Test
    void compileErrorIsReportedOnEvaluation() {
        DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(false, false));
        CompiledExpression broken = env.compile("noSuchVar");
        assertThat(broken.evaluate(env.device("a", device().build())))
                .isEqualTo(new EvalResult.Failed(broken.compileError().orElseThrow()));
    }

    @Test
    void concurrentEvaluationsOfSharedExpressionsAndDevices() throws Exception {
        DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(false, false));
        CelDevice small = env.device(
                "dra.example.com",
                device().intAttr("n", 1).stringsAttr("l", "a", "b").build());
        CelDevice large = env.device(
                "dra.example.com",
                device().intAttr("n", 7).stringsAttr("l", "c").build());
        List<CompiledExpression> expressions = List.of(
                env.compile("device.attributes['dra.example.com'].n < 5"),
                env.compile("device.attributes['dra.example.com'].l.exists(x, x == 'a')"),
                env.compile("device.attributes['dra.example.com'].missing"),
                env.compile("lists.range(400).all(x, lists.range(400).all(y, x + y >= 0))"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int task = 0; task < 16; task++) {
                int offset = task;
                Callable<Boolean> work = () -> {
                    for (int i = 0; i < 50; i++) {
                        CompiledExpression e = expressions.get((i + offset) % 3);
                        boolean isSmall = (i + offset) % 2 == 0;
                        EvalResult r = e.evaluate(isSmall ? small : large);
                        EvalResult expected = expected((i + offset) % 3, isSmall);
                        if (!r.equals(expected)) {
                            return false;
                        }
                    }
                    // A few tasks also run into the cost limit at the same time.
                    return offset % 4 != 0 || expressions.get(3).evaluate(small) instanceof EvalResult.Failed;
                };
                results.add(pool.submit(work));
            }
            for (Future<Boolean> f : results) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static EvalResult expected(int expression, boolean small) {
        switch (expression) {
            case 0:
            case 1:
                return new EvalResult.Matched(small);
            default:
                return new EvalResult.Failed(
                        "no such key: missing. consider using CEL optional chaining (.? followed by"
                                + " orValue()) or guarding the check with has() for optional fields");
        }
    }
}
