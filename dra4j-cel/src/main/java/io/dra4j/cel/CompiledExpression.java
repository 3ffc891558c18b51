package io.dra4j.cel;

import io.dra4j.cel.internal.SelectorCompiler;
import io.dra4j.cel.internal.SelectorProgram;
import java.util.Objects;
import java.util.Optional;

/** A device selector expression, compiled once. Thread-safe. */
public final class CompiledExpression {

    private final String expression;
    private final SelectorCompiler.Compiled compiled;
    /** The estimate, computed on first use (a benign race: every thread computes the same value). */
    private volatile EstimatedCost estimate;

    CompiledExpression(String expression, SelectorCompiler.Compiled compiled) {
        this.expression = Objects.requireNonNull(expression, "expression");
        this.compiled = compiled;
    }

    public String expression() {
        return expression;
    }

    /**
     * Upstream's detail text when the expression does not compile, for example
     * {@code compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x\n | ^}.
     */
    public Optional<String> compileError() {
        if (compiled instanceof SelectorCompiler.Compiled.Failure) {
            return Optional.of(((SelectorCompiler.Compiled.Failure) compiled).detail());
        }
        return Optional.empty();
    }

    /**
     * Evaluates the selector against a device. Never throws: a compile error, runtime error, exceeded cost limit
     * or non-bool result comes back as {@link EvalResult.Failed} with upstream's text.
     */
    public EvalResult evaluate(CelDevice device) {
        if (compiled instanceof SelectorCompiler.Compiled.Failure) {
            return new EvalResult.Failed(((SelectorCompiler.Compiled.Failure) compiled).detail());
        }
        SelectorProgram program = ((SelectorCompiler.Compiled.Success) compiled).program();
        return program.evaluate(device.view());
    }

    /**
     * The static cost estimate upstream's API validation compares with {@link EstimatedCost#LIMIT}, or empty after a
     * compile error.
     */
    public Optional<EstimatedCost> estimatedCost() {
        if (!(compiled instanceof SelectorCompiler.Compiled.Success success)) {
            return Optional.empty();
        }
        EstimatedCost known = estimate;
        if (known == null) {
            var range = success.estimatedCost();
            known = new EstimatedCost(range.min(), range.max());
            estimate = known;
        }
        return Optional.of(known);
    }

    /** The compiled program, or empty after a compile error; for tests in this package. */
    Optional<SelectorProgram> program() {
        if (compiled instanceof SelectorCompiler.Compiled.Success) {
            return Optional.of(((SelectorCompiler.Compiled.Success) compiled).program());
        }
        return Optional.empty();
    }
}
