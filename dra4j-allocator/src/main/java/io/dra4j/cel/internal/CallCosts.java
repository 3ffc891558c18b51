package io.dra4j.cel.internal;

import com.google.protobuf.ByteString;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.values.CelByteString;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Run-time costs of function calls, as cel-go's cost tracker computes them. The precedence is cel-go's: the
 * overload trackers of the cel-go extensions (lists v3, sets), then the Kubernetes library estimator (by function
 * name), then cel-go's built-in rules, then 1.
 *
 * <p>All arithmetic mirrors the Go code's float64 operations so that rounding matches.
 */
final class CallCosts {

  /** cel-go's StringTraversalCostFactor and RegexStringLengthCostFactor. */
  private static final double STRING_TRAVERSAL = 0.1;
  private static final double REGEX_LENGTH = 0.25;

  /** A cost that depends on argument values (target first for member calls) and the result. */
  @FunctionalInterface
  interface Rule {
    long cost(Object[] args, Object result);
  }

  private CallCosts() {
  }

  /** Cost of calls that need no values. */
  static long fixed(String function) {
    switch (function) {
      case "_&&_":
      case "_||_":
      case "_?_:_":
      case "or":
      case "orValue":
        return 0;
      default:
        return 1;
    }
  }

  /**
   * The value-dependent rule for a call, or null when its cost is {@link #fixed}. cel-go applies its own and its
   * extensions' overload-specific rules only when the type checker resolved exactly one overload (with {@code dyn}
   * arguments it often cannot); the Kubernetes estimator goes by function name alone.
   */
  static Rule rule(String function, List<String> overloads) {
    String single = overloads.size() == 1 ? overloads.get(0) : null;
    Rule byName = kubernetesRule(function, single);
    if (byName != null) {
      return byName;
    }
    return single == null ? null : overloadRule(function, single);
  }

  /** Rules of the Kubernetes library cost estimator (library/cost.go) and of cel-go's optional qualifiers. */
  private static Rule kubernetesRule(String function, String single) {
    switch (function) {
      // Optional selection and index are qualifiers in cel-go, observed only when they yield a value.
      case "_?._":
      case "_[?_]":
        return (args, result) -> result instanceof Optional && ((Optional<?>) result).isPresent() ? 1 : 0;
      case "isSorted":
      case "sum":
      case "max":
      case "min":
      case "indexOf":
      case "lastIndexOf":
      case "includes":
        return (args, result) -> args.length > 0 ? traversal(args[0]) : 0;
      case "url":
      case "lowerAscii":
      case "upperAscii":
      case "substring":
      case "trim":
      case "cidr":
      case "isIP":
      case "isCIDR":
      case "quantity":
      case "isQuantity":
      case "semver":
      case "isSemver":
        return (args, result) -> ceil(size(args[0]) * STRING_TRAVERSAL);
      case "ip":
        return "cidr_ip".equals(single) ? null : (args, result) -> ceil(size(args[0]) * STRING_TRAVERSAL);
      case "ip.isCanonical":
      case "replace":
      case "split":
        return (args, result) -> ceil(size(args[0]) * 2 * STRING_TRAVERSAL);
      case "join":
        return (args, result) -> ceil(size(result) * 2 * STRING_TRAVERSAL);
      case "find":
      case "findAll":
        return (args, result) -> regexCost(args);
      case "containsIP":
        return (args, result) -> {
          long cidr = size(args[0]);
          long cost = ceil((cidr + cidr) * STRING_TRAVERSAL);
          return "cidr_contains_ip_string".equals(single) ? cost + ceil(size(args[1]) * STRING_TRAVERSAL) : cost;
        };
      case "containsCIDR":
        return (args, result) -> {
          long cidr = size(args[0]);
          long cost = ceil((cidr + cidr) * STRING_TRAVERSAL) + ceil(cidr * STRING_TRAVERSAL) + 1;
          return "cidr_contains_cidr_string".equals(single) ? cost + ceil(size(args[1]) * STRING_TRAVERSAL)
              : cost;
        };
      default:
        return null;
    }
  }

