package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import java.util.HashMap;
import java.util.Map;

/**
 * cel-go's {@code optMap} and {@code optFlatMap} macros copy their target (one copy tests {@code hasValue()}, one reads
 * {@code value()}), and its checker reports an error in the target once per copy; cel-java's expansion binds the
 * target once to {@code @target}, so it reports such an error once. This counts cel-go's copies of each node.
 */
final class MacroCopies {

    /** The accumulator variable cel-java's optMap and optFlatMap expansions bind their target to. */
    static final String TARGET_VARIABLE = "@target";

    private final Map<Long, Integer> copies = new HashMap<>();

    private MacroCopies(CelAbstractSyntaxTree parsed) {
        CelNavigableAst.fromAst(parsed)
                .getRoot()
                .allNodes()
                .map(CelNavigableExpr::expr)
                .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.COMPREHENSION
                        && e.comprehension().accuVar().equals(TARGET_VARIABLE))
                .forEach(expansion -> CelNavigableExpr.fromExpr(
                                expansion.comprehension().accuInit())
                        .allNodes()
                        .forEach(node -> copies.merge(node.expr().id(), 2, (a, b) -> a * b)));
    }

    static MacroCopies of(CelAbstractSyntaxTree parsed) {
        return new MacroCopies(parsed);
    }

    /** How many copies of the node {@code exprId} cel-go's expansion holds. */
    int copies(long exprId) {
        return copies.getOrDefault(exprId, 1);
    }
}
