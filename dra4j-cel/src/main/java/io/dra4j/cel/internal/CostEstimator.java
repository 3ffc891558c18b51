package io.dra4j.cel.internal;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The static cost estimate of a checked selector, as kube-apiserver computes it before it accepts one
 * ({@code CompilationResult.MaxCost} of dynamic-resource-allocation {@code cel/compile.go}: cel-go's
 * {@code checker.Cost} with the overload estimators of the extensions Kubernetes enables (ext.Lists v3, ext.Sets),
 * then the Kubernetes library estimator ({@link CallEstimates}), then cel-go's built-in rules; sizes of what
 * {@code device} reaches from {@link DeviceSizes}; presence tests free, as Kubernetes configures it).
 *
 * <p>One walk of the expression in cel-go's order, keeping what cel-go's coster keeps: each node's field path from a
 * variable ({@code device.attributes.@values.@values}), the sizes computed for call results, the entry sizes of
 * list and map literals, and a stack of local variables per name (comprehension and {@code cel.bind} variables).
 * An instance serves one estimate and is then dropped.
 */
public final class CostEstimator {

    /** cel-go's SelectAndIdentCost, ListCreateBaseCost, MapCreateBaseCost, StructCreateBaseCost. */
    static final Uint64Range SELECT_AND_IDENT = Uint64Range.fixed(1);

    static final Uint64Range LIST_CREATE = Uint64Range.fixed(10);
    private static final Uint64Range MAP_CREATE = Uint64Range.fixed(30);
    private static final Uint64Range STRUCT_CREATE = Uint64Range.fixed(40);
    /** cel-go's parser.AccumulatorName and HiddenAccumulatorName. */
    private static final String ACCUMULATOR = "__result__";

    private static final String HIDDEN_ACCUMULATOR = "@result";

    /** What the estimate knows about an AST node: cel-go's {@code checker.AstNode}. */
    record Node(List<String> path, CelType type, CelExpr expr, Uint64Range computedSize) {}

    /** The key (or index) and value sizes of a list or map: cel-go's {@code entrySizeEstimate}. */
    private record EntrySize(CelKind container, Uint64Range key, Uint64Range val) {
        EntrySize union(EntrySize other) {
            if (other == null) {
                return null;
            }
            return new EntrySize(container, key.union(other.key), val.union(other.val));
        }
    }

    private record LocalVar(List<String> path, Uint64Range size, EntrySize entrySize) {}

    private final CelAbstractSyntaxTree ast;
    private final Map<Long, List<String>> paths = new HashMap<>();
    private final Map<String, Deque<LocalVar>> locals = new HashMap<>();
    private final Map<Long, Uint64Range> sizes = new HashMap<>();
    private final Map<Long, EntrySize> entrySizes = new HashMap<>();
    /** Nodes whose type cel-go's checker leaves dyn where cel-java's is more precise. */
    private final Map<Long, CelType> goTypes = new HashMap<>();

    private CostEstimator(CelAbstractSyntaxTree ast) {
        this.ast = ast;
    }

    /** The estimated minimum and maximum cost of evaluating a checked expression once. */
    public static Uint64Range estimate(CelAbstractSyntaxTree ast) {
        CelAbstractSyntaxTree goShaped = GoOptionalMacros.expand(ast);
        return new CostEstimator(goShaped).cost(goShaped.getExpr());
    }

    private Uint64Range cost(CelExpr e) {
        switch (e.exprKind().getKind()) {
            case CONSTANT:
                return Uint64Range.ZERO;
            case IDENT:
                return costIdent(e);
            case SELECT:
                return costSelect(e);
            case CALL:
                return costCall(e);
            case LIST:
                return costCreateList(e);
            case MAP:
                return costCreateMap(e);
            case STRUCT:
                return costCreateStruct(e);
            case COMPREHENSION:
                return isBind(e) ? costBind(e) : costComprehension(e);
            default:
                return Uint64Range.ZERO;
        }
    }

