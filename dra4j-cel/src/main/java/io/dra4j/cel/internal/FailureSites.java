package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The places of an expression that fail differently in cel-java and cel-go.
 *
 * <ul>
 *   <li>Calls whose failures cel-java reports with less detail: division and modulus (both "/ by zero") and type
 *       conversions (a Java parse error), and the timestamp accessors with a time zone (a Java parse error on an
 *       offset's hours or minutes). cel-java's evaluation errors carry the source offset of the failing node,
 *       which this maps back to the function.
 *   <li>Map literals with a key that is not a constant: cel-go builds them as Go maps, and a key Go cannot hash
 *       (a version, a named format) aborts the evaluation; see {@link #checkMapLiteral}.
 * </ul>
 */
final class FailureSites {

    private static final Set<String> FUNCTIONS = Stream.concat(
                    Stream.of("_/_", "_%_", "int", "uint", "double", "bool", "duration", "timestamp"),
                    RuntimeErrors.ZONE_FUNCTIONS.stream())
            .collect(Collectors.toUnmodifiableSet());
    private static final Pattern OFFSET = Pattern.compile("^evaluation error at [^:]*:(\\d+)");

    private final Map<Integer, String> functionAt;
    private final Set<Long> mapLiterals;

    private FailureSites(Map<Integer, String> functionAt, Set<Long> mapLiterals) {
        this.functionAt = functionAt;
        this.mapLiterals = mapLiterals;
    }

    static FailureSites of(CelAbstractSyntaxTree ast) {
        Map<Long, Integer> positions = ast.getSource().getPositionsMap();
        Map<Integer, String> functionAt = new HashMap<>();
        CelNavigableAst.fromAst(ast)
                .getRoot()
                .allNodes()
                .map(CelNavigableExpr::expr)
                .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL)
                .filter(e -> FUNCTIONS.contains(e.call().function()))
                .forEach(e -> {
                    Integer offset = positions.get(e.id());
                    if (offset != null) {
                        functionAt.putIfAbsent(offset, e.call().function());
                    }
                });
        Set<Long> mapLiterals = CelNavigableAst.fromAst(ast)
                .getRoot()
                .allNodes()
                .map(CelNavigableExpr::expr)
                .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.MAP)
                .filter(e -> e.map().entries().stream()
                        .anyMatch(entry -> entry.key().exprKind().getKind() != CelExpr.ExprKind.Kind.CONSTANT))
                .map(CelExpr::id)
                .collect(Collectors.toUnmodifiableSet());
        return new FailureSites(Map.copyOf(functionAt), mapLiterals);
    }

    /** Whether evaluation must watch map literals ({@link #checkMapLiteral}). */
    boolean hasMapLiterals() {
        return !mapLiterals.isEmpty();
    }

    /** For an evaluation listener: fails as cel-go does when a map literal just built has a key Go cannot hash. */
    void checkMapLiteral(CelExpr expr, Object result) {
        if (mapLiterals.contains(expr.id()) && result instanceof Map<?, ?> map) {
            map.keySet().forEach(GoEquality::requireHashable);
        }
    }

    /** The function of the failing call named by a cel-java evaluation error, if it is one of interest. */
    Optional<String> failingFunction(Throwable failure) {
        Matcher offset = OFFSET.matcher(String.valueOf(failure.getMessage()));
        if (!offset.find()) {
            return Optional.empty();
        }
        return Optional.ofNullable(functionAt.get(Integer.parseInt(offset.group(1))));
    }
}
