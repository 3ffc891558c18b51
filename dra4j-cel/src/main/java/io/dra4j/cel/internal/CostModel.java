package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What each node of a checked expression costs at run time, following cel-go's runtime cost tracker
 * ({@code interpreter/runtimecost.go}), the overload trackers of the cel-go extensions Kubernetes enables (lists v3,
 * sets) and the Kubernetes library cost estimator ({@code apiserver/pkg/cel/library/cost.go}).
 *
 * <p>cel-go charges 1 per identifier, field selection and index, nothing for constants, logical operators,
 * conditionals and comprehension bookkeeping, 10/30/40 for list/map/struct construction (nothing for literals made
 * only of constants, which its optimiser folds), nothing for type conversions of constants and for {@code in}
 * against a constant list of primitives (both folded too), and a function-specific amount for calls. Here each node
 * gets either a fixed cost or a {@link CallCosts.Rule} that needs the argument values.
 *
 * <p>The model also yields a static bound: an expression without loops and without size-growing functions
 * evaluates each node at most once, and no value can be larger than the largest of its literals, its node count
 * and the largest device value; so its cost is bounded by a per-node worst case times the node count.
 */
public final class CostModel {

    /** cel-go's list, map and struct creation base costs. */
    static final long LIST_CREATE = 10;

    static final long MAP_CREATE = 30;
    static final long STRUCT_CREATE = 40;

    private static final Set<String> TYPE_CONVERSIONS =
            Set.of("bool", "bytes", "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint");

    /** The functions whose constant pattern (second argument) cel-go compiles while planning. */
    private static final Set<String> REGEX_FUNCTIONS = Set.of("find", "findAll", "matches");

    /**
     * Functions whose result may be larger than every input, which defeats the static bound ({@code validate} returns
     * fixed messages that can be longer than anything in the expression).
     */
    private static final Set<String> GROWING_FUNCTIONS =
            Set.of("join", "replace", "format", "strings.quote", "lists.range", "flatten", "validate");

    private static final Set<String> GROWING_OVERLOADS = Set.of("add_string", "add_bytes", "add_list");

    /** Functions whose cost is the Kubernetes library's traversal cost of their target, whatever its shape. */
    private static final Set<String> TRAVERSAL_FUNCTIONS =
            Set.of("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes");

    /** Functions that compare every element with every other (up to 2.1 n² in cel-go's trackers). */
    private static final Set<String> PAIRWISE_FUNCTIONS = Set.of(
            "sort",
            "distinct",
            "sets.contains",
            "sets.intersects",
            "sets.equivalent",
            "@sortByAssociatedKeys",
            "lists.@sortByAssociatedKeys");

    private final long[] fixedCost;
    private final CallCosts.Rule[] rules;
    private final int[][] argIds;
    private final boolean[] watched;
    private final int[] optionalSelectOperand;
    private final boolean[] optionalOperand;
    private final boolean hasOptionalSelects;
    private final boolean hasLoops;
    private final boolean hasGrowingCalls;
    private final boolean hasPairwiseCalls;
    private final boolean hasTraversalCalls;
    private final long nodeCount;
    private final long maxLiteralSize;
    private final List<PlannedCall> plannedCalls;

    private CostModel(Builder b) {
        this.fixedCost = b.fixedCost;
        this.rules = b.rules;
        this.argIds = b.argIds;
        this.watched = b.watched;
        this.optionalSelectOperand = b.optionalSelectOperand;
        this.optionalOperand = b.optionalOperand;
        this.hasOptionalSelects = b.hasOptionalSelects;
        this.hasLoops = b.hasLoops;
        this.hasGrowingCalls = b.hasGrowingCalls;
        this.hasPairwiseCalls = b.hasPairwiseCalls;
        this.hasTraversalCalls = b.hasTraversalCalls;
        this.nodeCount = b.nodeCount;
        this.maxLiteralSize = b.maxLiteralSize;
        this.plannedCalls = List.copyOf(b.plannedCalls);
    }

    public static CostModel of(CelAbstractSyntaxTree ast) {
        Builder builder = new Builder(ast);
        builder.visit(ast.getExpr());
        return new CostModel(builder);
    }