    private Uint64Range costIdent(CelExpr e) {
        String name = e.ident().name();
        LocalVar local = peek(name);
        paths.put(e.id(), local != null ? local.path() : List.of(name));
        return SELECT_AND_IDENT;
    }

    private Uint64Range costSelect(CelExpr e) {
        var select = e.select();
        if (select.testOnly()) {
            // Kubernetes makes presence tests free (PresenceTestHasCost(false)); the operand still costs.
            return cost(select.operand());
        }
        Uint64Range sum = cost(select.operand());
        CelKind kind = kind(type(select.operand()));
        if (kind == CelKind.MAP || kind == CelKind.STRUCT || kind == CelKind.TYPE_PARAM) {
            sum = sum.add(SELECT_AND_IDENT);
        }
        paths.put(e.id(), append(path(select.operand()), select.field()));
        return sum;
    }

    private Uint64Range costCall(CelExpr e) {
        var call = e.call();
        if (call.function().equals("dyn") && call.args().size() == 1) {
            // dyn() only switches type checking off: the argument's cost and sizes plus 1.
            CelExpr arg = call.args().get(0);
            Uint64Range argCost = cost(arg);
            copySizes(e, arg);
            return Uint64Range.ONE.add(argCost);
        }
        List<CelExpr> args = call.args();
        List<Node> argNodes = new ArrayList<>(args.size());
        List<Uint64Range> argCosts = new ArrayList<>(args.size());
        for (CelExpr arg : args) {
            argCosts.add(cost(arg));
            argNodes.add(node(arg));
        }
        List<String> overloads = ast.getReference(e.id())
                .map(r -> (List<String>) r.overloadIds())
                .orElse(List.of());
        if (overloads.isEmpty()) {
            return Uint64Range.ZERO;
        }
        Uint64Range sum = Uint64Range.ZERO;
        Node target = null;
        if (call.target().isPresent()) {
            sum = sum.add(cost(call.target().get()));
            target = node(call.target().get());
        }
        // Every overload the checker left possible is priced; the estimate covers them all.
        Uint64Range fnCost = new Uint64Range(Uint64Range.MAX, 0);
        Uint64Range resultSize = null;
        for (String overload : overloads) {
            CallEstimates.Call estimate = functionCost(e, call.function(), overload, target, argNodes, argCosts);
            fnCost = fnCost.union(estimate.cost());
            if (estimate.resultSize() != null) {
                resultSize = resultSize == null ? estimate.resultSize() : resultSize.union(estimate.resultSize());
            }
            if (overload.equals("index_list") && !args.isEmpty()) {
                resultSize = valSize(entrySize(args.get(0)));
                paths.put(e.id(), append(path(args.get(0)), "@items"));
            } else if (overload.equals("index_map") && !args.isEmpty()) {
                resultSize = valSize(entrySize(args.get(0)));
                paths.put(e.id(), append(path(args.get(0)), "@values"));
            }
            if (resultSize == null) {
                resultSize = computeSize(e);
            }
        }
        setSize(e, resultSize);
        if (target != null
                && (call.function().equals("sort") || call.function().equals("@sortByAssociatedKeys"))
                && !concreteElements(target.type())) {
            // cel-go declares one sort overload per element type; on dyn elements several match, with different
            // result types, so its checker types the result dyn.
            goTypes.put(e.id(), SimpleType.DYN);
        }
        return sum.add(fnCost);
    }

