package io.dra4j.cel.internal;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import io.dra4j.cel.EvalResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A compiled selector, evaluated like upstream's {@code CompilationResult.DeviceMatches}: a runtime cost limit, a
 * bool result or one of upstream's errors. Thread-safe.
 */
public final class SelectorProgram {

    private static final String COST_EXCEEDED = "operation cancelled: actual cost limit exceeded";

    private final CelRuntime.Program program;
    private final CostModel costModel;
    private final long costLimit;
    private final FailureSites failureSites;
    private final NoSuchOverloads noSuchOverloads;
    /** The program with cel-go's evaluation of every strict call argument ({@link GoStrictArguments}), on demand. */
    private final Supplier<Optional<CelRuntime.Program>> strictArguments;

    SelectorProgram(
            CelRuntime.Program program,
            CostModel costModel,
            long costLimit,
            FailureSites failureSites,
            NoSuchOverloads noSuchOverloads,
            Supplier<Optional<CelRuntime.Program>> strictArguments) {
        this.program = program;
        this.strictArguments = strictArguments;
        this.costModel = costModel;
        this.costLimit = costLimit;
        this.failureSites = failureSites;
        this.noSuchOverloads = noSuchOverloads;
    }

    public EvalResult evaluate(DeviceView device) {
        if (device.invalid().isPresent()) {
            return new EvalResult.Failed(device.invalid().get());
        }
        Object result;
        // Cost tracking slows evaluation down; skip it when the cost provably stays below the limit, unless map
        // literals must be watched anyway.
        try {
            if (failureSites.hasMapLiterals()) {
                CostTracker tracker = new CostTracker(costModel, costLimit);
                result = program.trace(device.resolver(), (expr, value) -> {
                    failureSites.checkMapLiteral(expr, value);
                    tracker.callback(expr, value);
                });
            } else if (costModel.provablyWithin(costLimit, device.maxValueSize(), device.traversalCost())) {
                result = program.eval(device.resolver());
            } else {
                result = program.trace(device.resolver(), new CostTracker(costModel, costLimit));
            }
        } catch (CostTracker.CostLimitExceeded e) {
            return new EvalResult.Failed(COST_EXCEEDED);
        } catch (GoEquality.Unhashable e) {
            return new EvalResult.Failed(e.getMessage());
        } catch (CelEvaluationException | RuntimeException e) {
            return inGoOrderAfterError(device, e);
        }
        return asBool(result);
    }

    /**
     * After an evaluation error, the outcome in cel-go's evaluation order ({@link GoStrictArguments}): cel-go evaluates
     * the remaining arguments of every strict call on the error's path and can run past the cost limit (or into a
     * panic) on the way; it takes a non-bool operand of {@code &&} or {@code ||} as an error that the other operand
     * can still outweigh, and keeps the first error of the two. This is the failure path, so evaluating again costs
     * nothing on the way of a match.
     */
    private EvalResult inGoOrderAfterError(DeviceView device, Exception failure) {
        Optional<CelRuntime.Program> goOrder = strictArguments.get();
        Exception first = failure;
        if (goOrder.isPresent()) {
            CostTracker tracker = new CostTracker(costModel, costLimit);
            int slots = costModel.slots();
            try {
                return asBool(goOrder.get().trace(device.resolver(), (expr, value) -> {
                    if (expr.id() < slots) {
                        failureSites.checkMapLiteral(expr, value);
                        tracker.callback(expr, value);
                    }
                }));
            } catch (CostTracker.CostLimitExceeded e) {
                return new EvalResult.Failed(COST_EXCEEDED);
            } catch (GoEquality.Unhashable e) {
                return new EvalResult.Failed(e.getMessage());
            } catch (CelEvaluationException | RuntimeException e) {
                first = e;
            }
        }
        Exception error = first;
        return new EvalResult.Failed(noSuchOverloads
                .failingCall(error)
                .flatMap(call -> describe(call, device))
                .orElseGet(() -> RuntimeErrors.message(error, failureSites)));
    }

    /**
     * cel-go's text for a call that found no overload, from its argument values: a second evaluation records them
     * (this is the failure path, so its cost does not matter).
     */
    private Optional<String> describe(CelExpr call, DeviceView device) {
        List<Long> ids = NoSuchOverloads.argumentIds(call);
        Map<Long, Object> values = new HashMap<>();
        try {
            program.trace(device.resolver(), (expr, value) -> {
                if (ids.contains(expr.id())) {
                    values.put(expr.id(), value);
                }
            });
        } catch (CelEvaluationException | RuntimeException | GoEquality.Unhashable e) {
            // Expected: the evaluation fails again at the same call.
        }
        if (!values.keySet().containsAll(ids)) {
            return Optional.empty();
        }
        return Optional.of(
                NoSuchOverloads.message(call, ids.stream().map(values::get).toList()));
    }

    public CostModel costModel() {
        return costModel;
    }

    /**
     * The evaluation cost as cel-go would account it, in cel-go's evaluation order where the program fails but cel-go
     * does not ({@link #inGoOrderAfterError}); for tests.
     */
    public long cost(DeviceView device) throws CelEvaluationException {
        CostTracker tracker = new CostTracker(costModel, Long.MAX_VALUE);
        try {
            program.trace(device.resolver(), tracker);
            return tracker.cost();
        } catch (CelEvaluationException | RuntimeException e) {
            Optional<CelRuntime.Program> goOrder = strictArguments.get();
            if (goOrder.isEmpty()) {
                throw e;
            }
            CostTracker inGoOrder = new CostTracker(costModel, Long.MAX_VALUE);
            int slots = costModel.slots();
            goOrder.get().trace(device.resolver(), (expr, value) -> {
                if (expr.id() < slots) {
                    inGoOrder.callback(expr, value);
                }
            });
            return inGoOrder.cost();
        }
    }

    private static EvalResult asBool(Object result) {
        // cel-go converts an optional by converting the value it holds, an optional in an optional too.
        Object value = result;
        while (value instanceof Optional<?> optional && optional.isPresent()) {
            value = optional.get();
        }
        if (value instanceof Boolean) {
            return new EvalResult.Matched((Boolean) value);
        }
        return new EvalResult.Failed(NonBoolResults.message(result));
    }
}
