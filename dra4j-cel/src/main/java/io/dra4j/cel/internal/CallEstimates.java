package io.dra4j.cel.internal;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import java.util.List;
import java.util.function.Function;

/**
 * The static call estimates {@link CostEstimator} combines, in cel-go's precedence: the overload estimators of the
 * extensions Kubernetes enables (ext.Lists v3, ext.Sets; ext.Strings v2 has none), the Kubernetes library estimator
 * ({@code CostEstimator.EstimateCallCost} in apiserver {@code pkg/cel/library/cost.go}, by function name), then
 * cel-go's built-in rules ({@code functionCost} in {@code checker/cost.go}). Costs here exclude the arguments' own
 * costs, which the caller adds.
 */
final class CallEstimates {

    /** cel-go's StringTraversalCostFactor and RegexStringLengthCostFactor. */
    static final double STRING_TRAVERSAL = 0.1;

    private static final double REGEX_LENGTH = 0.25;
    /** apiserver's MaxNameFormatRegexSize and MaxFormatSize. */
    private static final long MAX_NAME_FORMAT_REGEX_SIZE = 128;

    private static final long MAX_FORMAT_SIZE = 64;

    /** A call's cost and, when known, the size of its result: cel-go's {@code CallEstimate}. */
    record Call(Uint64Range cost, Uint64Range resultSize) {}

    private CallEstimates() {}

    /** cel-go's isScalar: types of a constant size; an optional of one too. */
    static boolean isScalar(CelType type) {
        switch (type.kind()) {
            case BOOL, DOUBLE, DURATION, INT, TIMESTAMP, UINT:
                return true;
            case OPAQUE:
                return type.name().equals("optional_type")
                        && !type.parameters().isEmpty()
                        && isScalar(type.parameters().get(0));
            default:
                return false;
        }
    }

    /** The Kubernetes estimator's and the extensions' size of a node: computed, declared, or unknown. */
    static Uint64Range size(CostEstimator.Node node) {
        if (node.computedSize() != null) {
            return node.computedSize();
        }
        Uint64Range declared = DeviceSizes.estimate(node.path());
        return declared != null ? declared : Uint64Range.UNKNOWN;
    }

    /** The overload estimators of ext.Lists v3 and ext.Sets, or null. */
    static Call extension(String function, String overload, CostEstimator.Node target, List<CostEstimator.Node> args) {
        switch (function) {
            case "slice":
                if (target == null || args.size() != 2) {
                    return null;
                }
                long start = uintLiteral(args.get(0), 0);
                long end = uintLiteral(args.get(1), size(target).max());
                return allocatingList(1, Uint64Range.fixed(end - start));
            case "lists.range":
                if (target != null || args.size() != 1) {
                    return null;
                }
                return allocatingList(1, Uint64Range.fixed(uintLiteral(args.get(0), Uint64Range.MAX)));
            case "reverse":
                if (target == null || !args.isEmpty() || target.type().kind() == CelKind.STRING) {
                    return null;
                }
                return allocatingList(1, size(target));
            case "flatten": {
                if (target == null || args.size() > 1) {
                    return null;
                }
                long depth = args.isEmpty() ? 1 : uintLiteral(args.get(0), Uint64Range.MAX);
                return allocatingList(Uint64Range.toDouble(depth), size(target));
            }
            case "distinct": {
                if (target == null || !args.isEmpty()) {
                    return null;
                }
                Uint64Range sz = size(target);
                return allocatingList(2.0, sz.multiply(sz));
            }
            case "sort":
                if (target == null || !args.isEmpty()) {
                    return null;
                }
                return sortCost(target);
            case "@sortByAssociatedKeys":
                if (target == null || args.size() != 1) {
                    return null;
                }
                return sortCost(args.get(0));
            case "sets.contains", "sets.intersects", "sets.equivalent": {
                if (args.size() != 2) {
                    return null;
                }
                double factor = function.equals("sets.equivalent") ? 2 : 1;
                Uint64Range cost = size(args.get(0))
                        .multiply(size(args.get(1)))
                        .multiplyByCostFactor(factor)
                        .add(Uint64Range.ONE);
                return new Call(cost, null);
            }
            default:
                return null;
        }
    }