    /**
     * The type conversions of constants ({@code int('1')}), innermost first. cel-go folds them when it plans the
     * program, so a failing one is a compile-time error there.
     */
    /** The calls cel-go's planner evaluates or compiles while building the program, in its planning order. */
    public List<PlannedCall> plannedCalls() {
        return plannedCalls;
    }

    /**
     * A call cel-go's planner works on before evaluation (interpreter/decorators.go, planner.go): a type conversion of
     * a constant, which it folds ({@code patternIndex} {@link #FOLDED}), an index with a constant index, which it turns
     * into a qualifier ({@link #CONSTANT_QUALIFIER}: planCallIndex), or a regex function with a constant pattern at
     * {@code patternIndex} among the call's arguments (receiver first), which it compiles ({@code cel.OptimizeRegex}:
     * Kubernetes' find and findAll, and matches under OptOptimize). A failure is a program instantiation error.
     */
    public record PlannedCall(CelExpr call, int patternIndex) {
        public static final int FOLDED = -1;
        public static final int CONSTANT_QUALIFIER = -2;
    }

    int slots() {
        return fixedCost.length;
    }

    boolean isWatched(int id) {
        return watched[id];
    }

    /**
     * For an optional field selection ({@code x.?f}) node, the id of its operand, else -1. cel-java evaluates that
     * operand twice (once to look at it, once to select from it) where cel-go evaluates it once; the tracker charges
     * only the first evaluation.
     */
    int optionalSelectOperand(int id) {
        return optionalSelectOperand[id];
    }

    boolean isOptionalSelectOperand(int id) {
        return optionalOperand[id];
    }

    boolean hasOptionalSelects() {
        return hasOptionalSelects;
    }

    /** The cost of node {@code id} once evaluated to {@code result}; {@code results} holds watched values. */
    long cost(int id, Object result, Object[] results) {
        CallCosts.Rule rule = rules[id];
        if (rule == null) {
            return fixedCost[id];
        }
        int[] ids = argIds[id];
        Object[] args = new Object[ids.length];
        for (int i = 0; i < ids.length; i++) {
            args[i] = results[ids[i]];
        }
        return rule.cost(args, result);
    }

    /**
     * Whether evaluation against a device provably stays within {@code limit}, so that no cost tracking is needed.
     *
     * @param deviceMaxSize the largest size of any value of the device
     * @param deviceTraversal the Kubernetes library's traversal cost of the whole device value, which bounds that of
     *     any part of it
     */
    public boolean provablyWithin(long limit, long deviceMaxSize, long deviceTraversal) {
        if (hasLoops || hasGrowingCalls) {
            return false;
        }
        // Conversions make short values (a timestamp or an IPv6 prefix printed as a string); 64 covers those.
        double size = Math.max(Math.max(maxLiteralSize, nodeCount), deviceMaxSize) + 64.0;
        // Per call at most: pairwise comparisons 2.1 n², else a traversal of n strings of up to 4n UTF-8 bytes at a
        // tenth per byte (0.4 n²); linear costs (in, slice, string compares) stay below 2n; creation below 50.
        double quadratic = hasPairwiseCalls ? 2.1 : 0.4;
        double perNode = quadratic * size * size + 2 * size + STRUCT_CREATE + 10;
        if (hasTraversalCalls) {
            // A traversed value holds at most one device value (or part of it) per node of the expression.
            perNode += (double) nodeCount * deviceTraversal;
        }
        return perNode * nodeCount <= limit;
    }

    /** Walks the checked AST once and assigns each node its cost. */
    private static final class Builder {
        private final CelAbstractSyntaxTree ast;
        long[] fixedCost;
        CallCosts.Rule[] rules;
        int[][] argIds;
        boolean[] watched;
        int[] optionalSelectOperand;
        boolean[] optionalOperand;
        boolean hasOptionalSelects;
        boolean hasLoops;
        boolean hasGrowingCalls;
        boolean hasPairwiseCalls;
        boolean hasTraversalCalls;
        long nodeCount;
        long maxLiteralSize;
        final List<PlannedCall> plannedCalls = new ArrayList<>();

