package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelOverloadDecl;
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

    public ListsLibrary() {
        super("kubernetes.lists", functions());
    }

    private static Map<String, CelType> types(String... names) {
        Map<String, CelType> out = new LinkedHashMap<>();
        for (String n : names) {
            out.put(n, switch (n) {
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

    private static List<Function> functions() {
        List<Function> fns = new ArrayList<>();
        fns.add(templated("isSorted", COMPARABLE, (n, t) -> "list_" + n + "_is_sorted_bool", t -> SimpleType.BOOL,
                ListsLibrary::isSorted));
        fns.add(templated("sum", SUMMABLE, (n, t) -> "list_" + n + "_sum_" + n, t -> t, null));
        fns.add(templated("max", COMPARABLE, (n, t) -> "list_" + n + "_max_" + n, t -> t,
                l -> extreme(l, "max", 1)));
        fns.add(templated("min", COMPARABLE, (n, t) -> "list_" + n + "_min_" + n, t -> t,
                l -> extreme(l, "min", -1)));
        TypeParamType a = TypeParamType.create("A");
        fns.add(Function.of(newFunctionDeclaration("indexOf",
                        newMemberOverload("list_a_index_of_int", SimpleType.INT, ListType.create(a), a)),
                CelFunctionBinding.from("list_a_index_of_int", List.class, Object.class, ListsLibrary::indexOf)));
        fns.add(Function.of(newFunctionDeclaration("lastIndexOf",
                        newMemberOverload("list_a_last_index_of_int", SimpleType.INT, ListType.create(a), a)),
                CelFunctionBinding.from("list_a_last_index_of_int", List.class, Object.class,
                        ListsLibrary::lastIndexOf)));
        fns.add(Function.of(newFunctionDeclaration("includes",
                        newMemberOverload("list_includes_dyn_dyn", SimpleType.BOOL, SimpleType.DYN, SimpleType.DYN)),
                CelFunctionBinding.from("list_includes_dyn_dyn", Object.class, Object.class,
                        ListsLibrary::includes)));
        return fns;
    }

    private interface Id {
        String of(String name, CelType type);
    }

    private interface ResultType {
        CelType of(CelType element);
    }

    private interface ListOp {
        Object apply(List<?> list) throws CelEvaluationException;
    }

    /** One overload per element type, all bound to the same implementation (sum: per-type zero). */
    private static Function templated(String function, Map<String, CelType> types, Id id, ResultType result,
            ListOp op) {
        List<CelOverloadDecl> overloads = new ArrayList<>();
        List<CelFunctionBinding> bindings = new ArrayList<>();
        types.forEach((name, type) -> {
            String overloadId = id.of(name, type);
            overloads.add(newMemberOverload(overloadId, result.of(type), ListType.create(type)));
            ListOp bound = op != null ? op : l -> sum(l, name);
            bindings.add(CelFunctionBinding.from(overloadId, List.class, l -> bound.apply(l)));
        });
        return new Function(newFunctionDeclaration(function, overloads), bindings);
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
            if (CelValues.equal(list.get(i), item)) {
                return i;
            }
        }
        return -1;
    }

    private static long lastIndexOf(List<?> list, Object item) {
        for (int i = list.size() - 1; i >= 0; i--) {
            if (CelValues.equal(list.get(i), item)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean includes(Object target, Object arg) {
        if (target instanceof List<?> list) {
            for (Object item : list) {
                if (CelValues.equal(item, arg)) {
                    return true;
                }
            }
            return false;
        }
        return CelValues.equal(target, arg);
    }
}
