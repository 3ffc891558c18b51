package io.dra4j.cel.internal;

import dev.cel.common.CelOptions;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelInternalRuntimeLibrary;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.RuntimeEquality;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.Semver;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The equality operators and {@code in}, replacing cel-java's standard bindings with cel-go's semantics where they
 * differ (cel-go v0.29.2 {@code types.Equal}, list and map {@code Equal} and {@code Contains}, and the Kubernetes
 * types' {@code Equal} in apiserver pkg/cel):
 *
 * <ul>
 *   <li>A Kubernetes value (quantity, semver, IP, CIDR, URL, named format) on the left of {@code ==} compared with a
 *       value of another type (null aside) is a "no such overload" error; on the right it is simply unequal. So is
 *       a quantity compared with a result of {@code add} or {@code sub} on the right ({@link
 *       KubeQuantity#asGoPointer()}).
 *   <li>{@code !=} is "not true", so it never fails on such a pair.
 *   <li>Numbers of different types compare by value: {@code 0u == dyn(-0.0)} is true.
 *   <li>List and map equality count an element comparison that fails as equal: {@code [v] == ["1.0.0"]} is true
 *       for a version {@code v}.
 *   <li>{@code in} on a list ignores failing comparisons. On a constant list of primitive literals cel-go looks
 *       the value up in a Go map, which aborts the whole evaluation (no {@code ||} absorbs it) for a value Go cannot
 *       hash: a version or a named format. The same holds for {@code in} on a non-empty map the expression built.
 *   <li>{@code in} on {@code device.attributes} or {@code device.capacity} tests the domains that exist
 *       ({@link DomainMap}).
 * </ul>
 */
final class GoEquality implements CelInternalRuntimeLibrary {

    static final String EQUALS = "equals";
    static final String NOT_EQUALS = "not_equals";
    static final String IN_LIST = "in_list";
    static final String IN_MAP = "in_map";
    /** {@code in} on a constant list of primitive literals; selected by {@link ConstantSets}. */
    static final String IN_CONSTANT_SET = "in_constant_set";

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder, RuntimeEquality equality, CelOptions options) {
        builder.addFunctionBindings(
                CelFunctionBinding.from(EQUALS, Object.class, Object.class, (a, b) -> {
                    Boolean result = equal(a, b, equality);
                    if (result == null) {
                        throw new CelEvaluationException("no such overload");
                    }
                    return result;
                }),
                CelFunctionBinding.from(
                        NOT_EQUALS, Object.class, Object.class, (a, b) -> !Boolean.TRUE.equals(equal(a, b, equality))),
                CelFunctionBinding.from(
                        IN_LIST,
                        Object.class,
                        List.class,
                        (Object value, List list) -> contains(list, value, equality)),
                CelFunctionBinding.from(IN_CONSTANT_SET, Object.class, List.class, (Object value, List list) -> {
                    requireHashable(value);
                    return contains(list, value, equality);
                }),
                CelFunctionBinding.from(IN_MAP, Object.class, Map.class, (Object key, Map map) -> {
                    if (map instanceof DomainMap) {
                        return ((DomainMap) map).containsDomain(key);
                    }
                    if (!map.isEmpty() && !DomainMap.isDomain(map)) {
                        requireHashable(key);
                    }
                    return equality.inMap(map, key);
                }));
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        throw new UnsupportedOperationException("needs the runtime equality");
    }

    /** cel-go's {@code types.Equal}: true, false, or null for its "no such overload" error. */
    static Boolean equal(Object a, Object b, RuntimeEquality equality) {
        if (isNull(a) || isNull(b)) {
            return isNull(a) && isNull(b);
        }
        if (a instanceof KubeQuantity && b instanceof KubeQuantity q && q.isGoPointer()) {
            // Upstream's add and sub return *cel.Quantity, which cel.Quantity's Equal does not accept.
            return null;
        }
        if (isKubernetesValue(a)) {
            return a.getClass() == b.getClass() ? equality.objectEquals(a, b) : null;
        }
        if (a instanceof Optional<?> oa) {
            if (!(b instanceof Optional<?> ob)) {
                return false;
            }
            if (oa.isEmpty() || ob.isEmpty()) {
                return oa.isEmpty() && ob.isEmpty();
            }
            return equal(oa.get(), ob.get(), equality);
        }
        if (a instanceof List<?> la) {
            if (!(b instanceof List<?> lb) || la.size() != lb.size()) {
                return false;
            }
            for (int i = 0; i < la.size(); i++) {
                if (Boolean.FALSE.equals(equal(la.get(i), lb.get(i), equality))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> ma) {
            if (!(b instanceof Map<?, ?> mb) || ma.size() != mb.size()) {
                return false;
            }
            for (Map.Entry<?, ?> e : ma.entrySet()) {
                Optional<Object> other = equality.findInMap(mb, e.getKey());
                if (other.isEmpty() || Boolean.FALSE.equals(equal(e.getValue(), other.get(), equality))) {
                    return false;
                }
            }
            return true;
        }
        if (CelValues.isNumber(a) && CelValues.isNumber(b)) {
            // cel-go compares int, uint and double by value (types.Equal); cel-java's runtime equality finds a uint
            // unequal to a negative zero double.
            return CelValues.equal(a, b);
        }
        return equality.objectEquals(a, b);
    }

    private static boolean contains(List<?> list, Object value, RuntimeEquality equality) {
        for (Object element : list) {
            if (Boolean.TRUE.equals(equal(value, element, equality))) {
                return true;
            }
        }
        return false;
    }

    static void requireHashable(Object value) {
        if (value instanceof Semver) {
            throw new Unhashable("cel.Semver");
        }
        if (value instanceof NamedFormat) {
            throw new Unhashable("cel.Format");
        }
    }

    private static boolean isNull(Object v) {
        return v instanceof NullValue || v instanceof com.google.protobuf.NullValue;
    }

    private static boolean isKubernetesValue(Object v) {
        return v instanceof Semver
                || v instanceof KubeQuantity
                || v instanceof IpAddress
                || v instanceof IpPrefix
                || v instanceof GoUrl
                || v instanceof NamedFormat;
    }

    /**
     * cel-go's recovered panic for a map key Go cannot hash. An {@link Error}, so that cel-java's non-strict operators
     * cannot absorb it, as cel-go's panic ends the evaluation.
     */
    static final class Unhashable extends Error {
        private static final long serialVersionUID = 1L;

        Unhashable(String goType) {
            super("internal error: runtime error: hash of unhashable type " + goType, null, false, false);
        }
    }
}