    private CallEstimates.Call functionCost(
            CelExpr e, String function, String overload, Node target, List<Node> args, List<Uint64Range> argCosts) {
        Uint64Range argSum = Uint64Range.ZERO;
        for (Uint64Range c : argCosts) {
            argSum = argSum.add(c);
        }
        CallEstimates.Call call = CallEstimates.extension(function, overload, target, args);
        if (call == null) {
            call = CallEstimates.kubernetes(function, overload, target, args);
        }
        if (call != null) {
            return new CallEstimates.Call(call.cost().add(argSum), call.resultSize());
        }
        switch (overload) {
            case "conditional": {
                Uint64Range size = sizeOrUnknown(args.get(1)).union(sizeOrUnknown(args.get(2)));
                EntrySize first = entrySize(args.get(1).expr());
                setEntrySize(
                        e,
                        first == null ? null : first.union(entrySize(args.get(2).expr())));
                return new CallEstimates.Call(
                        argCosts.get(0).add(argCosts.get(1).union(argCosts.get(2))), size);
            }
            case "add_string", "add_bytes", "add_list": {
                if (args.size() != 2) {
                    break;
                }
                Uint64Range size = sizeOrUnknown(args.get(0)).add(sizeOrUnknown(args.get(1)));
                EntrySize lhs = entrySize(args.get(0).expr());
                EntrySize merged =
                        lhs == null ? null : lhs.union(entrySize(args.get(1).expr()));
                setEntrySize(e, merged);
                if (overload.equals("add_list")) {
                    // Concatenation is O(1); handled here for the size it tracks.
                    return new CallEstimates.Call(Uint64Range.ONE.add(argSum), size);
                }
                return new CallEstimates.Call(
                        size.multiplyByCostFactor(CallEstimates.STRING_TRAVERSAL)
                                .add(argSum),
                        size);
            }
            default:
                break;
        }
        CallEstimates.Call builtin = CallEstimates.builtin(overload, target, args, this::sizeOrUnknown);
        if (builtin != null) {
            return new CallEstimates.Call(builtin.cost().add(argSum), builtin.resultSize());
        }
        if (overload.equals("logical_or") || overload.equals("logical_and")) {
            Uint64Range lhs = argCosts.get(0);
            Uint64Range rhs = argCosts.get(1);
            // Short-circuiting: at least the left side, at most both.
            return new CallEstimates.Call(
                    new Uint64Range(lhs.min(), lhs.add(rhs).max()), null);
        }
        return new CallEstimates.Call(Uint64Range.ONE.add(argSum), null);
    }

    private Uint64Range costCreateList(CelExpr e) {
        List<CelExpr> elements = e.list().elements();
        Uint64Range sum = Uint64Range.ZERO;
        Uint64Range itemSize = new Uint64Range(elements.isEmpty() ? 0 : Uint64Range.MAX, 0);
        for (CelExpr element : elements) {
            sum = sum.add(cost(element));
            itemSize = itemSize.union(sizeOrUnknown(element));
        }
        setEntrySize(e, new EntrySize(CelKind.LIST, Uint64Range.ONE, itemSize));
        return sum.add(LIST_CREATE);
    }

    private Uint64Range costCreateMap(CelExpr e) {
        var entries = e.map().entries();
        Uint64Range sum = Uint64Range.ZERO;
        long initialMin = entries.isEmpty() ? 0 : Uint64Range.MAX;
        Uint64Range keySize = new Uint64Range(initialMin, 0);
        Uint64Range valSize = new Uint64Range(initialMin, 0);
        for (var entry : entries) {
            sum = sum.add(cost(entry.key()));
            sum = sum.add(cost(entry.value()));
            keySize = keySize.union(sizeOrUnknown(entry.key()));
            valSize = valSize.union(sizeOrUnknown(entry.value()));
        }
        setEntrySize(e, new EntrySize(CelKind.MAP, keySize, valSize));
        return sum.add(MAP_CREATE);
    }

    private Uint64Range costCreateStruct(CelExpr e) {
        Uint64Range sum = Uint64Range.ZERO;
        for (var entry : e.struct().entries()) {
            sum = sum.add(cost(entry.value()));
        }
        return sum.add(STRUCT_CREATE);
    }

