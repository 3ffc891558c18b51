package io.dra4j.cel.internal;

import com.google.protobuf.ByteString;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.values.CelByteString;
import io.dra4j.cel.KubernetesLibraries;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Run-time costs of function calls, as cel-go's cost tracker computes them. The precedence is cel-go's: the
 * overload trackers of the cel-go extensions (lists v3, sets), then the Kubernetes library estimator (by function
 * name, {@link KubernetesLibraries#runtimeCost}), then cel-go's built-in rules, then 1.
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

    private CallCosts() {}

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
     * arguments it often cannot); the Kubernetes estimator ({@link KubernetesLibraries#runtimeCost}) goes by function.
     */
    static Rule rule(String function, List<String> overloads) {
        if (function.equals("_?._") || function.equals("_[?_]")) {
            // Optional selection and index are qualifiers in cel-go, observed only when they yield a value.
            return (args, result) -> result instanceof Optional && ((Optional<?>) result).isPresent() ? 1 : 0;
        }
        if (fixed(function) == 0) {
            return null;
        }
        String single = overloads.size() == 1 ? overloads.get(0) : null;
        Rule tracker = single == null ? null : extensionTracker(function, single);
        if (tracker != null) {
            return tracker;
        }
        Rule builtin = single == null ? null : builtinRule(function, single);
        if (overloads.isEmpty()) {
            return builtin;
        }
        String overload = overloads.get(0);
        return (args, result) -> {
            long cost = KubernetesLibraries.runtimeCost(overload, Arrays.asList(args), result);
            if (cost != KubernetesLibraries.NO_COST_RULE) {
                return cost;
            }
            return builtin == null ? 1 : builtin.cost(args, result);
        };
    }

    /** Overload trackers of the cel-go extensions Kubernetes enables (ext.Lists v3, ext.Sets). */
    private static Rule extensionTracker(String function, String overload) {
        switch (function) {
            case "slice":
            case "lists.range":
                return (args, result) -> allocatingList(1, size(result));
            case "reverse":
                return overload.startsWith("list") ? (args, result) -> allocatingList(1, size(result)) : null;
            case "flatten":
                return (args, result) ->
                        allocatingList(args.length == 2 ? ((Number) args[1]).doubleValue() : 1.0, size(args[0]));
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
            default:
                return null;
        }
    }

    /** cel-go's built-in call costs (interpreter/runtimecost.go). */
    private static Rule builtinRule(String function, String overload) {
        switch (function) {
            case "startsWith":
            case "endsWith":
                return (args, result) -> ceil(size(args[1]) * STRING_TRAVERSAL);
            case "strings.quote":
            case "format":
                return overload.equals("strings_quote") || overload.equals("string_format")
                        ? (args, result) -> ceil(size(args[0]) * STRING_TRAVERSAL)
                        : null;
            case "bytes":
            case "string":
                return overload.equals("string_to_bytes") || overload.equals("bytes_to_string")
                        ? (args, result) -> ceil(size(args[0]) * STRING_TRAVERSAL)
                        : null;
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
                        ? (args, result) -> ceil(Math.min(size(args[0]), size(args[1])) * STRING_TRAVERSAL)
                        : null;
            case "_+_":
                return overload.equals("add_string") || overload.equals("add_bytes")
                        ? (args, result) -> ceil((size(args[0]) + size(args[1])) * STRING_TRAVERSAL)
                        : null;
            case "contains":
                return overload.equals("contains_string")
                        ? (args, result) ->
                                ceil(size(args[0]) * STRING_TRAVERSAL) * ceil(size(args[1]) * STRING_TRAVERSAL)
                        : null;
            case "matches":
                return (args, result) ->
                        ceil((1.0 + size(args[0])) * STRING_TRAVERSAL) * ceil(size(args[1]) * REGEX_LENGTH);
            default:
                return null;
        }
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
