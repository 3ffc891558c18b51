package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Negation as cel-go evaluates it: whatever overload its checker chose, cel-go negates any value with the Negater
 * trait, which its durations have ({@code Duration.Negate}, overflowing as an int64 of nanoseconds), although no
 * {@code -duration} overload is declared; so {@code -dyn(duration("1s"))} is {@code duration("-1s")} there, and
 * {@code -o.value()} with {@code o} a {@code dyn} negates an int although the checker typed the free type parameter
 * double. cel-java dispatches only to the overloads its checker chose; every negation gets the int, double and
 * duration bindings.
 */
final class GoNegation implements CelRuntimeLibrary {

    private static final String NEGATE_DURATION = "negate_duration";
    private static final List<String> NEGATIONS = List.of("negate_int64", "negate_double", NEGATE_DURATION);

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        builder.addFunctionBindings(CelFunctionBinding.from(
                NEGATE_DURATION, Duration.class, d -> Duration.ofNanos(Math.negateExact(d.toNanos()))));
    }

    static CelAbstractSyntaxTree withAnyNegation(CelAbstractSyntaxTree ast) {
        Map<Long, CelReference> references = ast.getReferenceMap();
        Map<Long, List<String>> replaced = new LinkedHashMap<>();
        for (CelExpr call : CelNavigableAst.fromAst(ast)
                .getRoot()
                .allNodes()
                .map(CelNavigableExpr::expr)
                .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL
                        && e.call().function().equals("-_")
                        && e.call().args().size() == 1)
                .toList()) {
            CelReference reference = references.get(call.id());
            if (reference == null || reference.overloadIds().containsAll(NEGATIONS)) {
                continue;
            }
            List<String> ids = Stream.concat(reference.overloadIds().stream(), NEGATIONS.stream())
                    .distinct()
                    .toList();
            replaced.put(call.id(), ids);
        }
        return CelExprs.withOverloadIds(ast, replaced);
    }
}
