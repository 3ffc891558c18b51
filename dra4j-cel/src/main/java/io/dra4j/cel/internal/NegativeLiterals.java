package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelSource;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.internal.CelCodePointArray;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import java.util.Map;

/**
 * cel-go's parser places a negative numeric literal ({@code -1}, {@code -2.5}) at its sign, the start of the literal
 * rule ({@code MINUS? NUM_INT}); cel-java places it at its first digit. Errors reported at such a literal (literal
 * validators, format checks, the homogeneous-literal check) name cel-go's column once the positions are moved to the
 * sign; {@code -0} too, which both parsers fold to 0.
 */
final class NegativeLiterals {

    private NegativeLiterals() {}

    static CelAbstractSyntaxTree atSign(CelAbstractSyntaxTree parsed) {
        CelSource source = parsed.getSource();
        CelCodePointArray text = source.getContent();
        Map<Long, Integer> positions = source.getPositionsMap();
        CelSource.Builder moved = null;
        for (CelExpr literal : CelNavigableAst.fromAst(parsed)
                .getRoot()
                .allNodes()
                .filter(NegativeLiterals::signed)
                .map(CelNavigableExpr::expr)
                .toList()) {
            Integer position = positions.get(literal.id());
            if (position == null) {
                continue;
            }
            int sign = position - 1;
            while (sign >= 0 && Character.isWhitespace(text.get(sign))) {
                sign--;
            }
            if (sign >= 0 && text.get(sign) == '-') {
                moved = moved == null ? source.toBuilder() : moved;
                moved.removePositions(literal.id()).addPositions(literal.id(), sign);
            }
        }
        return moved == null ? parsed : CelAbstractSyntaxTree.newParsedAst(parsed.getExpr(), moved.build());
    }

    /**
     * A literal the parser read with its sign: a negative one, or an int zero ({@code -0}, which the parser folds to
     * 0) that is not the right operand of a subtraction ({@code x - 0}, whose sign is the operator).
     */
    private static boolean signed(CelNavigableExpr node) {
        CelExpr expr = node.expr();
        if (negative(expr)) {
            return true;
        }
        if (expr.exprKind().getKind() != CelExpr.ExprKind.Kind.CONSTANT
                || expr.constant().getKind() != CelConstant.Kind.INT64_VALUE
                || expr.constant().int64Value() != 0) {
            return false;
        }
        return node.parent()
                .map(CelNavigableExpr::expr)
                .filter(p -> p.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL
                        && p.call().function().equals("_-_")
                        && p.call().args().size() == 2
                        && p.call().args().get(1).id() == expr.id())
                .isEmpty();
    }

    private static boolean negative(CelExpr expr) {
        if (expr.exprKind().getKind() != CelExpr.ExprKind.Kind.CONSTANT) {
            return false;
        }
        CelConstant constant = expr.constant();
        switch (constant.getKind()) {
            case INT64_VALUE:
                return constant.int64Value() < 0;
            case DOUBLE_VALUE:
                return Double.doubleToRawLongBits(constant.doubleValue()) < 0;
            default:
                return false;
        }
    }
}
