package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import java.util.HashMap;
import java.util.Map;

/**
 * cel-go's expansion of {@code optMap} and {@code optFlatMap}, for the static cost estimate. cel-go expands {@code
 * t.optMap(v, m)} to {@code t.hasValue() ? optional.of(cel.bind(v, t.value(), m)) : optional.none()} with two copies
 * of {@code t} ({@code optFlatMap} the same without {@code optional.of}); cel-java binds {@code t} once to {@code
 * @target} in a comprehension around that conditional, and its inner binding of {@code v} loops while {@code true}
 * where cel-go's is a {@code cel.bind} (condition {@code false}). cel-go's estimator charges both copies of {@code t},
 * nothing for an outer binding, and sizes {@code v}'s binding as a {@code cel.bind}; this rewrites cel-java's expansion
 * into cel-go's before estimating. The copies keep their ids: the estimate of a node does not depend on where it sits.
 */
final class GoOptionalMacros {

    private static final String TARGET_VARIABLE = MacroCopies.TARGET_VARIABLE;

    private GoOptionalMacros() {}

    static CelAbstractSyntaxTree expand(CelAbstractSyntaxTree ast) {
        CelExpr expr = expand(ast.getExpr(), Map.of());
        if (expr.equals(ast.getExpr())) {
            return ast;
        }
        return CelAbstractSyntaxTree.newCheckedAst(expr, ast.getSource(), ast.getReferenceMap(), ast.getTypeMap());
    }

    private static CelExpr expand(CelExpr e, Map<String, CelExpr> targets) {
        return switch (e.exprKind().getKind()) {
            case IDENT -> targets.getOrDefault(e.ident().name(), e);
            case COMPREHENSION -> expandComprehension(e, targets);
            default -> CelExprs.mapChildren(e, x -> expand(x, targets));
        };
    }

    private static CelExpr expandComprehension(CelExpr e, Map<String, CelExpr> targets) {
        var comp = e.comprehension();
        if (comp.accuVar().equals(TARGET_VARIABLE) && isEmptyList(comp.iterRange())) {
            // The binding of the macro's target: its uses become copies of the target.
            Map<String, CelExpr> inner = new HashMap<>(targets);
            inner.put(TARGET_VARIABLE, expand(comp.accuInit(), targets));
            return expand(comp.result(), inner);
        }
        CelExpr condition = comp.loopCondition();
        if (isTargetValue(comp.accuInit()) && isEmptyList(comp.iterRange())) {
            // The binding of the macro's variable: a cel.bind in cel-go.
            condition = CelExpr.ofConstant(condition.id(), CelConstant.ofValue(false));
        }
        return CelExpr.ofComprehension(
                e.id(),
                comp.iterVar(),
                comp.iterVar2(),
                expand(comp.iterRange(), targets),
                comp.accuVar(),
                expand(comp.accuInit(), targets),
                expand(condition, targets),
                expand(comp.loopStep(), targets),
                expand(comp.result(), targets));
    }

    private static boolean isEmptyList(CelExpr e) {
        return e.exprKind().getKind() == CelExpr.ExprKind.Kind.LIST
                && e.list().elements().isEmpty();
    }

    private static boolean isTargetValue(CelExpr e) {
        return e.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL
                && e.call().function().equals("value")
                && e.call().args().isEmpty()
                && e.call()
                        .target()
                        .filter(t -> t.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT
                                && t.ident().name().equals(TARGET_VARIABLE))
                        .isPresent();
    }
}
