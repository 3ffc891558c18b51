package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.common.collect.ImmutableList;
import com.google.common.primitives.UnsignedLong;
import dev.cel.checker.CelCheckerBuilder;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.common.values.CelByteString;
import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.parser.CelMacro;
import dev.cel.parser.CelMacroExprFactory;
import dev.cel.parser.CelParserBuilder;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sort()}, the {@code sortBy} macro and {@code @sortByAssociatedKeys} of cel-go's lists extension
 * (ext/lists.go, version 2+), replacing cel-java's: cel-go declares one overload per comparable element type, so the
 * checker types {@code [].sort()} as {@code list(int)} and rejects {@code sort()} on lists of other element types,
 * and its {@code sortBy} expands into a binding comprehension around a member call
 * {@code @__sortBy_input__.@sortByAssociatedKeys(@__sortBy_input__.map(v, key))}, whose result keeps the list's
 * element type (cel-java's expansion sorts key-value pairs and loses it).
 */
final class GoSort implements CelCompilerLibrary, CelRuntimeLibrary {

    /** cel-go's comparableTypes, in its declaration order (the checker binds free type parameters to the first). */
    private static final Map<String, CelType> COMPARABLE = comparable();

    private static final String SORT_DYN = "list_dyn_sort";
    private static final String SORT_BY_DYN = "list_dyn_sortByAssociatedKeys";
    private static final String INPUT = "@__sortBy_input__";

    private static Map<String, CelType> comparable() {
        Map<String, CelType> m = new LinkedHashMap<>();
        m.put("int", SimpleType.INT);
        m.put("uint", SimpleType.UINT);
        m.put("double", SimpleType.DOUBLE);
        m.put("bool", SimpleType.BOOL);
        m.put("duration", SimpleType.DURATION);
        m.put("timestamp", SimpleType.TIMESTAMP);
        m.put("string", SimpleType.STRING);
        m.put("bytes", SimpleType.BYTES);
        return m;
    }

    private static String sortId(String type) {
        return "list_" + type + "_sort";
    }

    private static String sortById(String type) {
        return "list_" + type + "_sortByAssociatedKeys";
    }

    @Override
    public void setParserOptions(CelParserBuilder parserBuilder) {
        parserBuilder.addMacros(CelMacro.newReceiverMacro("sortBy", 2, GoSort::sortByMacro));
    }

    @Override
    public void setCheckerOptions(CelCheckerBuilder checkerBuilder) {
        List<CelOverloadDecl> sort = new ArrayList<>();
        List<CelOverloadDecl> sortBy = new ArrayList<>();
        TypeParamType t = TypeParamType.create("T");
        COMPARABLE.forEach((name, type) -> {
            sort.add(newMemberOverload(sortId(name), ListType.create(type), ListType.create(type)));
            sortBy.add(
                    newMemberOverload(sortById(name), ListType.create(t), ListType.create(t), ListType.create(type)));
        });
        checkerBuilder.addFunctionDeclarations(
                newFunctionDeclaration("sort", sort), newFunctionDeclaration("@sortByAssociatedKeys", sortBy));
    }

    /**
     * cel-go binds all overloads to one implementation without element type guards (a singleton binding guarded only
     * by the list trait), so every overload id, and the id {@link #resolve} gives calls the checker left open, sorts.
     */
    @Override
    public void setRuntimeOptions(CelRuntimeBuilder runtimeBuilder) {
        List<CelFunctionBinding> bindings = new ArrayList<>();
        for (String name : COMPARABLE.keySet()) {
            bindings.add(CelFunctionBinding.from(sortId(name), List.class, l -> sortByKeys(l, l)));
            bindings.add(CelFunctionBinding.from(sortById(name), List.class, List.class, GoSort::sortByKeys));
        }
        bindings.add(
                CelFunctionBinding.from(SORT_DYN, Object.class, l -> sortByKeys(lister(l, "sort"), lister(l, "sort"))));
        bindings.add(CelFunctionBinding.from(
                SORT_BY_DYN,
                Object.class,
                Object.class,
                (l, keys) -> sortByKeys(lister(l, "@sortByAssociatedKeys"), lister(keys, "@sortByAssociatedKeys"))));
        runtimeBuilder.addFunctionBindings(bindings);
    }

    /**
     * Gives calls the checker resolved to several overloads (a {@code dyn} receiver or key list) the single runtime
     * binding: cel-java cannot dispatch on list element types and would report ambiguous overloads.
     */
    static CelAbstractSyntaxTree resolve(CelAbstractSyntaxTree ast) {
        Map<Long, CelReference> references = ast.getReferenceMap();
        Set<String> sortIds =
                Set.copyOf(COMPARABLE.keySet().stream().map(GoSort::sortId).toList());
        Set<String> sortByIds =
                Set.copyOf(COMPARABLE.keySet().stream().map(GoSort::sortById).toList());
        Map<Long, List<String>> replaced = new LinkedHashMap<>();
        for (Map.Entry<Long, CelReference> e : references.entrySet()) {
            List<String> ids = e.getValue().overloadIds();
            if (ids.size() < 2) {
                continue;
            }
            String dynamic = sortIds.containsAll(ids) ? SORT_DYN : sortByIds.containsAll(ids) ? SORT_BY_DYN : null;
            if (dynamic != null) {
                replaced.put(e.getKey(), List.of(dynamic));
            }
        }
        return CelExprs.withOverloadIds(ast, replaced);
    }

    /**
     * cel-go's sortByMacro: {@code cel.bind(@__sortBy_input__, target,
     * @__sortBy_input__.@sortByAssociatedKeys(@__sortBy_input__.map(v, key)))}, the map expanded as parser.MakeMap.
     */
    private static Optional<CelExpr> sortByMacro(
            CelMacroExprFactory factory, CelExpr target, ImmutableList<CelExpr> args) {
        switch (target.exprKind().getKind()) {
            case LIST, SELECT, IDENT, COMPREHENSION, CALL -> {}
            default -> {
                return Optional.of(factory.reportError(CelIssue.formatError(
                        factory.getSourceLocation(target),
                        "sortBy can only be applied to a list, identifier, comprehension, call or select expression")));
            }
        }
        CelExpr variable = args.get(0);
        if (variable.exprKind().getKind() != CelExpr.ExprKind.Kind.IDENT) {
            return Optional.of(factory.reportError(
                    CelIssue.formatError(factory.getSourceLocation(variable), "argument is not an identifier")));
        }
        String name = variable.ident().name();
        String accu = factory.getAccumulatorVarName();
        if (name.equals(accu) || name.equals("@result")) {
            return Optional.of(factory.reportError(CelIssue.formatError(
                    factory.getSourceLocation(variable), "iteration variable overwrites accumulator variable")));
        }
        CelExpr map = factory.fold(
                name,
                factory.newIdentifier(INPUT),
                accu,
                factory.newList(),
                factory.newBoolLiteral(true),
                factory.newGlobalCall("_+_", factory.newIdentifier(accu), factory.newList(args.get(1))),
                factory.newIdentifier(accu));
        CelExpr call = factory.newReceiverCall("@sortByAssociatedKeys", factory.newIdentifier(INPUT), map);
        return Optional.of(factory.fold(
                "#unused",
                factory.newList(),
                INPUT,
                target,
                factory.newBoolLiteral(false),
                factory.newIdentifier(INPUT),
                call));
    }

    /**
     * cel-go's sortListByAssociatedKeys: the first key must be comparable and every key of its type (sort.Slice
     * compares every element, so any other type is found); the order is sort.Slice's ({@link GoSortSlice}).
     */
    private static List<Object> sortByKeys(List<?> list, List<?> keys) throws CelEvaluationException {
        if (list.size() != keys.size()) {
            throw LibrarySupport.error(String.format(
                    "@sortByAssociatedKeys() expected a list of the same size as the "
                            + "associated keys list, but got %d and %d elements respectively",
                    list.size(), keys.size()));
        }
        if (list.isEmpty()) {
            return List.copyOf(list);
        }
        Object first = keys.get(0);
        if (!comparable(first)) {
            throw LibrarySupport.error("list elements must be comparable");
        }
        for (Object key : keys) {
            if (key.getClass() != first.getClass()) {
                throw LibrarySupport.error("list elements must have the same type");
            }
        }
        int[] order = GoSortSlice.sort(keys.size(), (a, b) -> less(keys.get(a), keys.get(b)));
        List<Object> sorted = new ArrayList<>(order.length);
        for (int index : order) {
            sorted.add(list.get(index));
        }
        return sorted;
    }

    /** A {@code dyn} argument as a list, or cel-go's error of a singleton binding whose list trait guard fails. */
    private static List<?> lister(Object value, String function) throws CelEvaluationException {
        if (value instanceof List<?> list) {
            return list;
        }
        throw LibrarySupport.error("no such overload: " + function);
    }

    /** cel-go's {@code Compare(...) == -1}: false for NaN, which cel-go cannot order. */
    private static boolean less(Object a, Object b) {
        return CelValues.compare(a, b) == -1;
    }

    /** The values that implement cel-go's traits.Comparer. */
    private static boolean comparable(Object v) {
        return v instanceof Long
                || v instanceof UnsignedLong
                || v instanceof Double
                || v instanceof Boolean
                || v instanceof Duration
                || v instanceof Instant
                || v instanceof String
                || v instanceof CelByteString;
    }
}
