package io.dra4j.cel.internal;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.CelMap;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelType;
import dev.cel.validator.CelAstValidator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * cel-go's homogeneous aggregate literal validator: every element of a list literal (every key, every value of a
 * map literal) must have the type of the first, exactly; {@code dyn} does not stand in for other types. cel-java's
 * own validator accepts assignable types, which lets {@code [dyn(x), 1]} through where Kubernetes rejects it. As in
 * Kubernetes (where cel-go's ext.Strings registers the exemption), literals anywhere inside a {@code format} call
 * are exempt.
 */
final class HomogeneousLiterals implements CelAstValidator {

    private static final Set<String> EXEMPT_FUNCTIONS = Set.of("format");

    @Override
    public void validate(CelNavigableAst navigableAst, Cel cel, IssuesFactory issues) {
        CelAbstractSyntaxTree ast = navigableAst.getAst();
        navigableAst
                .getRoot()
                .allNodes()
                .filter(node -> !insideExemptCall(node))
                .map(CelNavigableExpr::expr)
                .forEach(expr -> {
                    switch (expr.exprKind().getKind()) {
                        case LIST:
                            validateList(ast, expr, issues);
                            break;
                        case MAP:
                            validateMap(ast, expr, issues);
                            break;
                        default:
                            break;
                    }
                });
    }

    private static boolean insideExemptCall(CelNavigableExpr node) {
        for (Optional<CelNavigableExpr> p = node.parent();
                p.isPresent();
                p = p.get().parent()) {
            CelExpr parent = p.get().expr();
            if (parent.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL
                    && EXEMPT_FUNCTIONS.contains(parent.call().function())) {
                return true;
            }
        }
        return false;
    }

    private static void validateList(CelAbstractSyntaxTree ast, CelExpr list, IssuesFactory issues) {
        List<CelExpr> elements = list.list().elements();
        List<Integer> optionalIndices = list.list().optionalIndices();
        CelType first = null;
        for (int i = 0; i < elements.size(); i++) {
            CelType type = ast.getTypeOrThrow(elements.get(i).id());
            if (optionalIndices.contains(i)) {
                type = type.parameters().get(0);
            }
            if (first == null) {
                first = type;
            } else if (!equivalent(first, type)) {
                mismatch(issues, elements.get(i).id(), first, type);
                break;
            }
        }
    }

    private static void validateMap(CelAbstractSyntaxTree ast, CelExpr map, IssuesFactory issues) {
        CelType firstKey = null;
        CelType firstValue = null;
        for (CelMap.Entry entry : map.map().entries()) {
            CelType key = ast.getTypeOrThrow(entry.key().id());
            CelType value = ast.getTypeOrThrow(entry.value().id());
            if (entry.optionalEntry()) {
                value = value.parameters().get(0);
            }
            if (firstKey == null) {
                firstKey = key;
                firstValue = value;
                continue;
            }
            if (!equivalent(firstKey, key)) {
                mismatch(issues, entry.key().id(), firstKey, key);
            }
            if (!equivalent(firstValue, value)) {
                mismatch(issues, entry.value().id(), firstValue, value);
            }
        }
    }

    private static boolean equivalent(CelType a, CelType b) {
        if (a.kind() != b.kind()
                || !a.name().equals(b.name())
                || a.parameters().size() != b.parameters().size()) {
            return false;
        }
        for (int i = 0; i < a.parameters().size(); i++) {
            if (!equivalent(a.parameters().get(i), b.parameters().get(i))) {
                return false;
            }
        }
        return true;
    }

    private static void mismatch(IssuesFactory issues, long id, CelType expected, CelType actual) {
        issues.addError(
                id,
                "expected type '" + CelTypeNames.checkerText(CelTypeNames.checked(expected)) + "' but found '"
                        + CelTypeNames.checkerText(CelTypeNames.checked(actual))
                        + "'");
    }
}
