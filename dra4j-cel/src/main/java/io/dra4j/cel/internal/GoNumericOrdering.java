package io.dra4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.ast.CelReference;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelInternalRuntimeLibrary;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.standard.CelStandardOverload;
import dev.cel.runtime.standard.GreaterEqualsOperator.GreaterEqualsOverload;
import dev.cel.runtime.standard.GreaterOperator.GreaterOverload;
import dev.cel.runtime.standard.LessEqualsOperator.LessEqualsOverload;
import dev.cel.runtime.standard.LessOperator.LessOverload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ordering operators ({@code <}, {@code <=}, {@code >}, {@code >=}) on doubles, also against int and uint, with
 * cel-go's semantics, replacing cel-java's standard bindings: a NaN operand is the error "NaN values cannot be
 * ordered" (cel-java answers false), and an int or uint is compared with a double as cel-go's
 * {@code compareDoubleInt}/{@code compareDoubleUint} do (range checks, then float64 comparison).
 */
final class GoNumericOrdering implements CelInternalRuntimeLibrary {

    /** The standard bindings this library replaces. */
    static final Set<CelStandardOverload> REPLACED = Set.of(
            LessOverload.LESS_DOUBLE,
            LessOverload.LESS_DOUBLE_INT64,
            LessOverload.LESS_INT64_DOUBLE,
            LessOverload.LESS_DOUBLE_UINT64,
            LessOverload.LESS_UINT64_DOUBLE,
            LessEqualsOverload.LESS_EQUALS_DOUBLE,
            LessEqualsOverload.LESS_EQUALS_DOUBLE_INT64,
            LessEqualsOverload.LESS_EQUALS_INT64_DOUBLE,
            LessEqualsOverload.LESS_EQUALS_DOUBLE_UINT64,
            LessEqualsOverload.LESS_EQUALS_UINT64_DOUBLE,
            GreaterOverload.GREATER_DOUBLE,
            GreaterOverload.GREATER_DOUBLE_INT64,
            GreaterOverload.GREATER_INT64_DOUBLE,
            GreaterOverload.GREATER_DOUBLE_UINT64,
            GreaterOverload.GREATER_UINT64_DOUBLE,
            GreaterEqualsOverload.GREATER_EQUALS_DOUBLE,
            GreaterEqualsOverload.GREATER_EQUALS_DOUBLE_INT64,
            GreaterEqualsOverload.GREATER_EQUALS_INT64_DOUBLE,
            GreaterEqualsOverload.GREATER_EQUALS_DOUBLE_UINT64,
            GreaterEqualsOverload.GREATER_EQUALS_UINT64_DOUBLE);

    private static final List<String> NUMBERS = List.of("int64", "uint64", "double");
    private static final Pattern NUMERIC_ORDERING = Pattern.compile(
            "(less|less_equals|greater|greater_equals)_(?:int64|uint64|double)(?:_(?:int64|uint64|double))?");

    private static final double MIN_INT64 = -9.223372036854775808e18;
    private static final double MAX_INT64 = 9.223372036854775807e18;
    private static final double MAX_UINT64 = 1.8446744073709551615e19;

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder, RuntimeEquality equality, CelOptions options) {
        List<CelFunctionBinding> bindings = new ArrayList<>();
        add(bindings, "less", c -> c < 0);
        add(bindings, "less_equals", c -> c <= 0);
        add(bindings, "greater", c -> c > 0);
        add(bindings, "greater_equals", c -> c >= 0);
        builder.addFunctionBindings(bindings);
    }

    /**
     * cel-go calls an ordering through the left operand's Comparer trait whatever numeric overload its checker chose,
     * so a number whose static type the checker got wrong still compares: in {@code -o.value() > 0} with {@code o}
     * a {@code dyn} the negation of a free type parameter is typed double, and cel-java then finds no binding for an
     * int. An ordering call whose overloads are all numeric gets every numeric pair, so that the values decide.
     */
    static CelAbstractSyntaxTree withAnyNumericOperands(CelAbstractSyntaxTree ast) {
        Map<Long, List<String>> replaced = new LinkedHashMap<>();
        for (Map.Entry<Long, CelReference> e : ast.getReferenceMap().entrySet()) {
            List<String> ids = e.getValue().overloadIds();
            if (ids.isEmpty()) {
                continue;
            }
            Matcher first = NUMERIC_ORDERING.matcher(ids.get(0));
            if (!first.matches()
                    || !ids.stream().allMatch(id -> {
                        Matcher m = NUMERIC_ORDERING.matcher(id);
                        return m.matches() && m.group(1).equals(first.group(1));
                    })) {
                continue;
            }
            String op = first.group(1);
            List<String> all = new ArrayList<>(ids);
            for (String a : NUMBERS) {
                for (String b : NUMBERS) {
                    String id = a.equals(b) ? op + "_" + a : op + "_" + a + "_" + b;
                    if (!all.contains(id)) {
                        all.add(id);
                    }
                }
            }
            if (all.size() == ids.size()) {
                continue;
            }
            replaced.put(e.getKey(), all);
        }
        return CelExprs.withOverloadIds(ast, replaced);
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        throw new UnsupportedOperationException("needs the runtime equality");
    }

    private static void add(List<CelFunctionBinding> out, String op, IntPredicate holds) {
        out.add(CelFunctionBinding.from(
                op + "_double", Double.class, Double.class, (a, b) -> holds.test(compare(a, b))));
        out.add(CelFunctionBinding.from(
                op + "_double_int64", Double.class, Long.class, (a, b) -> holds.test(compareDoubleInt(a, b))));
        out.add(CelFunctionBinding.from(
                op + "_int64_double", Long.class, Double.class, (a, b) -> holds.test(-compareDoubleInt(b, a))));
        out.add(CelFunctionBinding.from(
                op + "_double_uint64",
                Double.class,
                UnsignedLong.class,
                (a, b) -> holds.test(compareDoubleUint(a, b))));
        out.add(CelFunctionBinding.from(
                op + "_uint64_double",
                UnsignedLong.class,
                Double.class,
                (a, b) -> holds.test(-compareDoubleUint(b, a))));
    }

    /** cel-go's Double.Compare on two doubles. */
    private static int compare(double a, double b) throws CelEvaluationException {
        if (Double.isNaN(a) || Double.isNaN(b)) {
            throw LibrarySupport.error("NaN values cannot be ordered");
        }
        return a < b ? -1 : a > b ? 1 : 0;
    }

    /** cel-go's compareDoubleInt. */
    private static int compareDoubleInt(double d, long i) throws CelEvaluationException {
        if (Double.isNaN(d)) {
            throw LibrarySupport.error("NaN values cannot be ordered");
        }
        if (d < MIN_INT64) {
            return -1;
        }
        if (d > MAX_INT64) {
            return 1;
        }
        return compare(d, (double) i);
    }

    /** cel-go's compareDoubleUint. */
    private static int compareDoubleUint(double d, UnsignedLong u) throws CelEvaluationException {
        if (Double.isNaN(d)) {
            throw LibrarySupport.error("NaN values cannot be ordered");
        }
        if (d < 0) {
            return -1;
        }
        if (d > MAX_UINT64) {
            return 1;
        }
        return compare(d, u.doubleValue());
    }
}
