package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Upstream's {@code kubernetes.lists} library at version 1, which adds {@code includes} (lists.go). */
public final class ListsLibrary extends LibrarySupport {

    private static final Map<String, CelType> SUMMABLE = types("int", "uint", "double", "duration");
    private static final Map<String, CelType> COMPARABLE =
            types("int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes");

    /** Typed overload id to the dynamic binding of its function. */
    private static final Map<String, String> DYNAMIC_OVERLOADS = dynamicOverloads();

    public ListsLibrary() {
        super("kubernetes.lists", functions());
    }

    private static Map<String, CelType> types(String... names) {
        Map<String, CelType> out = new LinkedHashMap<>();
        for (String n : names) {
            out.put(
                    n,
                    switch (n) {
                        case "int" -> SimpleType.INT;
                        case "uint" -> SimpleType.UINT;
                        case "double" -> SimpleType.DOUBLE;
                        case "bool" -> SimpleType.BOOL;
                        case "duration" -> SimpleType.DURATION;
                        case "timestamp" -> SimpleType.TIMESTAMP;
                        case "string" -> SimpleType.STRING;
                        case "bytes" -> SimpleType.BYTES;
                        default -> throw new IllegalArgumentException(n);
                    });
        }
        return out;
    }

    private static Map<String, String> dynamicOverloads() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String n : COMPARABLE.keySet()) {
            m.put(isSortedId(n), dynamicId("isSorted"));
            m.put(maxId(n), dynamicId("max"));
            m.put(minId(n), dynamicId("min"));
        }
        for (String n : SUMMABLE.keySet()) {
            m.put(sumId(n), dynamicId("sum"));
        }
        return Map.copyOf(m);
    }

    private static String isSortedId(String n) {
        return "list_" + n + "_is_sorted_bool";
    }

    private static String sumId(String n) {
        return "list_" + n + "_sum_" + n;
    }

    private static String maxId(String n) {
        return "list_" + n + "_max_" + n;
    }

    private static String minId(String n) {
        return "list_" + n + "_min_" + n;
    }

    private static List<Function> functions() {
        List<Function> fns = new ArrayList<>();
        fns.add(templated(
                "isSorted", COMPARABLE, ListsLibrary::isSortedId, t -> SimpleType.BOOL, (l, n) -> isSorted(l)));
        fns.add(templated("sum", SUMMABLE, ListsLibrary::sumId, t -> t, ListsLibrary::sum));
        fns.add(templated("max", COMPARABLE, ListsLibrary::maxId, t -> t, (l, n) -> extreme(l, "max", 1)));
        fns.add(templated("min", COMPARABLE, ListsLibrary::minId, t -> t, (l, n) -> extreme(l, "min", -1)));
        TypeParamType a = TypeParamType.create("A");
        fns.add(Function.of(
                newFunctionDeclaration(
                        "indexOf", newMemberOverload("list_a_index_of_int", SimpleType.INT, ListType.create(a), a)),
                CelFunctionBinding.from("list_a_index_of_int", List.class, Object.class, ListsLibrary::indexOf)));
        fns.add(Function.of(
                newFunctionDeclaration(
                        "lastIndexOf",
                        newMemberOverload("list_a_last_index_of_int", SimpleType.INT, ListType.create(a), a)),
                CelFunctionBinding.from(
                        "list_a_last_index_of_int", List.class, Object.class, ListsLibrary::lastIndexOf)));
        fns.add(Function.of(
                newFunctionDeclaration(
                        "includes",
                        newMemberOverload("list_includes_dyn_dyn", SimpleType.BOOL, SimpleType.DYN, SimpleType.DYN)),
                CelFunctionBinding.from("list_includes_dyn_dyn", Object.class, Object.class, ListsLibrary::includes)));
        return fns;
    }

    private interface Id {
        String of(String elementType);
    }

    private interface ResultType {
        CelType of(CelType element);
    }

    /** The operation on a list whose elements have the named type ("int", "string", ...). */
    private interface ListOp {
        Object apply(List<?> list, String elementType) throws CelEvaluationException;
    }

    /**
     * One overload per element type (upstream's ids), each guarded at run time as cel-go guards it (a checker that
     * bound the element type to the first overload's, as it does for a {@code list(T)} receiver of unknown {@code T},
     * leaves a typed overload that a list of other elements fails), plus a runtime-only binding
     * {@code list_dyn_<function>}
     * for receivers whose element type is only known at evaluation: it picks the overload by the first element
     * (an empty list takes the first overload), as cel-go's dispatch does. See {@link #resolveDynamicOverloads}.
     */
    private static Function templated(
            String function, Map<String, CelType> types, Id id, ResultType result, ListOp op) {
        List<CelOverloadDecl> overloads = new ArrayList<>();
        List<CelFunctionBinding> bindings = new ArrayList<>();
        types.forEach((name, type) -> {
            String overloadId = id.of(name);
            overloads.add(newMemberOverload(overloadId, result.of(type), ListType.create(type)));
            bindings.add(CelFunctionBinding.from(overloadId, List.class, l -> {
                // cel-go's runtime type guard of the overload the checker picked: a non-empty list's first
                // element must have the declared element type (decls.go, matchesRuntimeSignature).
                if (!l.isEmpty() && !typeName(l.get(0)).equals(name)) {
                    throw error("no such overload: " + function + "(list)");
                }
                return op.apply(l, name);
            }));
        });
        String firstType = types.keySet().iterator().next();
        bindings.add(CelFunctionBinding.from(dynamicId(function), List.class, l -> {
            String elementType = l.isEmpty() ? firstType : typeName(l.get(0));
            if (!types.containsKey(elementType)) {
                throw error("no such overload: " + function + "(list)");
            }
            return op.apply(l, elementType);
        }));
        return new Function(newFunctionDeclaration(function, overloads), bindings);
    }

    static String dynamicId(String function) {
        return "list_dyn_" + function;
    }

    /** The functions that have a runtime-only dynamic binding. */
    static List<String> dynamicFunctions() {
        return List.of("isSorted", "sum", "max", "min");
    }

    private static String typeName(Object v) {
        if (v instanceof Long) {
            return "int";
        }
        if (v instanceof UnsignedLong) {
            return "uint";
        }
        if (v instanceof Double) {
            return "double";
        }
        if (v instanceof Boolean) {
            return "bool";
        }
        if (v instanceof Duration) {
            return "duration";
        }
        if (v instanceof java.time.Instant) {
            return "timestamp";
        }
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof dev.cel.common.values.CelByteString) {
            return "bytes";
        }
        return "other";
    }

    /**
     * Rewrites calls of {@code isSorted}, {@code sum}, {@code max} and {@code min} on receivers of unknown
     * element type (a {@code dyn} value, an empty list literal) to the dynamic binding. The checker lists every
     * typed overload for such calls and cel-java's runtime cannot tell lists apart by element type, so without
     * this it reports ambiguous overloads where upstream picks one.
     */
    public static CelAbstractSyntaxTree resolveDynamicOverloads(CelAbstractSyntaxTree ast) {
        Map<Long, CelReference> references = ast.getReferenceMap();
        Map<Long, List<String>> replaced = new LinkedHashMap<>();
        for (Map.Entry<Long, CelReference> e : references.entrySet()) {
            List<String> ids = e.getValue().overloadIds();
            if (ids.size() < 2) {
                continue;
            }
            String dynamic = DYNAMIC_OVERLOADS.get(ids.get(0));
            if (dynamic != null && ids.stream().allMatch(i -> dynamic.equals(DYNAMIC_OVERLOADS.get(i)))) {
                replaced.put(e.getKey(), List.of(dynamic));
            }
        }
        return CelExprs.withOverloadIds(ast, replaced);
    }

    private static boolean isSorted(List<?> list) {
        Object prev = null;
        for (Object next : list) {
            if (prev != null && CelValues.compare(prev, next) == 1) {
                return false;
            }
            prev = next;
        }
        return true;
    }

    private static Object sum(List<?> list, String type) throws CelEvaluationException {
        try {
            return typedSum(list, type);
        } catch (ClassCastException mixed) {
            throw error("no such overload");
        }
    }

    private static Object typedSum(List<?> list, String type) throws CelEvaluationException {
        switch (type) {
            case "int" -> {
                long acc = 0;
                for (Object o : list) {
                    try {
                        acc = Math.addExact(acc, (Long) o);
                    } catch (ArithmeticException e) {
                        throw error("integer overflow");
                    }
                }
                return acc;
            }
            case "uint" -> {
                long acc = 0;
                for (Object o : list) {
                    long v = ((UnsignedLong) o).longValue();
                    long s = acc + v;
                    if (Long.compareUnsigned(s, acc) < 0) {
                        throw error("unsigned integer overflow");
                    }
                    acc = s;
                }
                return UnsignedLong.fromLongBits(acc);
            }
            case "double" -> {
                double acc = 0;
                for (Object o : list) {
                    acc += (Double) o;
                }
                return acc;
            }
            default -> {
                Duration acc = Duration.ZERO;
                for (Object o : list) {
                    try {
                        acc = Duration.ofNanos(Math.addExact(acc.toNanos(), ((Duration) o).toNanos()));
                    } catch (ArithmeticException e) {
                        throw error("integer overflow");
                    }
                }
                return acc;
            }
        }
    }

    /** Keeps the first element unless a later one compares strictly beyond it in the preferred direction. */
    private static Object extreme(List<?> list, String name, int prefer) throws CelEvaluationException {
        Object result = null;
        boolean found = false;
        for (Object next : list) {
            if (!found) {
                result = next;
                found = true;
            } else if (CelValues.compare(result, next) == -prefer) {
                result = next;
            }
        }
        if (!found) {
            throw error(name + " called on empty list");
        }
        return result;
    }

    private static long indexOf(List<?> list, Object item) {
        for (int i = 0; i < list.size(); i++) {
            if (CelValues.receiverEquals(list.get(i), item)) {
                return i;
            }
        }
        return -1;
    }

    private static long lastIndexOf(List<?> list, Object item) {
        for (int i = list.size() - 1; i >= 0; i--) {
            if (CelValues.receiverEquals(list.get(i), item)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean includes(Object target, Object arg) {
        if (target instanceof List<?> list) {
            for (Object item : list) {
                if (CelValues.receiverEquals(item, arg)) {
                    return true;
                }
            }
            return false;
        }
        return CelValues.receiverEquals(target, arg);
    }
}
