package io.dra4j.cel.internal;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Walking and rebuilding cel-java's expression trees: the one place that knows each node kind's children, and how a
 * checked tree's calls are pointed at other overloads.
 */
final class CelExprs {
    private CelExprs() {}

    /** The direct children of a node; a comprehension's in cel-go's planner order ({@code planComprehension}). */
    static List<CelExpr> children(CelExpr expr) {
        List<CelExpr> out = new ArrayList<>();
        switch (expr.exprKind().getKind()) {
            case SELECT -> out.add(expr.select().operand());
            case CALL -> {
                expr.call().target().ifPresent(out::add);
                out.addAll(expr.call().args());
            }
            case LIST -> out.addAll(expr.list().elements());
            case MAP ->
                expr.map().entries().forEach(e -> {
                    out.add(e.key());
                    out.add(e.value());
                });
            case STRUCT -> expr.struct().entries().forEach(e -> out.add(e.value()));
            case COMPREHENSION -> {
                out.add(expr.comprehension().accuInit());
                out.add(expr.comprehension().iterRange());
                out.add(expr.comprehension().loopCondition());
                out.add(expr.comprehension().loopStep());
                out.add(expr.comprehension().result());
            }
            default -> {}
        }
        return out;
    }

    /** The largest id in the tree, map and struct entries' own ids included. */
    static long maxId(CelExpr expr) {
        long max = expr.id();
        for (CelExpr child : children(expr)) {
            max = Math.max(max, maxId(child));
        }
        switch (expr.exprKind().getKind()) {
            case MAP -> {
                for (CelExpr.CelMap.Entry entry : expr.map().entries()) {
                    max = Math.max(max, entry.id());
                }
            }
            case STRUCT -> {
                for (CelExpr.CelStruct.Entry entry : expr.struct().entries()) {
                    max = Math.max(max, entry.id());
                }
            }
            default -> {}
        }
        return max;
    }

    /** The node with each direct child replaced by {@code f} of it; ids and every other field kept. */
    static CelExpr mapChildren(CelExpr e, UnaryOperator<CelExpr> f) {
        return switch (e.exprKind().getKind()) {
            case CALL ->
                CelExpr.ofCall(
                        e.id(),
                        e.call().target().map(f),
                        e.call().function(),
                        mapAll(e.call().args(), f));
            case SELECT ->
                CelExpr.ofSelect(
                        e.id(),
                        f.apply(e.select().operand()),
                        e.select().field(),
                        e.select().testOnly());
            case LIST ->
                CelExpr.ofList(e.id(), mapAll(e.list().elements(), f), e.list().optionalIndices());
            case MAP ->
                CelExpr.ofMap(
                        e.id(),
                        e.map().entries().stream()
                                .map(entry -> CelExpr.ofMapEntry(
                                        entry.id(),
                                        f.apply(entry.key()),
                                        f.apply(entry.value()),
                                        entry.optionalEntry()))
                                .collect(ImmutableList.toImmutableList()));
            case STRUCT ->
                CelExpr.ofStruct(
                        e.id(),
                        e.struct().messageName(),
                        e.struct().entries().stream()
                                .map(entry -> CelExpr.ofStructEntry(
                                        entry.id(), entry.fieldKey(), f.apply(entry.value()), entry.optionalEntry()))
                                .collect(ImmutableList.toImmutableList()));
            case COMPREHENSION ->
                CelExpr.ofComprehension(
                        e.id(),
                        e.comprehension().iterVar(),
                        e.comprehension().iterVar2(),
                        f.apply(e.comprehension().iterRange()),
                        e.comprehension().accuVar(),
                        f.apply(e.comprehension().accuInit()),
                        f.apply(e.comprehension().loopCondition()),
                        f.apply(e.comprehension().loopStep()),
                        f.apply(e.comprehension().result()));
            default -> e;
        };
    }

    static ImmutableList<CelExpr> mapAll(List<CelExpr> exprs, UnaryOperator<CelExpr> f) {
        return exprs.stream().map(f).collect(ImmutableList.toImmutableList());
    }

    /**
     * The checked tree with the overload ids of some calls replaced (by expression id), so that the runtime dispatches
     * them to other bindings; {@code ast} itself when there is nothing to replace.
     */
    static CelAbstractSyntaxTree withOverloadIds(CelAbstractSyntaxTree ast, Map<Long, List<String>> overloadIds) {
        if (overloadIds.isEmpty()) {
            return ast;
        }
        Map<Long, CelReference> references = new LinkedHashMap<>(ast.getReferenceMap());
        overloadIds.forEach((id, ids) -> references.put(
                id,
                CelReference.newBuilder()
                        .setName(references.get(id).name())
                        .addOverloadIds(ids)
                        .build()));
        return CelAbstractSyntaxTree.newCheckedAst(ast.getExpr(), ast.getSource(), references, ast.getTypeMap());
    }
}
