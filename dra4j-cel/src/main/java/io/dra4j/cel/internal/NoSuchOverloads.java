package io.dra4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.exceptions.CelOverloadNotFoundException;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.values.CelByteString;
import io.dra4j.cel.KubernetesLibraries;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cel-go's text for a call that finds no overload for its run-time arguments, where cel-java says only that no
 * overload matched.
 *
 * <ul>
 *   <li>Functions cel-go declares with type guards (the Kubernetes libraries, the string extension, the type
 *       conversions, the single-overload functions of the lists and sets extensions) name the function and the arguments' type names: "no such overload: semver(int)".
 *   <li>Operators cel-go dispatches on a trait of the first operand (ordering, arithmetic, {@code size}) name the
 *       function when that operand lacks the trait and is no receiver type ("no such overload: _&lt;_"); when it
 *       has it, or is a string, timestamp or duration, the operand's own method fails with the plain "no such
 *       overload". Negation ({@code -_}) is one of them, on the Negater trait.
 *   <li>Everything else fails with the plain "no such overload".
 * </ul>
 *
 * <p>cel-java's error carries the source offset of the failing call but not the argument values, so the caller
 * evaluates the expression again, recording the values of the call's arguments ({@link #argumentIds}).
 */
final class NoSuchOverloads {

    private static final Pattern OFFSET = Pattern.compile("^evaluation error at [^:]*:(\\d+)");
    private static final Set<String> CONVERSIONS =
            Set.of("int", "uint", "double", "string", "bool", "bytes", "duration", "timestamp");
    /**
     * Functions of cel-go's lists and sets extensions with a single overload, whose type guard names the arguments'
     * types ("no such overload: reverse(string)").
     */
    private static final Set<String> GUARDED_EXTENSIONS = Set.of(
            "reverse", "slice", "first", "last", "lists.range", "sets.contains", "sets.equivalent", "sets.intersects");

    private static final Set<String> GUARDED = guardedFunctions();

    private static final Predicate<Object> NUMBER =
            v -> v instanceof Long || v instanceof UnsignedLong || v instanceof Double;
    private static final Predicate<Object> COMPARABLE = NUMBER.or(v -> v instanceof String
            || v instanceof CelByteString
            || v instanceof Boolean
            || v instanceof Duration
            || v instanceof Instant);
    /**
     * The values with cel-go's ReceiverType trait (strings, timestamps, durations): an operator whose trait they lack
     * calls their Receive method, which fails with the plain "no such overload".
     */
    private static final Predicate<Object> RECEIVER =
            v -> v instanceof String || v instanceof Instant || v instanceof Duration;

    private static final Map<String, Predicate<Object>> TRAITS = Map.ofEntries(
            Map.entry(
                    "size",
                    v -> v instanceof String || v instanceof CelByteString || v instanceof List || v instanceof Map),
            // Negater (not a uint); cel-go's negation binding fails a bool with the plain text.
            Map.entry(
                    "-_",
                    v -> v instanceof Long || v instanceof Double || v instanceof Duration || v instanceof Boolean),
            Map.entry(
                    "_+_",
                    NUMBER.or(v -> v instanceof String
                            || v instanceof CelByteString
                            || v instanceof List
                            || v instanceof Duration
                            || v instanceof Instant)),
            Map.entry("_-_", NUMBER.or(v -> v instanceof Duration || v instanceof Instant)),
            Map.entry("_*_", NUMBER),
            Map.entry("_/_", NUMBER),
            Map.entry("_%_", v -> v instanceof Long || v instanceof UnsignedLong),
            Map.entry("_<_", COMPARABLE),
            Map.entry("_<=_", COMPARABLE),
            Map.entry("_>_", COMPARABLE),
            Map.entry("_>=_", COMPARABLE));

    private final Map<Integer, CelExpr> callAt;

    private NoSuchOverloads(Map<Integer, CelExpr> callAt) {
        this.callAt = callAt;
    }

    static NoSuchOverloads of(CelAbstractSyntaxTree ast) {
        Map<Long, Integer> positions = ast.getSource().getPositionsMap();
        Map<Integer, CelExpr> callAt = new HashMap<>();
        CelNavigableAst.fromAst(ast)
                .getRoot()
                .allNodes()
                .map(CelNavigableExpr::expr)
                .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL)
                .filter(e -> GUARDED.contains(e.call().function())
                        || TRAITS.containsKey(e.call().function()))
                .forEach(e -> {
                    Integer offset = positions.get(e.id());
                    if (offset != null) {
                        callAt.putIfAbsent(offset, e);
                    }
                });
        return new NoSuchOverloads(Map.copyOf(callAt));
    }

    /** The call whose detailed text depends on its arguments, if the failure is cel-java's dispatch failure there. */
    Optional<CelExpr> failingCall(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        boolean dispatch = root instanceof CelOverloadNotFoundException
                || String.valueOf(root.getMessage()).contains("No matching overload");
        Matcher offset = OFFSET.matcher(String.valueOf(failure.getMessage()));
        if (!dispatch || !offset.find()) {
            return Optional.empty();
        }
        return Optional.ofNullable(callAt.get(Integer.parseInt(offset.group(1))));
    }

    /** The ids of the call's arguments, receiver first. */
    static List<Long> argumentIds(CelExpr call) {
        List<Long> ids = new ArrayList<>();
        call.call().target().ifPresent(t -> ids.add(t.id()));
        call.call().args().forEach(a -> ids.add(a.id()));
        return ids;
    }

    /** cel-go's text for the call with these argument values (receiver first). */
    static String message(CelExpr call, List<Object> args) {
        String function = call.call().function();
        Predicate<Object> trait = TRAITS.get(function);
        if (trait != null) {
            return !args.isEmpty() && trait.or(RECEIVER).test(args.get(0))
                    ? "no such overload"
                    : "no such overload: " + function;
        }
        List<String> types = args.stream().map(CelValueTypes::name).toList();
        return "no such overload: " + function + "(" + String.join(", ", types) + ")";
    }

    private static Set<String> guardedFunctions() {
        Set<String> names = new HashSet<>(CONVERSIONS);
        names.addAll(GUARDED_EXTENSIONS);
        for (var library : KubernetesLibraries.all()) {
            if (library instanceof LibrarySupport support) {
                support.declarations().forEach(d -> names.add(d.name()));
            }
        }
        return Set.copyOf(names);
    }

    /** cel-go's run-time type name of a value ({@code ref.Type.TypeName}). */
}