    /**
     * ext.Lists' sort estimate: n² comparisons at 2 each, 2.1 for strings and bytes. A list of {@code dyn} matches
     * every element type's overload, and the estimate covers them all.
     */
    private static Call sortCost(CostEstimator.Node list) {
        Uint64Range sz = size(list);
        Uint64Range squared = sz.multiply(sz);
        CelType elem = list.type().parameters().isEmpty()
                ? null
                : list.type().parameters().get(0);
        CelKind kind = elem == null ? CelKind.DYN : elem.kind();
        if (kind == CelKind.STRING || kind == CelKind.BYTES) {
            return allocatingList(2.0 + STRING_TRAVERSAL, squared);
        }
        Call plain = allocatingList(2.0, squared);
        if (kind == CelKind.DYN || kind == CelKind.TYPE_PARAM) {
            Call text = allocatingList(2.0 + STRING_TRAVERSAL, squared);
            return new Call(plain.cost().union(text.cost()), squared);
        }
        return plain;
    }

    private static Call allocatingList(double factor, Uint64Range listSize) {
        Uint64Range cost =
                listSize.multiplyByCostFactor(factor).add(Uint64Range.ONE).add(CostEstimator.LIST_CREATE);
        return new Call(cost, listSize);
    }

    /** ext's nodeAsUintValue: an int literal's value (0 when negative), else the default. */
    private static long uintLiteral(CostEstimator.Node node, long defaultValue) {
        CelExpr e = node.expr();
        if (e == null
                || e.exprKind().getKind() != CelExpr.ExprKind.Kind.CONSTANT
                || e.constant().getKind() != CelConstant.Kind.INT64_VALUE) {
            return defaultValue;
        }
        return Math.max(0, e.constant().int64Value());
    }

