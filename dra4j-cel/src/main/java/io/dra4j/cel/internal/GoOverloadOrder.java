package io.dra4j.cel.internal;

import dev.cel.checker.CelStandardDeclarations;
import dev.cel.checker.CelStandardDeclarations.StandardFunction;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.SimpleType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The standard functions whose overloads cel-go v0.29.2 declares in another order than cel-java
 * ({@code common/stdlib/standard.go}), re-declared in cel-go's order.
 *
 * <p>Why the order matters: both checkers walk a function's overloads in declaration order, and the first overload
 * that accepts an argument of a still free type (the result of {@code optional.none().value()}, {@code [][0]})
 * binds that type. {@code optional.none().value() - duration("1h")} is a duration in cel-go (its first matching
 * overload is {@code subtract_duration_duration}) and a timestamp in cel-java's order, which changes what the rest
 * of the expression may do with it.
 */
final class GoOverloadOrder {

    /** cel-go's overload ids per function, in its order. */
    private static final Map<StandardFunction, List<String>> ORDER = Map.ofEntries(
            Map.entry(
                    StandardFunction.ADD,
                    List.of(
                            "add_bytes",
                            "add_double",
                            "add_duration_duration",
                            "add_duration_timestamp",
                            "add_timestamp_duration",
                            "add_int64",
                            "add_list",
                            "add_string",
                            "add_uint64")),
            Map.entry(
                    StandardFunction.SUBTRACT,
                    List.of(
                            "subtract_double",
                            "subtract_duration_duration",
                            "subtract_int64",
                            "subtract_timestamp_duration",
                            "subtract_timestamp_timestamp",
                            "subtract_uint64")),
            Map.entry(StandardFunction.MULTIPLY, List.of("multiply_double", "multiply_int64", "multiply_uint64")),
            Map.entry(StandardFunction.DIVIDE, List.of("divide_double", "divide_int64", "divide_uint64")),
            Map.entry(StandardFunction.NEGATE, List.of("negate_double", "negate_int64")),
            Map.entry(StandardFunction.LESS, comparison("less")),
            Map.entry(StandardFunction.LESS_EQUALS, comparison("less_equals")),
            Map.entry(StandardFunction.GREATER, comparison("greater")),
            Map.entry(StandardFunction.GREATER_EQUALS, comparison("greater_equals")),
            Map.entry(
                    StandardFunction.SIZE,
                    List.of(
                            "size_bytes",
                            "bytes_size",
                            "size_list",
                            "list_size",
                            "size_map",
                            "map_size",
                            "size_string",
                            "string_size")),
            Map.entry(
                    StandardFunction.INT,
                    List.of(
                            "int64_to_int64",
                            "double_to_int64",
                            GoConversions.DURATION_TO_INT,
                            "string_to_int64",
                            "timestamp_to_int64",
                            "uint64_to_int64")),
            Map.entry(
                    StandardFunction.STRING,
                    List.of(
                            "string_to_string",
                            "bool_to_string",
                            "bytes_to_string",
                            "double_to_string",
                            "duration_to_string",
                            "int64_to_string",
                            "timestamp_to_string",
                            "uint64_to_string")),
            Map.entry(
                    StandardFunction.TIMESTAMP,
                    List.of("timestamp_to_timestamp", "int64_to_timestamp", "string_to_timestamp")),
            Map.entry(
                    StandardFunction.UINT,
                    List.of("uint64_to_uint64", "double_to_uint64", "int64_to_uint64", "string_to_uint64")));

    private GoOverloadOrder() {}

    /** The standard declarations without the functions {@link #redeclared()} declares. */
    static CelStandardDeclarations standardDeclarations() {
        return CelStandardDeclarations.newBuilder()
                .excludeFunctions(ORDER.keySet())
                .build();
    }

    /**
     * The re-ordered functions. {@code int} gains cel-go's {@code int(duration)} (its nanoseconds), which cel-java
     * does not declare.
     */
    static List<CelFunctionDecl> redeclared() {
        List<CelFunctionDecl> declarations = new ArrayList<>();
        ORDER.forEach((function, order) -> {
            CelFunctionDecl standard = function.functionDecl();
            List<CelOverloadDecl> overloads = new ArrayList<>(standard.overloads());
            if (function == StandardFunction.INT) {
                overloads.add(CelOverloadDecl.newGlobalOverload(
                        GoConversions.DURATION_TO_INT, SimpleType.INT, SimpleType.DURATION));
            }
            if (overloads.size() != order.size()) {
                throw new IllegalStateException("cel-go's overload order of " + standard.name() + " lists " + order
                        + ", cel-java declares "
                        + overloads.stream().map(CelOverloadDecl::overloadId).toList());
            }
            overloads.sort(Comparator.comparingInt(overload -> position(order, overload)));
            declarations.add(CelFunctionDecl.newFunctionDeclaration(standard.name(), overloads));
        });
        return declarations;
    }

    private static int position(List<String> order, CelOverloadDecl overload) {
        int position = order.indexOf(overload.overloadId());
        if (position < 0) {
            throw new IllegalStateException("cel-go declares no overload " + overload.overloadId());
        }
        return position;
    }

    /** cel-go's order of a comparison: same-type pairs first, then the numeric cross-type pairs. */
    private static List<String> comparison(String name) {
        return List.of(
                name + "_bool",
                name + "_int64",
                name + "_int64_double",
                name + "_int64_uint64",
                name + "_uint64",
                name + "_uint64_double",
                name + "_uint64_int64",
                name + "_double",
                name + "_double_int64",
                name + "_double_uint64",
                name + "_string",
                name + "_bytes",
                name + "_timestamp",
                name + "_duration");
    }
}
