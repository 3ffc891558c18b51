package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.navigation.TraversalOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where cel-go's checker types an operand of a failed call otherwise than cel-java, as its "found no matching overload"
 * text shows: the variables of a comprehension whose range is neither list nor map have the error type there
 * ({@code checkComprehension}; cel-java: {@code dyn}), written {@code !error!}; a field selection on a type without
 * fields is {@code dyn} there ({@code checkSelect}; cel-java: the error type).
 */
final class ErrorTypedRangeVariables {

    private static final String NOT_A_RANGE = "cannot be range of a comprehension";
    private static final String NO_FIELDS = "does not support field selection";
    private static final Pattern NO_OVERLOAD =
            Pattern.compile("(found no matching overload for '[^']*' applied to ')(.*)'", Pattern.DOTALL);

    /** Node id to the names of error-typed variables in scope there. */
    private final Map<Long, Set<String>> inScope;

    private final Map<Long, CelExpr> calls;

    /** The field selections that failed for a type without fields. */
    private final Set<Long> failedSelections;

    private ErrorTypedRangeVariables(
            Map<Long, Set<String>> inScope, Map<Long, CelExpr> calls, Set<Long> failedSelections) {
        this.inScope = inScope;
        this.calls = calls;
        this.failedSelections = failedSelections;
    }

    static ErrorTypedRangeVariables of(CelAbstractSyntaxTree parsed, List<CelIssue> errors) {
        Set<Long> badRanges = new HashSet<>();
        Set<Long> failedSelections = new HashSet<>();
        for (CelIssue issue : errors) {
            if (issue.getMessage().contains(NOT_A_RANGE)) {
                badRanges.add(issue.getExprId());
            }
            if (issue.getMessage().contains(NO_FIELDS)) {
                failedSelections.add(issue.getExprId());
            }
        }
        Map<Long, Set<String>> inScope = new HashMap<>();
        Map<Long, CelExpr> calls = new HashMap<>();
        if (badRanges.isEmpty() && failedSelections.isEmpty()) {
            return new ErrorTypedRangeVariables(inScope, calls, failedSelections);
        }
        for (CelNavigableExpr node : CelNavigableAst.fromAst(parsed)
                .getRoot()
                .allNodes(TraversalOrder.PRE_ORDER)
                .toList()) {
            CelExpr expr = node.expr();
            if (expr.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL) {
                calls.put(expr.id(), expr);
            }
            // Outer comprehensions come first (pre-order), so a variable's scope is known where an inner one reads it.
            if (expr.exprKind().getKind() != CelExpr.ExprKind.Kind.COMPREHENSION) {
                continue;
            }
            var comprehension = expr.comprehension();
            CelExpr init = comprehension.accuInit();
            if (init.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT
                    && inScope.getOrDefault(init.id(), Set.of())
                            .contains(init.ident().name())) {
                // An accumulator initialised with such a variable (cel.bind) has its type, the error type.
                for (CelExpr scope :
                        List.of(comprehension.loopCondition(), comprehension.loopStep(), comprehension.result())) {
                    CelNavigableExpr.fromExpr(scope)
                            .allNodes()
                            .forEach(n -> inScope.computeIfAbsent(n.expr().id(), k -> new HashSet<>())
                                    .add(comprehension.accuVar()));
                }
            }
            // cel-java reports the range error at the comprehension.
            if (!badRanges.contains(expr.id())
                    && !badRanges.contains(comprehension.iterRange().id())) {
                continue;
            }
            List<String> names = new ArrayList<>(List.of(comprehension.iterVar()));
            if (!comprehension.iterVar2().isEmpty()) {
                names.add(comprehension.iterVar2());
            }
            for (CelExpr scope : List.of(comprehension.loopCondition(), comprehension.loopStep())) {
                CelNavigableExpr.fromExpr(scope)
                        .allNodes()
                        .forEach(n -> inScope.computeIfAbsent(n.expr().id(), k -> new HashSet<>())
                                .addAll(names));
            }
        }
        return new ErrorTypedRangeVariables(inScope, calls, failedSelections);
    }

    /** The issue's message with cel-go's types for such operands among a failed call's arguments. */
    String retype(long exprId, String message) {
        Matcher m = NO_OVERLOAD.matcher(message);
        CelExpr call = calls.get(exprId);
        Set<String> names = inScope.getOrDefault(exprId, Set.of());
        if (!m.matches() || call == null) {
            return message;
        }
        List<CelExpr> args = new ArrayList<>();
        call.call().target().ifPresent(args::add);
        args.addAll(call.call().args());
        String types = m.group(2);
        String receiver = null;
        if (call.call().target().isPresent()) {
            int split = topLevel(types, ".(");
            if (split < 0) {
                return message;
            }
            receiver = types.substring(0, split);
            types = types.substring(split + 1);
        }
        if (!types.startsWith("(") || !types.endsWith(")")) {
            return message;
        }
        List<String> parts = new ArrayList<>();
        if (receiver != null) {
            parts.add(receiver);
        }
        parts.addAll(splitTopLevel(types.substring(1, types.length() - 1)));
        if (parts.size() != args.size()) {
            return message;
        }
        for (int i = 0; i < parts.size(); i++) {
            CelExpr arg = args.get(i);
            if (arg.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT
                    && names.contains(arg.ident().name())) {
                parts.set(i, "!error!");
            }
            if (failedSelections.contains(arg.id()) && parts.get(i).equals("!error!")) {
                parts.set(i, "dyn");
            }
        }
        String rebuilt = receiver == null
                ? "(" + String.join(", ", parts) + ")"
                : parts.get(0) + ".(" + String.join(", ", parts.subList(1, parts.size())) + ")";
        return m.group(1) + rebuilt + "'";
    }

    private static int topLevel(String text, String token) {
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (depth == 0 && text.startsWith(token, i)) {
                return i;
            }
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        }
        return -1;
    }

    private static List<String> splitTopLevel(String text) {
        List<String> out = new ArrayList<>();
        if (text.isEmpty()) {
            return out;
        }
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth == 0 && text.startsWith(", ", i)) {
                out.add(text.substring(start, i));
                start = i + 2;
            }
        }
        out.add(text.substring(start));
        return out;
    }
}