  /** Overload trackers of cel-go's extensions (lists v3, sets) and cel-go's built-in rules (runtimecost.go). */
  private static Rule overloadRule(String function, String overload) {
    switch (function) {
      case "slice":
      case "lists.range":
        return (args, result) -> allocatingList(1, size(result));
      case "reverse":
        return overload.startsWith("list") ? (args, result) -> allocatingList(1, size(result)) : null;
      case "flatten":
        return (args, result) -> allocatingList(args.length == 2 ? ((Number) args[1]).doubleValue() : 1.0,
            size(args[0]));
      case "distinct":
      case "sort":
        return (args, result) -> selfCompare(args[0]);
      case "@sortByAssociatedKeys":
      case "lists.@sortByAssociatedKeys":
        return (args, result) -> selfCompare(args[1]);
      case "sets.contains":
      case "sets.intersects":
        return (args, result) -> 1 + (long) ((double) (size(args[0]) * size(args[1])) * 1.0);
      case "sets.equivalent":
        return (args, result) -> 1 + (long) ((double) (size(args[0]) * size(args[1])) * 2.0);
      case "startsWith":
      case "endsWith":
        return (args, result) -> ceil(size(args[1]) * STRING_TRAVERSAL);
      case "strings.quote":
        return (args, result) -> ceil(size(args[0]) * STRING_TRAVERSAL);
      case "bytes":
      case "string":
        return overload.equals("string_to_bytes") || overload.equals("bytes_to_string")
            ? (args, result) -> ceil(size(args[0]) * STRING_TRAVERSAL) : null;
      case "@in":
        return overload.equals("in_list") ? (args, result) -> size(args[1]) : null;
      case "_==_":
      case "_!=_":
        return (args, result) -> ceil(Math.min(size(args[0]), size(args[1])) * STRING_TRAVERSAL);
      case "_<_":
      case "_<=_":
      case "_>_":
      case "_>=_":
        return overload.endsWith("_string") || overload.endsWith("_bytes")
            ? (args, result) -> ceil(Math.min(size(args[0]), size(args[1])) * STRING_TRAVERSAL) : null;
      case "_+_":
        return overload.equals("add_string") || overload.equals("add_bytes")
            ? (args, result) -> ceil((size(args[0]) + size(args[1])) * STRING_TRAVERSAL) : null;
      case "contains":
        return overload.equals("contains_string")
            ? (args, result) -> ceil(size(args[0]) * STRING_TRAVERSAL) * ceil(size(args[1]) * STRING_TRAVERSAL)
            : null;
      case "matches":
        return (args, result) -> regexCost(args);
      default:
        return null;
    }
  }

  private static long regexCost(Object[] args) {
    return ceil((1.0 + size(args[0])) * STRING_TRAVERSAL) * ceil(size(args[1]) * REGEX_LENGTH);
  }

  /** Whether every element of a list literal is a primitive constant other than bytes (cel-go's set membership). */
  static boolean primitiveElements(CelExpr list) {
    for (CelExpr element : list.list().elements()) {
      if (element.exprKind().getKind() != CelExpr.ExprKind.Kind.CONSTANT) {
        return false;
      }
      switch (element.constant().getKind()) {
        case BOOLEAN_VALUE:
        case INT64_VALUE:
        case UINT64_VALUE:
        case DOUBLE_VALUE:
        case STRING_VALUE:
          break;
        default:
          return false;
      }
    }
    return true;
  }

  /** cel-go's actualSize: code points of a string, bytes, elements; 1 for everything else. */
  static long size(Object value) {
    if (value instanceof String) {
      String s = (String) value;
      return s.codePointCount(0, s.length());
    }
    if (value instanceof ByteString) {
      return ((ByteString) value).size();
    }
    if (value instanceof CelByteString) {
      return ((CelByteString) value).size();
    }
    if (value instanceof List) {
      return ((List<?>) value).size();
    }
    if (value instanceof Map) {
      return ((Map<?, ?>) value).size();
    }
    if (value instanceof Optional && ((Optional<?>) value).isPresent()) {
      return size(((Optional<?>) value).get());
    }
    return 1;
  }

  /** The Kubernetes library's traversal cost: a tenth of the bytes of every string reached, 1 per scalar. */
  static long traversal(Object value) {
    if (value instanceof String) {
      return (long) (((String) value).getBytes(StandardCharsets.UTF_8).length * STRING_TRAVERSAL);
    }
    if (value instanceof ByteString || value instanceof CelByteString) {
      return (long) (size(value) * STRING_TRAVERSAL);
    }
    if (value instanceof List) {
      long cost = 0;
      for (Object element : (List<?>) value) {
        cost += traversal(element);
      }
      return cost;
    }
    if (value instanceof Map) {
      long cost = 0;
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        cost += traversal(entry.getKey()) + traversal(entry.getValue());
      }
      return cost;
    }
    return 1;
  }

  private static long allocatingList(double factor, long size) {
    if (factor < 0) {
      factor = 1.0;
    }
    return (long) (size * factor) + 1 + CostModel.LIST_CREATE;
  }

  private static long selfCompare(Object list) {
    long n = size(list);
    double factor = 2.0;
    if (n == 0) {
      return allocatingList(factor, 0);
    }
    Object first = ((List<?>) list).get(0);
    if (isStringOrBytes(first)) {
      factor += STRING_TRAVERSAL;
    }
    return allocatingList(factor, n * n);
  }

  private static long ceil(double value) {
    return (long) Math.ceil(value);
  }

  private static boolean isStringOrBytes(Object value) {
    return value instanceof String || value instanceof ByteString || value instanceof CelByteString;
  }

  private static boolean bothStrings(Object[] args) {
    return args[0] instanceof String && args[1] instanceof String;
  }

  private static boolean bothBytes(Object[] args) {
    return !(args[0] instanceof String) && isStringOrBytes(args[0]) && isStringOrBytes(args[1]);
  }
}
