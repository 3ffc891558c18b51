package io.dra4j.cel.internal;

import com.google.common.collect.ImmutableList;
import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.exceptions.CelAttributeNotFoundException;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import dev.cel.runtime.CelInternalRuntimeLibrary;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.standard.IndexOperator;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.Semver;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The index operator with cel-go's checks of the index: cel-go turns an index value into an attribute qualifier and
 * accepts only strings, numbers and bools there, so {@code m[v]} for a version {@code v} fails with "invalid
 * qualifier type: cel.Semver" (the Go type name) before any lookup; a list index goes through cel-go's IndexOrError
 * (a double or uint that converts to an int without loss, else "unsupported index ... in list"). Otherwise cel-java's
 * standard lookups apply.
 */
final class GoIndexing implements CelInternalRuntimeLibrary {

    private static final String INDEX_LIST = "index_list";
    /** The index operator on a {@code dyn} receiver, dispatching on the receiver at run time. */
    private static final String INDEX_DYN = "index_dyn";

    private static final String INDEX_MAP = "index_map";

    /** The optional index operator ({@code x[?k]}) on a receiver of several candidate overloads, as {@link #INDEX_DYN}. */
    private static final String OPTIONAL_INDEX_DYN = "optindex_dyn";

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder, RuntimeEquality equality, CelOptions options) {
        CelFunctionBinding listBinding = IndexOperator.IndexOverload.INDEX_LIST.newFunctionBinding(options, equality);
        CelFunctionBinding mapBinding = IndexOperator.IndexOverload.INDEX_MAP.newFunctionBinding(options, equality);
        CelFunctionOverload listLookup = listBinding.getDefinition();
        CelFunctionOverload mapLookup = mapBinding.getDefinition();
        builder.addFunctionBindings(
                CelFunctionBinding.from(
                        listBinding.getOverloadId(), ImmutableList.of(List.class, Object.class), args -> {
                            checkQualifier(args[1]);
                            return listLookup.apply(new Object[] {args[0], listIndex(args[1])});
                        }),
                CelFunctionBinding.from(mapBinding.getOverloadId(), ImmutableList.of(Map.class, Object.class), args -> {
                    checkQualifier(args[1]);
                    return lookUp(mapLookup, args);
                }),
                CelFunctionBinding.from(INDEX_DYN, ImmutableList.of(Object.class, Object.class), args -> {
                    if (isNone(args[0])) {
                        return args[0];
                    }
                    checkQualifier(args[1]);
                    if (args[0] instanceof List) {
                        return listLookup.apply(new Object[] {args[0], listIndex(args[1])});
                    }
                    if (args[0] instanceof Map) {
                        return lookUp(mapLookup, args);
                    }
                    if (args[0] instanceof Optional<?> optional) {
                        // cel-go's applyQualifiers: a present optional receiver makes the lookup optional.
                        return optionalLookUp(equality, optional.get(), args[1]);
                    }
                    // cel-go's refQualify on a value that is neither list nor map: the key is missing.
                    throw new InvalidQualifier("no such key: " + goKey(args[1]));
                }),
                CelFunctionBinding.from(OPTIONAL_INDEX_DYN, ImmutableList.of(Object.class, Object.class), args -> {
                    if (isNone(args[0])) {
                        return args[0];
                    }
                    checkQualifier(args[1]);
                    Object receiver = args[0] instanceof Optional<?> optional ? optional.get() : args[0];
                    return optionalLookUp(equality, receiver, args[1]);
                }));
    }

    /**
     * Whether the receiver is {@code optional.none()}: cel-go's applyQualifiers returns it as the result before it
     * qualifies, so the index is not checked.
     */
    private static boolean isNone(Object receiver) {
        return receiver instanceof Optional<?> optional && optional.isEmpty();
    }

    /**
     * cel-go's QualifyIfPresent through refQualify: a list checks its index (IndexOrError) and has the element or
     * none, a map has the key or none, and any other value has nothing (cel-go's presence test on a value that is
     * neither).
     */
    private static Optional<?> optionalLookUp(RuntimeEquality equality, Object receiver, Object index) {
        if (receiver instanceof List<?> list) {
            long i = (Long) listIndex(index);
            return i >= 0 && i < list.size() ? Optional.of(list.get((int) i)) : Optional.empty();
        }
        if (receiver instanceof Map<?, ?> map) {
            return equality.findInMap(map, index);
        }
        return Optional.empty();
    }

    /**
     * With a {@code dyn} receiver (or an optional of one) the checker keeps the overloads of the index operator that
     * the index allows (map, list, optional map, optional list), or the one optional overload. cel-go dispatches on
     * the receiver at run time, also to a value that is none of them, where cel-java finds no overload, several, or
     * fails on a cast; such calls get {@link #INDEX_DYN} (for {@code x[k]})
     * or {@link #OPTIONAL_INDEX_DYN} (for {@code x[?k]}, and for {@code x.?f}, which cel-go qualifies with the
     * string {@code "f"} as it does {@code x[?"f"]}), which dispatch as cel-go does.
     */
    static CelAbstractSyntaxTree withDynamicIndex(CelAbstractSyntaxTree ast) {
        Map<Long, CelReference> references = ast.getReferenceMap();
        Map<Long, List<String>> replaced = new LinkedHashMap<>();
        for (CelExpr call : CelNavigableAst.fromAst(ast)
                .getRoot()
                .allNodes()
                .map(CelNavigableExpr::expr)
                .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL
                        && (e.call().function().equals("_[_]")
                                || e.call().function().equals("_[?_]")
                                || e.call().function().equals("_?._")))
                .toList()) {
            CelReference reference = references.get(call.id());
            if (reference == null
                    || !ast.getType(call.call().args().get(0).id())
                            .map(GoIndexing::dynamicReceiver)
                            .orElse(false)) {
                continue;
            }
            replaced.put(call.id(), List.of(call.call().function().equals("_[_]") ? INDEX_DYN : OPTIONAL_INDEX_DYN));
        }
        return CelExprs.withOverloadIds(ast, replaced);
    }

    /** A receiver type that leaves the kind of container to run time: {@code dyn} or an optional of {@code dyn}. */
    private static boolean dynamicReceiver(CelType type) {
        if (type.kind() == CelKind.DYN) {
            return true;
        }
        return type instanceof OptionalType optional
                && optional.parameters().get(0).kind() == CelKind.DYN;
    }

    private static void checkQualifier(Object index) {
        invalidQualifier(index).ifPresent(message -> {
            throw new InvalidQualifier(message);
        });
    }

    /** cel-go's error for an index value it cannot make a qualifier of (interpreter/attributes.go newQualifier). */
    static Optional<String> invalidQualifier(Object index) {
        return invalidQualifierType(index).map(type -> "invalid qualifier type: " + type);
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        throw new UnsupportedOperationException("needs the runtime equality");
    }

    /**
     * cel-go's Go type name ({@code %T}) of an index value it cannot qualify with. A list is a {@code *types.baseList}
     * (literals, macro and library results) except a concatenation of two non-empty lists ({@link
     * GoListConcatenation}); a map is a {@code *types.baseMap} except {@code device.attributes} and {@code device.capacity},
     * Kubernetes' own mapper.
     */
    private static Optional<String> invalidQualifierType(Object index) {
        if (index instanceof String
                || index instanceof Long
                || index instanceof UnsignedLong
                || index instanceof Boolean
                || index instanceof Double) {
            return Optional.empty();
        }
        if (index instanceof Semver) {
            return Optional.of("cel.Semver");
        }
        if (index instanceof KubeQuantity) {
            return Optional.of("cel.Quantity");
        }
        if (index instanceof IpAddress) {
            return Optional.of("cel.IP");
        }
        if (index instanceof IpPrefix) {
            return Optional.of("cel.CIDR");
        }
        if (index instanceof GoUrl) {
            return Optional.of("cel.URL");
        }
        if (index instanceof NamedFormat) {
            return Optional.of("cel.Format");
        }
        if (index instanceof NullValue || index instanceof com.google.protobuf.NullValue) {
            return Optional.of("types.Null");
        }
        if (index instanceof CelByteString) {
            return Optional.of("types.Bytes");
        }
        if (index instanceof Duration) {
            return Optional.of("types.Duration");
        }
        if (index instanceof Instant) {
            return Optional.of("types.Timestamp");
        }
        if (index instanceof Optional) {
            return Optional.of("*types.Optional");
        }
        if (index instanceof CelType) {
            return Optional.of("*types.Type");
        }
        if (index instanceof DomainMap) {
            return Optional.of("cel.mapper");
        }
        if (index instanceof Map) {
            return Optional.of("*types.baseMap");
        }
        if (index instanceof GoListConcatenation.Concatenation) {
            return Optional.of("*types.concatList");
        }
        if (index instanceof List) {
            return Optional.of("*types.baseList");
        }
        return Optional.empty();
    }

    /**
     * cel-java's map lookup; a missing double key is named as Go prints it ({@code no such key: 0}, not {@code 0.0}).
     */
    private static Object lookUp(CelFunctionOverload mapLookup, Object[] args) throws CelEvaluationException {
        try {
            return mapLookup.apply(args);
        } catch (CelAttributeNotFoundException e) {
            if (args[1] instanceof Double) {
                throw new InvalidQualifier("no such key: " + goKey(args[1]));
            }
            throw e;
        }
    }

    /** Go's {@code %v} of a qualifier value. */
    private static String goKey(Object index) {
        return index instanceof Double d ? GoNumberFormat.formatG(d) : String.valueOf(index);
    }

    /**
     * cel-go's IndexOrError: an int, or a double or uint that converts to an int without loss; anything else fails
     * with cel-go's text.
     */
    private static Object listIndex(Object index) {
        if (index instanceof Long) {
            return index;
        }
        if (index instanceof Double d) {
            if (d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63) {
                return d.longValue();
            }
            throw new InvalidQualifier("unsupported index value " + GoNumberFormat.formatG(d) + " in list");
        }
        if (index instanceof UnsignedLong u) {
            if (u.compareTo(UnsignedLong.valueOf(Long.MAX_VALUE)) <= 0) {
                return u.longValue();
            }
            throw new InvalidQualifier("unsupported index value " + u + " in list");
        }
        String type = index instanceof String
                ? "string"
                : index instanceof Boolean ? "bool" : index.getClass().getSimpleName();
        throw new InvalidQualifier("unsupported index type '" + type + "' in list");
    }

    /** The failure, unchecked so that it can leave the lambda; cel-java reports it as an evaluation error. */
    private static final class InvalidQualifier extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidQualifier(String message) {
            super(message, null, false, false);
        }
    }
}
