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

/**
 * The calls of an expression whose failures cel-java reports with less detail than cel-go: division and modulus
 * (both "/ by zero") and type conversions (a Java parse error). cel-java's evaluation errors carry the source offset
 * of the failing node, which this maps back to the function.
 */
final class FailureSites {

  private static final Set<String> FUNCTIONS = Set.of("_/_", "_%_", "int", "uint", "double", "bool");
  private static final Pattern OFFSET = Pattern.compile("^evaluation error at [^:]*:(\\d+)");

  private final Map<Integer, String> functionAt;

  private FailureSites(Map<Integer, String> functionAt) {
    this.functionAt = functionAt;
  }

  static FailureSites of(CelAbstractSyntaxTree ast) {
    Map<Long, Integer> positions = ast.getSource().getPositionsMap();
    Map<Integer, String> functionAt = new HashMap<>();
    CelNavigableAst.fromAst(ast).getRoot().allNodes().map(CelNavigableExpr::expr)
        .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL)
        .filter(e -> FUNCTIONS.contains(e.call().function()))
        .forEach(e -> {
          Integer offset = positions.get(e.id());
          if (offset != null) {
            functionAt.putIfAbsent(offset, e.call().function());
          }
        });
    return new FailureSites(Map.copyOf(functionAt));
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
