package io.dra4j.cel.internal;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import dev.cel.runtime.CelInternalRuntimeLibrary;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.standard.AddOperator;
import dev.cel.runtime.standard.CelStandardOverload;
import java.util.AbstractList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;

/**
 * List concatenation with the value cel-go gives it (common/types/list.go newConcatList): with an empty operand the
 * result is the other operand itself, otherwise a {@code *types.concatList}, a type of its own that shows in cel-go's
 * "invalid qualifier type" text ({@link GoIndexing}). A comprehension's appends to its accumulator stay cel-java's
 * ({@link #withAccumulators}).
 */
final class GoListConcatenation implements CelInternalRuntimeLibrary {

    static final Set<CelStandardOverload> REPLACED = Set.of(AddOperator.AddOverload.ADD_LIST);

    private static final String ADD_LIST = "add_list";
    /** A comprehension's append to its own accumulator ({@link #withAccumulators}): cel-java's concatenation. */
    private static final String ACCUMULATE = "add_list_accumulate";

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder, RuntimeEquality equality, CelOptions options) {
        CelFunctionBinding standard = AddOperator.AddOverload.ADD_LIST.newFunctionBinding(options, equality);
        CelFunctionOverload concat = standard.getDefinition();
        builder.addFunctionBindings(
                CelFunctionBinding.from(ACCUMULATE, ImmutableList.of(List.class, List.class), concat),
                CelFunctionBinding.from(standard.getOverloadId(), ImmutableList.of(List.class, List.class), args -> {
                    Object result = concat.apply(args);
                    List<?> first = (List<?>) args[0];
                    List<?> second = (List<?>) args[1];
                    if (first.isEmpty()) {
                        return second;
                    }
                    if (second.isEmpty()) {
                        return first;
                    }
                    return new Concatenation((List<?>) result);
                }));
    }

    /**
     * A list {@code +} in a comprehension's step whose left operand is the comprehension's accumulator (the macros'
     * {@code @result + [x]}) gets {@link #ACCUMULATE}: cel-go appends to a mutable list there and ends with a plain
     * list, not a concatenation.
     */
    static CelAbstractSyntaxTree withAccumulators(CelAbstractSyntaxTree ast) {
        Map<Long, CelReference> references = ast.getReferenceMap();
        Map<Long, List<String>> replaced = new LinkedHashMap<>();
        for (CelExpr loop : CelNavigableAst.fromAst(ast)
                .getRoot()
                .allNodes()
                .map(CelNavigableExpr::expr)
                .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.COMPREHENSION)
                .toList()) {
            String accumulator = loop.comprehension().accuVar();
            for (CelExpr call : CelNavigableExpr.fromExpr(loop.comprehension().loopStep())
                    .allNodes()
                    .map(CelNavigableExpr::expr)
                    .filter(e -> e.exprKind().getKind() == CelExpr.ExprKind.Kind.CALL
                            && e.call().function().equals("_+_")
                            && e.call().args().size() == 2
                            && e.call().args().get(0).exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT
                            && e.call().args().get(0).ident().name().equals(accumulator))
                    .toList()) {
                CelReference reference = references.get(call.id());
                if (reference == null || !reference.overloadIds().contains(ADD_LIST)) {
                    continue;
                }
                replaced.put(
                        call.id(),
                        reference.overloadIds().stream()
                                .map(id -> id.equals(ADD_LIST) ? ACCUMULATE : id)
                                .toList());
            }
        }
        return CelExprs.withOverloadIds(ast, replaced);
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        throw new UnsupportedOperationException("needs the runtime equality");
    }

    /** A concatenation of two non-empty lists: cel-go's {@code *types.concatList}. */
    static final class Concatenation extends AbstractList<Object> implements RandomAccess {

        private final List<?> elements;

        Concatenation(List<?> elements) {
            this.elements = elements;
        }

        @Override
        public Object get(int index) {
            return elements.get(index);
        }

        @Override
        public int size() {
            return elements.size();
        }
    }
}
