package io.dra4j.cel.internal;

import dev.cel.common.values.CelByteString;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.KubernetesCelLibrary;
import io.dra4j.cel.Semver;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The runtime cost rules of upstream's library cost estimator ({@code CostEstimator.CallCost} in apiserver
 * pkg/cel/library/cost.go), keyed by cel-java overload id. Sizes follow cel-go: a string's size is its number of
 * code points, a list's or map's its number of entries, anything else 1; traversal costs use UTF-8 byte lengths.
 */
public final class LibraryCosts {

    /** Returned when upstream's estimator has no rule and cel-go's default call cost applies. */
    public static final long NO_RULE = -1;

    private static final double STRING_TRAVERSAL = 0.1;
    private static final double REGEX_LENGTH = 0.25;

    /** cel-java's overload id of {@code ==}, which upstream prices at 1 for the Kubernetes types. */
    private static final String EQUALS = "equals";

    private final Map<String, String> functionByOverload;

    public LibraryCosts(List<KubernetesCelLibrary> libraries) {
        Map<String, String> m = new HashMap<>();
        m.put(EQUALS, "_==_");
        ListsLibrary.dynamicFunctions().forEach(f -> m.put(ListsLibrary.dynamicId(f), f));
        for (KubernetesCelLibrary lib : libraries) {
            if (lib instanceof LibrarySupport support) {
                support.declarations().forEach(d -> d.overloads().forEach(o -> m.put(o.overloadId(), d.name())));
            }
        }
        this.functionByOverload = Map.copyOf(m);
    }

    /**
     * The cost upstream charges for one call, or {@link #NO_RULE}.
     *
     * @param overloadId the cel-java overload id of the call
     * @param args the evaluated arguments, receiver first
     * @param result the call's result (only {@code join} needs it; may be null otherwise)
     */
    public long cost(String overloadId, List<Object> args, Object result) {
        String function = functionByOverload.get(overloadId);
        if (function == null) {
            return NO_RULE;
        }
        int n = args.size();
        switch (function) {
            case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
                return n > 0 ? traversalCost(args.get(0)) : 0;
            case "url",
                    "lowerAscii",
                    "upperAscii",
                    "substring",
                    "trim",
                    "cidr",
                    "isIP",
                    "isCIDR",
                    "quantity",
                    "isQuantity",
                    "semver",
                    "isSemver":
                return n >= 1 ? ceil(actualSize(args.get(0)) * STRING_TRAVERSAL) : NO_RULE;
            case "replace", "split":
                return n >= 1 ? ceil(actualSize(args.get(0)) * 2 * STRING_TRAVERSAL) : NO_RULE;
            case "join":
                return n >= 1 && result != null ? ceil(actualSize(result) * 2 * STRING_TRAVERSAL) : NO_RULE;
            case "find", "findAll":
                if (n >= 2) {
                    return ceil((1.0 + actualSize(args.get(0))) * STRING_TRAVERSAL)
                            * ceil(actualSize(args.get(1)) * REGEX_LENGTH);
                }
                return NO_RULE;
            case "ip":
                if (n >= 1) {
                    return overloadId.equals("cidr_ip") ? 1 : ceil(actualSize(args.get(0)) * STRING_TRAVERSAL);
                }
                return NO_RULE;
            case "ip.isCanonical":
                return n >= 1 ? ceil(actualSize(args.get(0)) * 2 * STRING_TRAVERSAL) : NO_RULE;
            case "containsIP", "containsCIDR":
                return n >= 2 ? containsCost(function, overloadId, args) : NO_RULE;
            case "validate":
                if (n >= 2 && args.get(0) instanceof NamedFormat format) {
                    return ceil((1.0 + actualSize(args.get(1))) * STRING_TRAVERSAL)
                            * ceil(format.maxRegexSize() * REGEX_LENGTH);
                }
                return NO_RULE;
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
                return 1;
            case "_==_":
                return n == 2 && isKubernetesValue(args.get(0)) ? 1 : NO_RULE;
            default:
                return NO_RULE;
        }
    }

    private static long containsCost(String function, String overloadId, List<Object> args) {
        long cidrSize = actualSize(args.get(0));
        long otherSize = actualSize(args.get(1));
        long cost = ceil((cidrSize + cidrSize) * STRING_TRAVERSAL);
        if (function.equals("containsCIDR")) {
            cost += ceil(cidrSize * STRING_TRAVERSAL) + 1;
        }
        if (overloadId.equals("cidr_contains_ip_string") || overloadId.equals("cidr_contains_cidr_string")) {
            cost += ceil(otherSize * STRING_TRAVERSAL);
        }
        return cost;
    }

    private static boolean isKubernetesValue(Object v) {
        return v instanceof KubeQuantity
                || v instanceof Semver
                || v instanceof IpAddress
                || v instanceof IpPrefix
                || v instanceof GoUrl
                || v instanceof NamedFormat;
    }

    private static long ceil(double v) {
        return (long) Math.ceil(v);
    }

    /**
     * cel-go's Size(): code points of a string, bytes of bytes, entries of a list or map, the address bytes of an
     * IP (4 or 16), the prefix length in whole bytes of a CIDR (apiserver's {@code CIDR.Size}); 1 otherwise.
     */
    static long actualSize(Object v) {
        if (v instanceof IpAddress ip) {
            return ip.is4() ? 4 : 16;
        }
        if (v instanceof IpPrefix prefix) {
            return (prefix.bits() + 7) / 8;
        }
        if (v instanceof String s) {
            return s.codePointCount(0, s.length());
        }
        if (v instanceof CelByteString b) {
            return b.size();
        }
        if (v instanceof List<?> l) {
            return l.size();
        }
        if (v instanceof Map<?, ?> m) {
            return m.size();
        }
        return 1;
    }

    /** Upstream's traversalCost: a tenth of the UTF-8 length per string, summed over lists and maps. */
    static long traversalCost(Object v) {
        if (v instanceof String s) {
            return (long) (s.getBytes(StandardCharsets.UTF_8).length * STRING_TRAVERSAL);
        }
        if (v instanceof CelByteString b) {
            return (long) (b.size() * STRING_TRAVERSAL);
        }
        if (v instanceof List<?> l) {
            long cost = 0;
            for (Object o : l) {
                cost += traversalCost(o);
            }
            return cost;
        }
        if (v instanceof Map<?, ?> m) {
            long cost = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                cost += traversalCost(e.getKey()) + traversalCost(e.getValue());
            }
            return cost;
        }
        return 1;
    }
}