    private Uint64Range costComprehension(CelExpr e) {
        var comp = e.comprehension();
        Uint64Range sum = cost(comp.iterRange());
        sum = sum.add(cost(comp.accuInit()));
        pushLocalVar(comp.accuVar(), comp.accuInit());
        boolean twoVars = !comp.iterVar2().isEmpty();
        if (twoVars) {
            pushIter(comp.iterVar(), comp.iterRange(), true);
            pushIter(comp.iterVar2(), comp.iterRange(), false);
        } else {
            pushIterSingle(comp.iterVar(), comp.iterRange());
        }
        Uint64Range loopCost = cost(comp.loopCondition());
        Uint64Range stepCost = cost(comp.loopStep());
        pop(comp.iterVar());
        if (twoVars) {
            pop(comp.iterVar2());
        }
        sum = sum.add(cost(comp.result()));
        pop(comp.accuVar());
        // Each iteration pays the condition and the step.
        Uint64Range rangeCount = sizeOrUnknown(comp.iterRange());
        sum = sum.add(rangeCount.multiply(stepCost.add(loopCost)));
        switch (comp.accuInit().exprKind().getKind()) {
            case CONSTANT -> setSize(e, computeSize(comp.accuInit()));
            case LIST, MAP -> {
                setSize(e, rangeCount);
                EntrySize step = entrySize(comp.loopStep());
                if (step != null) {
                    setEntrySize(e, step);
                }
            }
            default -> {}
        }
        return sum;
    }

    /** cel.bind: a comprehension over an empty list whose condition is false, with a named accumulator. */
    private boolean isBind(CelExpr e) {
        var comp = e.comprehension();
        CelExpr range = comp.iterRange();
        CelExpr condition = comp.loopCondition();
        return range.exprKind().getKind() == CelExpr.ExprKind.Kind.LIST
                && range.list().elements().isEmpty()
                && condition.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && condition.constant().getKind() == CelConstant.Kind.BOOLEAN_VALUE
                && !condition.constant().booleanValue()
                && !comp.accuVar().equals(ACCUMULATOR);
    }

    private Uint64Range costBind(CelExpr e) {
        var comp = e.comprehension();
        // The binding is evaluated lazily; the empty range's cost is kept.
        Uint64Range sum = cost(comp.iterRange());
        sum = sum.add(cost(comp.accuInit()));
        pushLocalVar(comp.accuVar(), comp.accuInit());
        sum = sum.add(cost(comp.result()));
        pop(comp.accuVar());
        copySizes(e, comp.result());
        return sum;
    }

    private void pushIter(String name, CelExpr range, boolean key) {
        EntrySize entry = entrySize(range);
        Uint64Range size = key ? keySize(entry) : valSize(entry);
        boolean list = container(entry, range) == CelKind.LIST;
        String sub = key ? (list ? "@indices" : "@keys") : (list ? "@items" : "@values");
        push(name, new LocalVar(append(path(range), sub), size, null));
    }

    private void pushIterSingle(String name, CelExpr range) {
        EntrySize entry = entrySize(range);
        Uint64Range size = keySize(entry);
        String sub = "@keys";
        if (container(entry, range) == CelKind.LIST) {
            size = valSize(entry);
            sub = "@items";
        }
        push(name, new LocalVar(append(path(range), sub), size, null));
    }

    private CelKind container(EntrySize entry, CelExpr range) {
        return entry != null ? entry.container() : kind(type(range));
    }

    private void pushLocalVar(String name, CelExpr e) {
        push(name, new LocalVar(path(e), computeSize(e), entrySize(e)));
    }

    private void push(String name, LocalVar local) {
        locals.computeIfAbsent(name, n -> new ArrayDeque<>()).push(local);
    }

    private void pop(String name) {
        Deque<LocalVar> stack = locals.get(name);
        if (stack != null && !stack.isEmpty()) {
            stack.pop();
        }
    }

    private LocalVar peek(String name) {
        Deque<LocalVar> stack = locals.get(name);
        return stack == null ? null : stack.peek();
    }

    private List<String> path(CelExpr e) {
        if (e.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar local = peek(e.ident().name());
            if (local != null) {
                return local.path();
            }
        }
        return paths.getOrDefault(e.id(), List.of());
    }

    private static List<String> append(List<String> path, String name) {
        List<String> out = new ArrayList<>(path.size() + 1);
        out.addAll(path);
        out.add(name);
        return List.copyOf(out);
    }

