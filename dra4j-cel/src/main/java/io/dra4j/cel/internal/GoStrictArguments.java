package io.dra4j.cel.internal;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * cel-go evaluates both operands of a strict two-operand call before it looks for errors ({@code evalBinary}: the
 * first error wins), so the work, and the cost, of the second operand after a failing first one still counts and can
 * exceed the cost limit. A call of three or more operands ({@code evalVarArgs}, the receiver counted) stops at the
 * first failing one, as cel-java's interpreter does, so it is left as it is. This rewrite gives cel-java
 * cel-go's order: each argument of such a call is first bound, non-strictly, as the accumulator of an empty
 * comprehension (cel-java evaluates an accumulator's initial value catching its error), and the call then reads the
 * bound values, so the first error is rethrown only once all arguments ran. The synthetic nodes get ids above every
 * id of the expression; the cost tracker ignores them (cel-go has no such nodes).
 *
 * <p>Not rewritten: what cel-go evaluates lazily or as an attribute: {@code &&}, {@code ||}, the conditional, {@code
 * @not_strictly_false}, indexing and optional indexing or selection (qualifiers of the operand's attribute), and the
 * optional {@code or}/{@code orValue} (short-circuiting on their target).
 */
final class GoStrictArguments {

    private static final Set<String> LAZY =
            Set.of("_&&_", "_||_", "_?_:_", "@not_strictly_false", "_[_]", "_[?_]", "_?._", "or", "orValue");

    private static final Set<String> LOGICAL = Set.of("_&&_", "_||_");
    /** The check of a {@code dyn} operand of {@code &&} or {@code ||} ({@link #boolOperand}). */
    static final String BOOL_OPERAND = "@go_bool_operand";

    private final Map<Long, CelReference> references;
    private final Map<Long, CelType> types;
    private long nextId;

    private GoStrictArguments(CelAbstractSyntaxTree ast, long firstSyntheticId) {
        this.references = new LinkedHashMap<>(ast.getReferenceMap());
        this.types = new LinkedHashMap<>(ast.getTypeMap());
        this.nextId = firstSyntheticId;
    }

    /** The rewritten expression, or empty when no call has two operands to evaluate. */
    static Optional<CelAbstractSyntaxTree> of(CelAbstractSyntaxTree ast) {
        long firstSyntheticId = CelExprs.maxId(ast.getExpr()) + 1;
        GoStrictArguments rewrite = new GoStrictArguments(ast, firstSyntheticId);
        CelExpr expr = rewrite.rewrite(ast.getExpr());
        if (rewrite.nextId == firstSyntheticId) {
            return Optional.empty();
        }
        return Optional.of(
                CelAbstractSyntaxTree.newCheckedAst(expr, ast.getSource(), rewrite.references, rewrite.types));
    }

    private CelExpr rewrite(CelExpr e) {
        return e.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL
                ? rewriteCall(e)
                : CelExprs.mapChildren(e, this::rewrite);
    }

    private CelExpr rewriteCall(CelExpr e) {
        Optional<CelExpr> target = e.call().target().map(this::rewrite);
        ImmutableList<CelExpr> args = CelExprs.mapAll(e.call().args(), this::rewrite);
        if (LOGICAL.contains(e.call().function()) && args.size() == 2) {
            return CelExpr.ofCall(
                    e.id(),
                    Optional.empty(),
                    e.call().function(),
                    args.stream().map(this::boolOperand).collect(ImmutableList.toImmutableList()));
        }
        int operands = args.size() + (target.isPresent() ? 1 : 0);
        if (LAZY.contains(e.call().function()) || operands != 2 || !references.containsKey(e.id())) {
            return CelExpr.ofCall(e.id(), target, e.call().function(), args);
        }
        ImmutableList<CelExpr> operandExprs = ImmutableList.<CelExpr>builder()
                .addAll(target.stream().toList())
                .addAll(args)
                .build();
        String prefix = "@strict" + e.id() + "_";
        ImmutableList<CelExpr> bound = ImmutableList.copyOf(IntStream.range(0, operands)
                .mapToObj(i -> ident(prefix + i, operandExprs.get(i)))
                .toList());
        CelExpr call = target.isPresent()
                ? CelExpr.ofCall(e.id(), Optional.of(bound.get(0)), e.call().function(), bound.subList(1, operands))
                : CelExpr.ofCall(e.id(), Optional.empty(), e.call().function(), bound);
        Optional<CelType> type = Optional.ofNullable(types.get(e.id()));
        CelExpr result = call;
        for (int i = operands - 1; i >= 0; i--) {
            long id = nextId++;
            type.ifPresent(t -> types.put(id, t));
            result = CelExpr.ofComprehension(
                    id,
                    prefix + "it",
                    CelExpr.ofList(nextId++, ImmutableList.of(), ImmutableList.of()),
                    prefix + i,
                    operandExprs.get(i),
                    CelExpr.ofConstant(nextId++, CelConstant.ofValue(true)),
                    ident(prefix + i, operandExprs.get(i)),
                    result);
        }
        return result;
    }

    /**
     * A {@code dyn} operand of {@code &&} or {@code ||} checked by {@link #BOOL_OPERAND}: cel-go takes a value that is
     * not a bool as an error ("no such overload") and goes on to the other operand, which can still decide the result
     * ({@code x && false} is false); cel-java's interpreter fails at once.
     */
    private CelExpr boolOperand(CelExpr operand) {
        if (Optional.ofNullable(types.get(operand.id()))
                .map(t -> t.kind() != CelKind.DYN)
                .orElse(true)) {
            return operand;
        }
        long id = nextId++;
        references.put(
                id,
                CelReference.newBuilder()
                        .setName(BOOL_OPERAND)
                        .addOverloadIds(BOOL_OPERAND)
                        .build());
        types.put(id, SimpleType.BOOL);
        return CelExpr.ofCall(id, Optional.empty(), BOOL_OPERAND, ImmutableList.of(operand));
    }

    /** The runtime binding of {@link #BOOL_OPERAND}. */
    static final class Library implements CelRuntimeLibrary {
        @Override
        public void setRuntimeOptions(CelRuntimeBuilder builder) {
            builder.addFunctionBindings(CelFunctionBinding.from(BOOL_OPERAND, Object.class, value -> {
                if (value instanceof Boolean) {
                    return value;
                }
                throw new CelEvaluationException("no such overload");
            }));
        }
    }

    /**
     * An identifier of a bound operand, typed as the operand (cel-java's interpreter asks for the type; for a type
     * it would answer the checked type instead of the bound value, so that is {@code dyn}).
     */
    private CelExpr ident(String name, CelExpr operand) {
        long id = nextId++;
        references.put(id, CelReference.newBuilder().setName(name).build());
        Optional.ofNullable(types.get(operand.id()))
                .ifPresent(t -> types.put(id, t.kind() == CelKind.TYPE ? SimpleType.DYN : t));
        return CelExpr.ofIdent(id, name);
    }
}
