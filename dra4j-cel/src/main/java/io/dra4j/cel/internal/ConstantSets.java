package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelMutableAst;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelMutableExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.navigation.CelNavigableMutableAst;
import dev.cel.common.navigation.CelNavigableMutableExpr;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the {@code in} calls that cel-go's planner turns into Go map lookups (its set-membership optimisation): the
 * list is a non-empty literal of int, uint, double, string or bool constants. Their binding becomes
 * {@link GoEquality#IN_CONSTANT_SET}, which fails as cel-go's lookup does for a value Go cannot hash.
 */
final class ConstantSets {

    private static final Set<CelConstant.Kind> PRIMITIVES = Set.of(
            CelConstant.Kind.INT64_VALUE,
            CelConstant.Kind.UINT64_VALUE,
            CelConstant.Kind.DOUBLE_VALUE,
            CelConstant.Kind.STRING_VALUE,
            CelConstant.Kind.BOOLEAN_VALUE);

    private ConstantSets() {}

    static CelAbstractSyntaxTree select(CelAbstractSyntaxTree ast) {
        Map<Long, CelReference> references = ast.getReferenceMap();
        Map<Long, List<String>> replaced = new LinkedHashMap<>();
        for (CelExpr call : CelNavigableAst.fromAst(ast)
                .getRoot()
                .allNodes()
                .map(CelNavigableExpr::expr)
                .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL)
                .filter(e ->
                        e.call().function().equals("@in") && e.call().args().size() == 2)
                .toList()) {
            CelReference reference = references.get(call.id());
            if (reference == null
                    || !reference.overloadIds().equals(List.of(GoEquality.IN_LIST))
                    || !isConstantPrimitiveList(call.call().args().get(1))) {
                continue;
            }
            replaced.put(call.id(), List.of(GoEquality.IN_CONSTANT_SET));
        }
        return CelExprs.withOverloadIds(ast, replaced);
    }

    /**
     * cel-go's planner turns {@code x in []} (an empty list literal) into the constant {@code false} without planning
     * {@code x} into the program (maybeOptimizeSetMembership), so {@code x} is never evaluated: its errors do not
     * surface and it costs nothing. Run after the planning checks, which still see {@code x}.
     */
    static CelAbstractSyntaxTree foldEmptyMembership(CelAbstractSyntaxTree ast) {
        CelMutableAst mutable = CelMutableAst.fromCelAst(ast);
        Map<Long, CelReference> references = new LinkedHashMap<>(ast.getReferenceMap());
        boolean changed = false;
        for (CelNavigableMutableExpr node :
                CelNavigableMutableAst.fromAst(mutable).getRoot().allNodes().toList()) {
            CelMutableExpr expr = node.expr();
            if (expr.getKind() != CelExpr.ExprKind.Kind.CALL
                    || !expr.call().function().equals("@in")
                    || expr.call().args().size() != 2) {
                continue;
            }
            CelReference reference = references.get(expr.id());
            CelMutableExpr list = expr.call().args().get(1);
            if (reference == null
                    || !reference.overloadIds().equals(List.of(GoEquality.IN_LIST))
                    || list.getKind() != CelExpr.ExprKind.Kind.LIST
                    || !list.list().elements().isEmpty()) {
                continue;
            }
            references.remove(expr.id());
            expr.setConstant(CelConstant.ofValue(false));
            changed = true;
        }
        if (!changed) {
            return ast;
        }
        return CelAbstractSyntaxTree.newCheckedAst(
                mutable.toParsedAst().getExpr(), ast.getSource(), references, ast.getTypeMap());
    }

    private static boolean isConstantPrimitiveList(CelExpr expr) {
        if (expr.exprKind().getKind() != CelExpr.ExprKind.Kind.LIST) {
            return false;
        }
        List<CelExpr> elements = expr.list().elements();
        return !elements.isEmpty()
                && expr.list().optionalIndices().isEmpty()
                && elements.stream()
                        .allMatch(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
                                && PRIMITIVES.contains(e.constant().getKind()));
    }
}