        Builder(CelAbstractSyntaxTree ast) {
            this.ast = ast;
            int size = (int) CelExprs.maxId(ast.getExpr()) + 1;
            fixedCost = new long[size];
            rules = new CallCosts.Rule[size];
            argIds = new int[size][];
            watched = new boolean[size];
            optionalSelectOperand = new int[size];
            optionalOperand = new boolean[size];
            java.util.Arrays.fill(optionalSelectOperand, -1);
        }

        /** Assigns costs below and at {@code expr}; returns whether cel-go would fold the node into a constant. */
        boolean visit(CelExpr expr) {
            nodeCount++;
            int id = (int) expr.id();
            switch (expr.exprKind().getKind()) {
                case CONSTANT:
                    maxLiteralSize = Math.max(maxLiteralSize, CallCosts.size(constantValue(expr)));
                    return true;
                case IDENT: {
                    // Type names (int, string, ...) are constants in cel-go.
                    boolean typeName = ast.getType(expr.id())
                            .map(t -> t.kind() == CelKind.TYPE)
                            .orElse(false);
                    fixedCost[id] = typeName ? 0 : 1;
                    return typeName;
                }
                case SELECT:
                    visit(expr.select().operand());
                    // has() is a presence test, which Kubernetes makes free; selecting from a computed value makes a
                    // relative attribute in cel-go, which costs one more.
                    fixedCost[id] = expr.select().testOnly()
                            ? 0
                            : isAttribute(expr.select().operand()) ? 1 : 2;
                    return false;
                case LIST: {
                    boolean constant = true;
                    for (CelExpr element : expr.list().elements()) {
                        constant &= visit(element);
                    }
                    constant &= expr.list().optionalIndices().isEmpty();
                    fixedCost[id] = constant ? 0 : LIST_CREATE;
                    return constant;
                }
                case MAP: {
                    boolean constant = true;
                    for (var entry : expr.map().entries()) {
                        constant &= visit(entry.key());
                        constant &= visit(entry.value());
                        constant &= !entry.optionalEntry();
                    }
                    fixedCost[id] = constant ? 0 : MAP_CREATE;
                    return constant;
                }
                case STRUCT:
                    expr.struct().entries().forEach(e -> visit(e.value()));
                    fixedCost[id] = STRUCT_CREATE;
                    return false;
                case COMPREHENSION: {
                    var c = expr.comprehension();
                    boolean bindOnly = c.iterRange().exprKind().getKind() == CelExpr.ExprKind.Kind.LIST
                            && c.iterRange().list().elements().isEmpty();
                    hasLoops |= !bindOnly;
                    CelExprs.children(expr).forEach(this::visit);
                    return false;
                }
                case CALL:
                    return visitCall(expr, id);
                default:
                    return false;
            }
        }