    private Node node(CelExpr e) {
        List<String> path = path(e);
        if (!path.isEmpty() && (path.get(0).equals(ACCUMULATOR) || path.get(0).equals(HIDDEN_ACCUMULATOR))) {
            // Only paths from root variables are given out, not from accumulators.
            path = List.of();
        }
        return new Node(path, type(e), e, computeSize(e));
    }

    private CelType type(CelExpr e) {
        CelType go = goTypes.get(e.id());
        return go != null ? go : ast.getType(e.id()).orElse(SimpleType.DYN);
    }

    private static boolean concreteElements(CelType type) {
        return type.kind() == CelKind.LIST
                && !type.parameters().isEmpty()
                && type.parameters().get(0).kind() != CelKind.DYN;
    }

    private static CelKind kind(CelType type) {
        return type.kind();
    }

    private void setSize(CelExpr e, Uint64Range size) {
        if (size != null) {
            sizes.put(e.id(), size);
        }
    }

    Uint64Range sizeOrUnknown(Node node) {
        return node.computedSize() != null ? node.computedSize() : Uint64Range.UNKNOWN;
    }

    private Uint64Range sizeOrUnknown(CelExpr e) {
        Uint64Range size = computeSize(e);
        return size != null ? size : Uint64Range.UNKNOWN;
    }

    private void copySizes(CelExpr dst, CelExpr src) {
        setSize(dst, computeSize(src));
        setEntrySize(dst, entrySize(src));
    }

    /**
     * cel-go's computeSize: a size computed earlier, a literal's size, the environment's size for the node's field
     * path (remembered), 1 for scalar types, or a local variable's size.
     */
    private Uint64Range computeSize(CelExpr e) {
        Uint64Range known = sizes.get(e.id());
        if (known != null) {
            return known;
        }
        Uint64Range literal = literalSize(e);
        if (literal != null) {
            return literal;
        }
        Uint64Range declared = DeviceSizes.estimate(path(e));
        if (declared != null) {
            sizes.put(e.id(), declared);
            return declared;
        }
        if (CallEstimates.isScalar(type(e))) {
            return Uint64Range.ONE;
        }
        if (e.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar local = peek(e.ident().name());
            if (local != null && local.size() != null) {
                return local.size();
            }
        }
        return null;
    }

    private static Uint64Range literalSize(CelExpr e) {
        switch (e.exprKind().getKind()) {
            case CONSTANT: {
                CelConstant c = e.constant();
                switch (c.getKind()) {
                    case STRING_VALUE:
                        return Uint64Range.fixed(c.stringValue()
                                .codePointCount(0, c.stringValue().length()));
                    case BYTES_VALUE:
                        return Uint64Range.fixed(c.bytesValue().size());
                    case BOOLEAN_VALUE,
                            DOUBLE_VALUE,
                            INT64_VALUE,
                            UINT64_VALUE,
                            NULL_VALUE,
                            DURATION_VALUE,
                            TIMESTAMP_VALUE:
                        return Uint64Range.ONE;
                    default:
                        return null;
                }
            }
            case LIST:
                return Uint64Range.fixed(e.list().elements().size());
            case MAP:
                return Uint64Range.fixed(e.map().entries().size());
            default:
                return null;
        }
    }

    private void setEntrySize(CelExpr e, EntrySize size) {
        if (size != null) {
            entrySizes.put(e.id(), size);
        }
    }

    private EntrySize entrySize(CelExpr e) {
        EntrySize known = entrySizes.get(e.id());
        if (known != null) {
            return known;
        }
        if (e.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar local = peek(e.ident().name());
            if (local != null) {
                return local.entrySize();
            }
        }
        return null;
    }

    private static Uint64Range keySize(EntrySize entry) {
        return entry == null ? null : entry.key();
    }

    private static Uint64Range valSize(EntrySize entry) {
        return entry == null ? null : entry.val();
    }
}
