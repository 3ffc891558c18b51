package io.dra4j.cel;

import io.dra4j.cel.internal.GuardRewriter;
import java.util.Objects;
import java.util.Optional;

/**
 * A selector rewritten so that a device lacking what it reads no longer makes the evaluation fail but simply does
 * not match: upstream turns a CEL runtime error such as {@code no such key: migCapable} into an allocation error
 * (kube-scheduler's "consider using CEL optional chaining ... or guarding the check with has()"), and this is that
 * advice carried out on the user's expression.
 *
 * @param expression the guarded expression: the guard, {@code &&}, then the original expression in parentheses
 * @param guard      the guard alone, e.g. {@code has(device.attributes["gpu.nvidia.com"].migCapable)} or
 *                   {@code device.driver == "gpu.nvidia.com"}
 */
public record SelectorGuard(String expression, String guard) {

    public SelectorGuard {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(guard, "guard");
    }

    /**
     * The guard for an evaluation that failed with {@code error} (the text {@link CompiledExpression#evaluate} gave) on
     * a device of {@code deviceDriver}; empty for errors other than a missing key.
     */
    public static Optional<SelectorGuard> forRuntimeError(String expression, String error, String deviceDriver) {
        Objects.requireNonNull(error, "error");
        return GuardRewriter.missingKey(error).flatMap(key -> forMissingKey(expression, key, deviceDriver));
    }

    /**
     * The guard for an evaluation that failed with {@code no such key: KEY} on a device of {@code deviceDriver}: where
     * the failing access reads another driver's attribute domain ({@code device.attributes["D"]} or
     * {@code device.capacity["D"]} on a device of another driver), a driver check; otherwise {@code has()} for a field
     * ({@code X.key}) or {@code in} for an index ({@code X["key"]}). Only accesses on {@code device} itself are
     * guarded (not variables of a macro), and only the first in source order.
     *
     * @return empty when the expression does not parse or reads no such key from {@code device}
     */
    public static Optional<SelectorGuard> forMissingKey(String expression, String key, String deviceDriver) {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(deviceDriver, "deviceDriver");
        return GuardRewriter.guardFor(expression, key, deviceDriver)
                .map(guard -> new SelectorGuard(guard + " && (" + expression + ")", guard));
    }
}
