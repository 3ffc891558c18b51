package io.dra4j.cel.internal;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;

/**
 * Accumulates the run-time cost of one evaluation, node by node as cel-java reports them, and aborts the
 * evaluation as soon as the limit is exceeded (cel-go's tracker panics at the same point).
 */
final class CostTracker implements CelEvaluationListener {

    private final CostModel model;
    private final long limit;
    private final Object[] results;
    /** Per optional-select operand: the cost after its first evaluation, or -1. */
    private final long[] firstEvaluation;

    private long cost;

    CostTracker(CostModel model, long limit) {
        this.model = model;
        this.limit = limit;
        this.results = new Object[model.slots()];
        if (model.hasOptionalSelects()) {
            this.firstEvaluation = new long[model.slots()];
            java.util.Arrays.fill(firstEvaluation, -1);
        } else {
            this.firstEvaluation = null;
        }
    }

    @Override
    public void callback(CelExpr expr, Object evaluatedResult) {
        int id = (int) expr.id();
        if (model.isWatched(id)) {
            results[id] = evaluatedResult;
        }
        cost += model.cost(id, evaluatedResult, results);
        if (firstEvaluation != null) {
            compensateOptionalSelect(id);
        }
        if (cost > limit) {
            throw CostLimitExceeded.INSTANCE;
        }
    }

    private void compensateOptionalSelect(int id) {
        int operand = model.optionalSelectOperand(id);
        if (operand >= 0) {
            // The selection is done; its operand's next evaluation belongs to a new selection.
            firstEvaluation[operand] = -1;
        }
        if (firstEvaluation[id] >= 0) {
            cost = firstEvaluation[id];
            firstEvaluation[id] = -1;
        } else if (model.isOptionalSelectOperand(id)) {
            firstEvaluation[id] = cost;
        }
    }

    long cost() {
        return cost;
    }

    /**
     * Thrown from the listener to stop evaluation. An {@link Error}, so that cel-java's non-strict operators (which
     * turn exceptions into error values) cannot swallow it; stackless, so that it is cheap.
     */
    static final class CostLimitExceeded extends Error {
        private static final long serialVersionUID = 1L;
        static final CostLimitExceeded INSTANCE = new CostLimitExceeded();

        private CostLimitExceeded() {
            super("operation cancelled: actual cost limit exceeded", null, false, false);
        }
    }
}