    /** The Kubernetes library estimator, by function name, or null. */
    static Call kubernetes(String function, String overload, CostEstimator.Node target, List<CostEstimator.Node> args) {
        switch (function) {
            case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes": {
                if (target == null) {
                    return null;
                }
                Uint64Range elCost = Uint64Range.ONE;
                CostEstimator.Node element = listElement(target);
                if (element != null) {
                    CelKind k = element.type().kind();
                    if (k == CelKind.STRING || k == CelKind.BYTES) {
                        elCost = elCost.add(size(element).multiplyByCostFactor(STRING_TRAVERSAL));
                    }
                    return cost(size(target).multiply(elCost));
                }
                if (function.equals("includes")) {
                    return cost(size(target).multiply(elCost));
                }
                return cost(size(target).multiplyByCostFactor(STRING_TRAVERSAL));
            }
            case "url":
                if (args.size() == 1) {
                    Uint64Range sz = size(args.get(0));
                    return new Call(sz.multiplyByCostFactor(STRING_TRAVERSAL), sz);
                }
                return null;
            case "lowerAscii", "upperAscii", "substring", "trim":
                if (target != null) {
                    Uint64Range sz = size(target);
                    return new Call(sz.multiplyByCostFactor(STRING_TRAVERSAL), sz);
                }
                return null;
            case "replace":
                if (target != null && args.size() >= 2) {
                    return replace(size(target), size(args.get(0)), size(args.get(1)));
                }
                return null;
            case "split":
                if (target != null) {
                    Uint64Range sz = size(target);
                    long max = sz.max();
                    if (args.size() > 1 && isLiteral(args.get(1), CelConstant.Kind.INT64_VALUE)) {
                        max = args.get(1).expr().constant().int64Value();
                    }
                    return new Call(sz.multiplyByCostFactor(2 * STRING_TRAVERSAL), new Uint64Range(0, max));
                }
                return null;
            case "join":
                if (target != null) {
                    Uint64Range sz = Uint64Range.ZERO;
                    Uint64Range listSize = size(target);
                    CostEstimator.Node element = listElement(target);
                    if (element != null) {
                        sz = listSize.multiply(size(element));
                    }
                    if (!args.isEmpty()) {
                        Uint64Range separator = size(args.get(0));
                        long minSeparators = listSize.min() != 0 ? listSize.min() - 1 : 0;
                        long maxSeparators = listSize.max() != 0 ? listSize.max() - 1 : 0;
                        sz = sz.add(separator.multiply(new Uint64Range(minSeparators, maxSeparators)));
                    }
                    return new Call(sz.multiplyByCostFactor(STRING_TRAVERSAL), sz);
                }
                return null;
            case "find", "findAll":
                if (target != null && !args.isEmpty()) {
                    Uint64Range sz = size(target);
                    Uint64Range strCost = sz.add(Uint64Range.ONE).multiplyByCostFactor(STRING_TRAVERSAL);
                    Uint64Range regexCost = size(args.get(0)).multiplyByCostFactor(REGEX_LENGTH);
                    return new Call(strCost.multiply(regexCost), new Uint64Range(0, sz.max()));
                }
                return null;
            case "cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver":
                return args.isEmpty() ? null : cost(size(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL));
            case "ip":
                if (overload.equals("cidr_ip")) {
                    return cost(Uint64Range.ONE);
                }
                return args.isEmpty() ? null : cost(size(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL));
            case "ip.isCanonical":
                return args.isEmpty() ? null : cost(size(args.get(0)).multiplyByCostFactor(2 * STRING_TRAVERSAL));
            case "masked",
                    "prefixLength",
                    "family",
                    "isUnspecified",
                    "isLoopback",
                    "isLinkLocalMulticast",
                    "isLinkLocalUnicast",
                    "isGlobalUnicast",
                    "format.named",
                    "sign",
                    "asInteger",
                    "isInteger",
                    "asApproximateFloat",
                    "isGreaterThan",
                    "isLessThan",
                    "compareTo",
                    "add",
                    "sub",
                    "major",
                    "minor",
                    "patch",
                    "getScheme",
                    "getHostname",
                    "getHost",
                    "getPort",
                    "getEscapedPath",
                    "getQuery":
                return cost(Uint64Range.ONE);
            case "containsIP", "containsCIDR": {
                if (args.isEmpty()) {
                    return null;
                }
                // Two address byte lists of 4 or 16 bytes compared, a CIDR's masking on top, a string parsed.
                Uint64Range sz = new Uint64Range(4, 16);
                Uint64Range cost = sz.add(sz).multiplyByCostFactor(STRING_TRAVERSAL);
                if (function.equals("containsCIDR")) {
                    cost = cost.add(sz.multiplyByCostFactor(STRING_TRAVERSAL)).add(Uint64Range.ONE);
                }
                if (overload.equals("cidr_contains_ip_string") || overload.equals("cidr_contains_cidr_string")) {
                    cost = cost.add(size(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL));
                }
                return cost(cost);
            }
            case "validate":
                if (args.isEmpty()) {
                    return null;
                }
                return cost(size(args.get(0))
                        .multiplyByCostFactor(STRING_TRAVERSAL)
                        .multiplyByCostFactor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH));
            case "_==_":
                return args.size() == 2 ? kubernetesEquality(args.get(0), args.get(1)) : null;
            default:
                return null;
        }
    }

    /** Equality of two values of the same Kubernetes type: constant, except formats and URLs (by their text). */
    private static Call kubernetesEquality(CostEstimator.Node lhs, CostEstimator.Node rhs) {
        CelType t = lhs.type();
        if (!t.equals(rhs.type())) {
            return null;
        }
        switch (t.name()) {
            case "net.IP", "net.CIDR", "kubernetes.Quantity", "kubernetes.Semver":
                return cost(Uint64Range.ONE);
            case "kubernetes.NamedFormat":
                return cost(new Uint64Range(1, MAX_FORMAT_SIZE).multiplyByCostFactor(STRING_TRAVERSAL));
            case "kubernetes.URL": {
                // Upstream reads the right-hand side's size twice.
                Uint64Range size = Uint64Range.ONE;
                if (rhs.computedSize() != null) {
                    size = rhs.computedSize().union(rhs.computedSize());
                }
                return cost(new Uint64Range(1, size.max()).multiplyByCostFactor(STRING_TRAVERSAL));
            }
            default:
                return null;
        }
    }

    /** The replace estimate: the longest and shortest results, and twice a traversal of the target. */
    private static Call replace(Uint64Range sz, Uint64Range toReplace, Uint64Range replaceWith) {
        long countMax;
        long countMin;
        long retainedMax = 0;
        long retainedMin = 0;
        if (toReplace.min() == 0) {
            countMax = sz.max() != Uint64Range.MAX ? sz.max() + 1 : sz.max();
            retainedMax = sz.max();
        } else if (Long.compareUnsigned(replaceWith.max(), toReplace.min()) <= 0) {
            countMax = 0;
            retainedMax = sz.max();
        } else {
            countMax = Uint64Range.fromDouble(
                    Math.ceil(Uint64Range.toDouble(sz.max()) / Uint64Range.toDouble(toReplace.min())));
        }
        if (toReplace.max() == 0) {
            countMin = sz.min() != Uint64Range.MAX ? sz.min() + 1 : sz.min();
            retainedMin = sz.min();
        } else if (Long.compareUnsigned(toReplace.max(), replaceWith.min()) <= 0) {
            countMin = 0;
            retainedMin = sz.min();
        } else {
            countMin = Uint64Range.fromDouble(
                    Math.ceil(Uint64Range.toDouble(sz.min()) / Uint64Range.toDouble(toReplace.max())));
        }
        Uint64Range size = new Uint64Range(countMin, countMax)
                .multiply(replaceWith)
                .add(new Uint64Range(retainedMin, retainedMax));
        return new Call(sz.multiplyByCostFactor(2 * STRING_TRAVERSAL), size);
    }

    /** The Kubernetes estimator's element of a list (or key of a map): its type and path, no size of its own. */
    private static CostEstimator.Node listElement(CostEstimator.Node list) {
        List<CelType> params = list.type().parameters();
        if (params.isEmpty()) {
            return null;
        }
        List<String> path = list.path().isEmpty() ? List.of() : append(list.path(), "@items");
        return new CostEstimator.Node(path, params.get(0), null, null);
    }

    private static List<String> append(List<String> path, String name) {
        java.util.ArrayList<String> out = new java.util.ArrayList<>(path);
        out.add(name);
        return List.copyOf(out);
    }

    /**
     * cel-go's built-in call rules that depend on sizes (traversals, searches, comparisons), or null for the calls
     * that cost 1 (conditionals, concatenations and logical operators are the caller's).
     */
    static Call builtin(
            String overload,
            CostEstimator.Node target,
            List<CostEstimator.Node> args,
            Function<CostEstimator.Node, Uint64Range> sizes) {
        switch (overload) {
            case "string_format":
                return target == null ? null : cost(sizes.apply(target).multiplyByCostFactor(STRING_TRAVERSAL));
            case "string_to_bytes": {
                if (args.size() != 1) {
                    return null;
                }
                Uint64Range sz = sizes.apply(args.get(0));
                return new Call(sz.multiplyByCostFactor(STRING_TRAVERSAL), new Uint64Range(sz.min(), sz.max() * 4));
            }
            case "bytes_to_string": {
                if (args.size() != 1) {
                    return null;
                }
                Uint64Range sz = sizes.apply(args.get(0));
                return new Call(
                        sz.multiplyByCostFactor(STRING_TRAVERSAL),
                        new Uint64Range(Long.divideUnsigned(sz.min(), 4), sz.max()));
            }
            case "strings_quote": {
                if (args.size() != 1) {
                    return null;
                }
                Uint64Range sz = sizes.apply(args.get(0));
                return new Call(
                        sz.multiplyByCostFactor(STRING_TRAVERSAL), new Uint64Range(sz.min() + 2, sz.max() * 2 + 2));
            }
            case "starts_with_string", "ends_with_string":
                return args.size() == 1 ? cost(sizes.apply(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL)) : null;
            case "in_list":
                return args.size() == 2 ? cost(sizes.apply(args.get(1)).multiplyByCostFactor(1)) : null;
            case "matches", "matches_string": {
                CostEstimator.Node str = null;
                CostEstimator.Node regex = null;
                if (overload.equals("matches_string") && target != null && args.size() == 1) {
                    str = target;
                    regex = args.get(0);
                } else if (overload.equals("matches") && target == null && args.size() == 2) {
                    str = args.get(0);
                    regex = args.get(1);
                }
                if (str == null) {
                    return null;
                }
                Uint64Range strCost = sizes.apply(str).add(Uint64Range.ONE).multiplyByCostFactor(STRING_TRAVERSAL);
                Uint64Range regexCost = sizes.apply(regex).multiplyByCostFactor(REGEX_LENGTH);
                return cost(strCost.multiply(regexCost));
            }
            case "contains_string": {
                if (target == null || args.size() != 1) {
                    return null;
                }
                Uint64Range strCost = sizes.apply(target).multiplyByCostFactor(STRING_TRAVERSAL);
                Uint64Range substrCost = sizes.apply(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL);
                return cost(strCost.multiply(substrCost));
            }
            case "less_string",
                    "greater_string",
                    "less_equals_string",
                    "greater_equals_string",
                    "less_bytes",
                    "greater_bytes",
                    "less_equals_bytes",
                    "greater_equals_bytes",
                    "equals",
                    "not_equals": {
                Uint64Range lhs = sizes.apply(args.get(0));
                Uint64Range rhs = sizes.apply(args.get(1));
                long smallestMax = Long.compareUnsigned(rhs.max(), lhs.max()) < 0 ? rhs.max() : lhs.max();
                long min = smallestMax != 0 ? 1 : 0;
                return cost(new Uint64Range(min, smallestMax).multiplyByCostFactor(STRING_TRAVERSAL));
            }
            default:
                return null;
        }
    }

    private static boolean isLiteral(CostEstimator.Node node, CelConstant.Kind kind) {
        CelExpr e = node.expr();
        return e != null
                && e.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && e.constant().getKind() == kind;
    }

    private static Call cost(Uint64Range cost) {
        return new Call(cost, null);
    }
}