        private boolean visitCall(CelExpr expr, int id) {
            var call = expr.call();
            List<CelExpr> args = new ArrayList<>();
            call.target().ifPresent(args::add);
            args.addAll(call.args());
            boolean allConstant = true;
            boolean[] constants = new boolean[args.size()];
            for (int i = 0; i < args.size(); i++) {
                constants[i] = visit(args.get(i));
                allConstant &= constants[i];
            }
            String function = call.function();
            if (function.equals("_?._")) {
                optionalSelectOperand[id] = (int) args.get(0).id();
                optionalOperand[(int) args.get(0).id()] = true;
                hasOptionalSelects = true;
            }
            List<String> overloads =
                    ast.getReference(expr.id()).map(CelReference::overloadIds).orElse(null);
            hasPairwiseCalls |= PAIRWISE_FUNCTIONS.contains(function);
            hasTraversalCalls |= TRAVERSAL_FUNCTIONS.contains(function);
            if (GROWING_FUNCTIONS.contains(function)
                    || overloads != null && overloads.stream().anyMatch(GROWING_OVERLOADS::contains)) {
                hasGrowingCalls = true;
            }
            if (REGEX_FUNCTIONS.contains(function) && args.size() >= 2 && constants[1]) {
                plannedCalls.add(new PlannedCall(expr, 1));
            }
            if (TYPE_CONVERSIONS.contains(function) && args.size() == 1 && allConstant) {
                plannedCalls.add(new PlannedCall(expr, PlannedCall.FOLDED));
                fixedCost[id] = 0;
                return true;
            }
            if (function.equals("@in")
                    && args.size() == 2
                    && constants[1]
                    && args.get(1).exprKind().getKind() == CelExpr.ExprKind.Kind.LIST
                    && CallCosts.primitiveElements(args.get(1))) {
                fixedCost[id] = 0;
                return false;
            }
            if (function.equals("_?_:_")) {
                // cel-go resolves a branch that is an attribute (identifier, selection, index) without observing it.
                unobservedAttribute(args.get(1));
                unobservedAttribute(args.get(2));
            }
            if (function.equals("_[_]") || function.equals("_[?_]")) {
                // An index that is itself an attribute becomes a qualifier that cel-go resolves without observing it.
                unobservedAttribute(args.get(1));
                if (constants[1]) {
                    plannedCalls.add(new PlannedCall(expr, PlannedCall.CONSTANT_QUALIFIER));
                }
            }
            if ((function.equals("sort")
                            || function.equals("@sortByAssociatedKeys")
                            || function.equals("lists.@sortByAssociatedKeys"))
                    && !concreteList(args.get(args.size() - 1))) {
                // cel-go has one sort overload per element type; on dyn it cannot pick one and charges 1.
                fixedCost[id] = 1;
                return false;
            }
            if ((function.equals("_[_]") || function.equals("_[?_]") || function.equals("_?._"))
                    && !isAttribute(args.get(0))) {
                // Indexing a computed value makes a relative attribute in cel-go: one more for the attribute itself.
                fixedCost[id] = 2;
                return false;
            }
            CallCosts.Rule rule = CallCosts.rule(function, overloads == null ? List.of() : overloads);
            if (rule == null) {
                fixedCost[id] = CallCosts.fixed(function);
                return false;
            }
            rules[id] = rule;
            int[] ids = new int[args.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = (int) args.get(i).id();
                watched[ids[i]] = true;
            }
            argIds[id] = ids;
            return false;
        }

        private boolean concreteList(CelExpr expr) {
            return ast.getType(expr.id())
                    .map(t -> t.kind() == CelKind.LIST && t.parameters().get(0).kind() != CelKind.DYN)
                    .orElse(false);
        }

        /** Whether cel-go plans the expression as an attribute (identifier, selection, index, conditional). */
        private static boolean isAttribute(CelExpr expr) {
            switch (expr.exprKind().getKind()) {
                case IDENT:
                case SELECT:
                    return true;
                case CALL:
                    String function = expr.call().function();
                    return function.equals("_[_]")
                            || function.equals("_[?_]")
                            || function.equals("_?._")
                            || function.equals("_?_:_");
                default:
                    return false;
            }
        }

        /**
         * Adjusts an attribute that cel-go resolves directly instead of through its observed instruction (a conditional
         * branch, an index that is itself an attribute): the attribute's root costs nothing, while each qualifier
         * (selection, index) is still observed and costs 1.
         */
        private void unobservedAttribute(CelExpr expr) {
            if (!isAttribute(expr)) {
                return;
            }
            int id = (int) expr.id();
            switch (expr.exprKind().getKind()) {
                case IDENT:
                    fixedCost[id] = 0;
                    break;
                case SELECT:
                    if (!expr.select().testOnly()) {
                        fixedCost[id] = 1;
                    }
                    unobservedAttribute(expr.select().operand());
                    break;
                case CALL:
                    if (expr.call().function().equals("_?_:_")) {
                        unobservedAttribute(expr.call().args().get(1));
                        unobservedAttribute(expr.call().args().get(2));
                    } else {
                        if (rules[id] == null) {
                            fixedCost[id] = 1;
                        }
                        unobservedAttribute(expr.call().args().get(0));
                    }
                    break;
                default:
                    break;
            }
        }

        private static Object constantValue(CelExpr expr) {
            var constant = expr.constant();
            switch (constant.getKind()) {
                case STRING_VALUE:
                    return constant.stringValue();
                case BYTES_VALUE:
                    return constant.bytesValue();
                default:
                    return null;
            }
        }
    }
}
