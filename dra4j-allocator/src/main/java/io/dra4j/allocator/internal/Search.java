package io.dra4j.allocator.internal;

import io.dra4j.allocator.DeviceId;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.EvalResult;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The mutable state of one allocation call: a depth-first search over claim, request, subrequest and device, in
 * upstream's first-fit order, where every tentative step returns an {@link Undo} that restores the state exactly.
 * Single-threaded; one instance per call. Devices are addressed by their position among the node's candidates, so
 * the per-call state is as large as the node, not the cluster. The pre-pass ({@link PrePass}), the pruning bounds
 * ({@link PruningBounds}) and shared counters ({@link Counters}) live in their own files.
 */
public final class Search {
    static final int MAX_RESULTS = 32;

    /** What one search step found; upstream passes the same three outcomes as (bool, error). */
    enum StepResult {
        NOT_FOUND,
        FOUND,
        /** Upstream's "allocation max size exceeded" signal: more than 32 results would be needed for a claim. */
        MAX_EXCEEDED
    }

    final ClusterView view;
    final EngineFeatures f;
    final Node node;
    final String nodeName;
    final List<ResourceClaim> claims;
    private final Supplier<String> shareIds;
    private final long deadlineNanos;

    List<Pool> pools;
    /** Candidates of usable pools in enumeration order, and the pool of each; a device's position is its address. */
    private DeviceInfo[] candidates;

    private Pool[] candidatePools;
    /** Per candidate position, what earlier allocations hold; shared by every search on the node view. */
    private HeldDevices held;
    /** Per claim, per request: the request (length 1) or its subrequests. */
    RequestData[][][] requests;

    int[][] selectedSub;
    /** Number of request slots (requests and subrequests of all claims). */
    int slots;

    private final List<Constraint>[] constraints;
    final List<DeviceResult>[] results;

    /** The node's view: its candidates and the selectability rows shared by every search on it. */
    private ClusterView.NodeView nodeView;
    /** Per candidate position: the claims of this call that hold it exclusively. */
    private BitSet[] allocatingClaims;
    /** Candidate positions that some claim of this call holds exclusively, and per claim those it holds. */
    private long[] allocatingAny;

    private long[][] heldByClaim;
    /** Per claim: whether it has a matchAttribute constraint with set semantics (list-type attributes). */
    private boolean[] setMatch;

    private final Map<String, ValueIndex> valueIndexes = new HashMap<>();
    /** Whether the list-type matchAttribute skips and support bound apply (off only in a test of exactly that). */
    private boolean listBounds = true;
    /** Whether the pigeonhole and distinct-values bounds apply (off only in a test of exactly that). */
    private boolean requestBounds = true;

    private PruningBounds bounds;
    private Counters counters;
    private final Map<DeviceId, Map<String, BigDecimal>> allocatingCapacity = new HashMap<>();
    private RejectionObserver observer;
    long steps;

    /** One allocated device, as the search recorded it. */
    record DeviceResult(
            RequestData request, DeviceInfo device, String shareId, Map<String, KubeQuantity> consumedCapacity) {}

    @FunctionalInterface
    interface Undo {
        void undo();
    }

    /**
     * Told what the checks decided about each candidate the search examined for a slot: the k-th device of request
     * (or subrequest) of a claim. Candidates the search skips unchecked (pruning, symmetry) are not reported. One per
     * call, set with {@link #observe}; without one the search does no work for it.
     */
    public interface RejectionObserver {
        /** The check of {@code stage} rejected the device. */
        void rejected(int claim, int request, int subrequest, int k, DeviceId device, CheckStage stage);

        /** Every check passed and the device was taken tentatively. */
        void taken(int claim, int request, int subrequest, int k, DeviceId device);
    }

    @SuppressWarnings("unchecked")
    public Search(
            ClusterView view, Node node, List<ResourceClaim> claims, Supplier<String> shareIds, long deadlineNanos) {
        this.view = view;
        this.f = view.features;
        this.node = node;
        this.nodeName = node.getMetadata() == null ? null : node.getMetadata().getName();
        this.claims = claims;
        this.shareIds = shareIds;
        this.deadlineNanos = deadlineNanos;
        this.results = new List[claims.size()];
        this.constraints = new List[claims.size()];
        for (int i = 0; i < claims.size(); i++) {
            results[i] = new ArrayList<>();
        }
    }

    /** Runs the whole allocation; true when every claim got devices. */
    public boolean run() throws AllocationException {
        prepareAll();
        StepResult r = allocateOne(0, 0, 0, 0, false, 0);
        if (r == StepResult.FOUND) {
            return true;
        }
        for (Pool pool : pools) {
            if (pool.invalid()) {
                throw new AllocationException("invalid resource pools were encountered", true);
            }
        }
        return false;
    }

    /** Gathers pools, lists the candidates and validates the requests, as the search does before its first step. */
    void prepareAll() throws AllocationException {
        nodeView = view.nodeView(node);
        pools = nodeView.gathered();
        candidates = nodeView.candidates();
        candidatePools = nodeView.candidatePools();
        allocatingClaims = new BitSet[candidates.length];
        allocatingAny = new long[Bits.words(candidates.length)];
        heldByClaim = new long[claims.size()][Bits.words(candidates.length)];
        held = nodeView.held(view);
        PrePass.run(this);
        setMatch = new boolean[claims.size()];
        for (int c = 0; c < claims.size(); c++) {
            for (Constraint con : constraints[c]) {
                setMatch[c] |= con instanceof Constraint.Match && con.setSemantics;
            }
        }
        bounds = new PruningBounds(this);
        counters = new Counters(view);
    }

    DeviceInfo[] candidates() {
        return candidates;
    }

    Pool[] candidatePools() {
        return candidatePools;
    }

    List<Constraint> constraints(int claim) {
        return constraints[claim];
    }

    /** Per candidate position, the device's value of a constraint attribute and its scalar id (node view's). */
    AttributeColumn attributeColumn(String attribute) {
        return nodeView.attributeColumn(attribute);
    }

    /** The candidates' interned values of a constraint attribute, built on first use in this call. */
    ValueIndex valueIndex(String attribute) {
        ValueIndex v = valueIndexes.get(attribute);
        if (v == null) {
            v = ValueIndex.of(candidates, attribute);
            valueIndexes.put(attribute, v);
        }
        return v;
    }

    long[] allocatingAny() {
        return allocatingAny;
    }

    long[] heldByClaim(int claim) {
        return heldByClaim[claim];
    }

    public long steps() {
        return steps;
    }

    /** Reports every check's verdict on a candidate to the observer, for this call only. */
    public void observe(RejectionObserver observer) {
        this.observer = observer;
    }

    /** Turns off the pigeonhole and distinct-values bounds over the remaining requests, for a test that they decide
     * nothing. */
    void withoutRequestBounds() {
        requestBounds = false;
    }

    /** Turns off the list-type matchAttribute skips and support bound, for a test that they decide nothing. */
    void withoutListBounds() {
        listBounds = false;
    }

    static String claimRef(ResourceClaim claim) {
        String ns = claim.getMetadata() == null ? null : claim.getMetadata().getNamespace();
        String name = claim.getMetadata() == null ? "" : claim.getMetadata().getName();
        return ns == null || ns.isEmpty() ? name : ns + "/" + name;
    }

    void setConstraints(int claim, List<Constraint> built) {
        constraints[claim] = built;
    }

    // Phase: the search. Mirrors upstream's allocateOne step by step, including how "max size exceeded" travels:
    // it moves on to the next subrequest, stops the candidates of one slot, and becomes "not found" at claim level.
    // The slot is (claim c, request q, subrequest s, k-th device); start is the first candidate position to try.
    private StepResult allocateOne(int c, int q, int s, int k, boolean inSubRequest, int start)
            throws AllocationException {
        steps++;
        // The clock is read on the first step and then every 256th: upstream checks its context on every step, so a
        // bound already past stops the search at once, and a read per step would cost more than the step.
        if (deadlineNanos != 0 && (steps & 0xff) == 1 && System.nanoTime() > deadlineNanos) {
            throw AllocationException.deadlineExceeded();
        }
        if (c >= claims.size()) {
            return StepResult.FOUND;
        }
        if (q >= requests[c].length) {
            StepResult r = allocateOne(c + 1, 0, 0, 0, false, 0);
            return r == StepResult.MAX_EXCEEDED ? StepResult.NOT_FOUND : r;
        }
        RequestData[] alternatives = requests[c][q];
        if (k == 0
                && !inSubRequest
                && requestBounds
                && bounds.entryBoundsApply(c, q)
                && (bounds.cannotFitRemainingRequests(c, q) || bounds.cannotMeetDistinctValues(c, q))) {
            return StepResult.NOT_FOUND;
        }
        if (!inSubRequest && alternatives[0].parentName != null) {
            boolean allExceeded = true;
            for (int si = 0; si < alternatives.length; si++) {
                StepResult r = allocateOne(c, q, si, k, true, 0);
                if (r == StepResult.MAX_EXCEEDED) {
                    continue;
                }
                allExceeded = false;
                if (r == StepResult.FOUND) {
                    selectedSub[c][q] = si;
                    return StepResult.FOUND;
                }
            }
            return allExceeded ? StepResult.MAX_EXCEEDED : StepResult.NOT_FOUND;
        }
        RequestData rd = alternatives[s];
        boolean all = rd.allMode();
        if (all && rd.allDevices.isEmpty()) {
            return StepResult.NOT_FOUND;
        }
        if (k >= rd.numDevices) {
            return allocateOne(c, q + 1, 0, 0, false, 0);
        }
        if (rd.numDevices - k > MAX_RESULTS - results[c].size()) {
            return StepResult.MAX_EXCEEDED;
        }
        if (all) {
            Undo undo = allocateDevice(c, q, s, k, rd, rd.allDevicePositions[k], true);
            if (undo == null) {
                return StepResult.NOT_FOUND;
            }
            StepResult r = allocateOne(c, q, s, k + 1, inSubRequest, 0);
            if (r != StepResult.FOUND) {
                undo.undo();
            }
            return r;
        }
        int from = f.stable() ? 0 : start;
        // With one device left to pick, the counting bound would only find what the scan below finds.
        int needed = rd.numDevices - k;
        if (needed > 1 && needed > bounds.usableBound(rd, from)) {
            return StepResult.NOT_FOUND;
        }
        int[] failedTwins = null;
        int failed = 0;
        // With list-type matchAttribute, devices whose values cannot intersect are skipped before their checks, as
        // allocateDevice would reject them without an error; only where no selector or capacity check of this
        // request can fail, so that every error upstream reports on the way is still reported. The constraints are
        // back in the same state after each candidate's subtree, so the acceptable positions hold for the loop.
        boolean listMatch = listBounds && setMatch[c];
        long[] acceptable = listMatch && !bounds.mayFail(rd) ? acceptable(c, rd) : null;
        boolean support = listMatch && bounds.supportApplies(c);
        for (int pos = from; pos < candidates.length; pos++) {
            if (acceptable != null) {
                pos = Bits.nextSet(acceptable, pos);
                if (pos < 0) {
                    break;
                }
            }
            DeviceInfo d = candidates[pos];
            if (rd.adminAccess ? isAllocatingForClaim(pos, c) : inUse(pos)) {
                rejected(c, q, s, k, pos, CheckStage.IN_USE);
                continue;
            }
            boolean untouched = untouched(pos);
            if (untouched && failed > 0 && twinFailed(failedTwins, failed, pos)) {
                continue;
            }
            if (!isSelectable(rd, pos)) {
                if (observer != null) {
                    rejected(c, q, s, k, pos, selectionStage(rd, pos));
                }
                continue;
            }
            if (f.consumableCapacity()) {
                try {
                    if (!capacityFits(rd, pos)) {
                        rejected(c, q, s, k, pos, CheckStage.CAPACITY);
                        continue;
                    }
                } catch (ConsumableCapacity.CapacityException e) {
                    throw new AllocationException("claim " + claimRef(claims.get(c)) + ", request " + rd.name
                            + ": checking capacity for device " + d.id + ": " + e.getMessage());
                }
            }
            Undo undo = allocateDevice(c, q, s, k, rd, pos, false);
            if (undo == null) {
                continue;
            }
            StepResult r = support && bounds.unsupported(c, q, rd, rd.numDevices - k - 1, pos)
                    ? StepResult.NOT_FOUND
                    : allocateOne(c, q, s, k + 1, inSubRequest, pos + 1);
            if (r == StepResult.FOUND) {
                return StepResult.FOUND;
            }
            undo.undo();
            if (r == StepResult.MAX_EXCEEDED) {
                return StepResult.MAX_EXCEEDED;
            }
            if (untouched) {
                if (failedTwins == null) {
                    failedTwins = new int[4];
                } else if (failed == failedTwins.length) {
                    failedTwins = java.util.Arrays.copyOf(failedTwins, failed * 2);
                }
                failedTwins[failed++] = pos;
            }
        }
        return StepResult.NOT_FOUND;
    }

    /** The positions every list-type matchAttribute constraint covering rd may accept; null when none covers it. */
    private long[] acceptable(int c, RequestData rd) {
        long[] out = null;
        boolean copied = false;
        for (Constraint con : constraints[c]) {
            if (!(con instanceof Constraint.Match m) || !m.setSemantics || !m.appliesTo(rd)) {
                continue;
            }
            long[] mine = m.acceptable();
            if (out == null) {
                out = mine;
            } else {
                if (!copied) {
                    out = out.clone();
                    copied = true;
                }
                for (int w = 0; w < out.length; w++) {
                    out[w] &= mine[w];
                }
            }
        }
        return out;
    }

    /**
     * Whether a device that already failed in this slot is indistinguishable from the one at pos: the same
     * {@link SymmetryKey} and the same persisted allocation state (neither is touched by this call).
     */
    private boolean twinFailed(int[] failedPositions, int n, int pos) {
        SymmetryKey key = candidates[pos].symmetryKey();
        for (int i = 0; i < n; i++) {
            int other = failedPositions[i];
            if (candidates[other].symmetryKey().equals(key)
                    && persistedExclusive(other) == persistedExclusive(pos)
                    && persistedShare(other) == persistedShare(pos)
                    && java.util.Objects.equals(persistedCapacity(other), persistedCapacity(pos))) {
                return true;
            }
        }
        return false;
    }

    /** No claim of this call holds the device or a share of it, so it differs from its twins only by name. */
    private boolean untouched(int pos) {
        return !allocating(pos)
                && (allocatingCapacity.isEmpty() || !allocatingCapacity.containsKey(candidates[pos].id));
    }

    boolean persistedExclusive(int pos) {
        return held.exclusive(pos);
    }

    private boolean persistedShare(int pos) {
        return held.share(pos);
    }

    private Map<String, BigDecimal> persistedCapacity(int pos) {
        return held.capacity(pos);
    }

    /** Whether an earlier allocation holds the device exclusively (for explanations). */
    boolean persistedExclusive(DeviceInfo d) {
        return view.persistedExclusive(d.id);
    }

    /** The claim holding the device exclusively where known (for explanations), else null. */
    String owner(DeviceInfo d) {
        return view.owner(d.id);
    }

    /** What earlier shares of the device consume (for explanations), or null. */
    Map<String, KubeQuantity> persistedCapacityQuantities(DeviceInfo d) {
        return view.persistedCapacityQuantities(d.id);
    }

    // Phase: selectability. Class selectors first, then the request's own, then per-device node selection. The
    // CEL results themselves are cached per device; the node view remembers per selector set which candidates pass,
    // so that a search on a node some earlier search visited with the same selectors skips the selector loop.
    boolean isSelectable(RequestData rd, int pos) throws AllocationException {
        DeviceInfo d = candidates[pos];
        if (!f.bindingAndStatus() && d.hasBindingConditions) {
            return false;
        }
        byte[] row = selectableRow(rd);
        if (row[pos] != 0) {
            return row[pos] == 1;
        }
        boolean ok = selectorsMatch(rd, d, true) && selectorsMatch(rd, d, false) && perDeviceNodeMatches(d);
        row[pos] = ok ? (byte) 1 : (byte) 2;
        return ok;
    }

    /**
     * The request's row in the node view, keyed by what decides selectability: the expressions of the class's and of
     * its own selectors (CEL is a selector's only field). A request with an empty selector gets a row of its own, as
     * evaluating it fails.
     */
    private byte[] selectableRow(RequestData rd) {
        byte[] row = rd.selectableRow;
        if (row == null) {
            List<Object> key = selectionKey(rd);
            row = key != INCOMPLETE ? nodeView.selection(key) : new byte[candidates.length];
            rd.selectableRow = row;
        }
        return row;
    }

    /** The selection key of a request whose selectors are not all CEL expressions: such a request shares nothing. */
    static final List<Object> INCOMPLETE = List.of();

    /**
     * What decides a request's selectability, as a key: the number of its class's selectors, then the class's and
     * its own expressions ({@link #INCOMPLETE} when a selector has none). Requests with equal keys select the same
     * devices on every node, so the node view's selectability rows and the probe rows are shared by key.
     */
    List<Object> selectionKey(RequestData rd) {
        List<Object> key = rd.selectionKey;
        if (key == null) {
            List<DeviceSelector> classSelectors = rd.classSelectors();
            List<Object> built = new ArrayList<>(1 + classSelectors.size() + rd.selectors.size());
            built.add(classSelectors.size());
            boolean complete = addExpressions(classSelectors, built) && addExpressions(rd.selectors, built);
            key = complete ? built : INCOMPLETE;
            rd.selectionKey = key;
        }
        return key;
    }

    private static boolean addExpressions(List<DeviceSelector> selectors, List<Object> key) {
        for (DeviceSelector sel : selectors) {
            if (sel == null || sel.getCel() == null) {
                return false;
            }
            key.add(sel.getCel().getExpression() == null ? "" : sel.getCel().getExpression());
        }
        return true;
    }

    /** The probe rows that every search on the node view shares while what earlier allocations hold is the same. */
    Map<PruningBounds.ProbeKey, PruningBounds.ProbeRow> sharedProbeRows() {
        return nodeView.probeRows(held);
    }

    private boolean selectorsMatch(RequestData rd, DeviceInfo d, boolean classSelectors) throws AllocationException {
        List<DeviceSelector> selectors = classSelectors ? rd.classSelectors() : rd.selectors;
        for (int i = 0; i < selectors.size(); i++) {
            DeviceSelector sel = selectors.get(i);
            if (sel == null || sel.getCel() == null) {
                throw new AllocationException(selectorOwner(rd, classSelectors) + ": selector #" + i
                        + ": CEL expression empty (unsupported selector type?)");
            }
            String text =
                    sel.getCel().getExpression() == null ? "" : sel.getCel().getExpression();
            String driver = view.shortcuts.driverEquality(text);
            if (driver != null && d.celViewBuildable()) {
                if (!driver.equals(d.id.driver())) {
                    return false;
                }
                continue;
            }
            CompiledExpression expr = view.cel.compile(text);
            if (expr.compileError().isPresent()) {
                throw new AllocationException(selectorOwner(rd, classSelectors) + ": selector #" + i
                        + ": CEL compile error: " + expr.compileError().get());
            }
            EvalResult result = d.evaluate(expr, view.cel, view.shortcuts.fast(text));
            if (result instanceof EvalResult.Failed failed) {
                throw AllocationException.selectorFailed(
                        selectorOwner(rd, classSelectors) + ": selector #" + i + " on device " + d.id
                                + ": CEL runtime error: " + failed.message(),
                        new AllocationException.SelectorFailure(
                                rd.claimIndex, rd.fullName(), classSelectors, i, d.id, text, failed.message()));
            }
            if (!((EvalResult.Matched) result).value()) {
                return false;
            }
        }
        return true;
    }

    /** Who a selector belongs to, for error messages only. */
    private String selectorOwner(RequestData rd, boolean classSelectors) {
        return classSelectors ? "class " + rd.className : "claim " + claimRef(claims.get(rd.claimIndex));
    }

    /** Which selectability check rejects the device (for the observer): the checks of isSelectable, in its order. */
    private CheckStage selectionStage(RequestData rd, int pos) throws AllocationException {
        DeviceInfo d = candidates[pos];
        if (!f.bindingAndStatus() && d.hasBindingConditions) {
            return CheckStage.BINDING_CONDITIONS;
        }
        if (!selectorsMatch(rd, d, true)) {
            return CheckStage.CLASS_SELECTORS;
        }
        return selectorsMatch(rd, d, false) ? CheckStage.NODE_SELECTION : CheckStage.REQUEST_SELECTORS;
    }

    /** Tells the observer, if any, that a check rejected the candidate at pos; null, for allocateDevice to return. */
    private Undo rejected(int c, int q, int s, int k, int pos, CheckStage stage) {
        if (observer != null) {
            observer.rejected(c, q, s, k, candidates[pos].id, stage);
        }
        return null;
    }

    private boolean perDeviceNodeMatches(DeviceInfo d) throws AllocationException {
        if (!Boolean.TRUE.equals(d.slice.perDeviceNodeSelection)) {
            return true;
        }
        try {
            return NodeSelectors.nodeMatches(
                    node,
                    d.device.getNodeName(),
                    Boolean.TRUE.equals(d.device.getAllNodes()),
                    d.device.getNodeSelector());
        } catch (NodeSelectors.InvalidSelectorException e) {
            throw new AllocationException("failed to parse node selector: " + e.getMessage());
        }
    }

    // Phase: tentatively take one device. The checks run in upstream's order (in use, node operations, partitionable
    // gate, counters, taints, constraints, capacity: CheckStage.order), and each step taken is recorded so that the
    // returned undo reverses all of it.
    private Undo allocateDevice(int c, int q, int s, int k, RequestData rd, int pos, boolean must)
            throws AllocationException {
        DeviceInfo d = candidates[pos];
        Pool pool = candidatePools[pos];
        boolean multi = f.consumableCapacity() && d.allowMultipleAllocations;
        if (!multi && rd.adminAccess && isAllocatingForClaim(pos, c)) {
            return rejected(c, q, s, k, pos, CheckStage.IN_USE);
        }
        if (!rd.adminAccess && inUse(pos)) {
            return rejected(c, q, s, k, pos, CheckStage.IN_USE);
        }
        if (nodeOperationsUnsupported(d)) {
            return rejected(c, q, s, k, pos, CheckStage.NODE_OPERATIONS);
        }
        if (!f.partitionableDevices() && d.consumesCounters()) {
            return rejected(c, q, s, k, pos, CheckStage.PARTITIONABLE_GATE);
        }
        boolean countersReserved = false;
        if (reservesCounters(pos)) {
            if (!counters.reserve(d, pool)) {
                return rejected(c, q, s, k, pos, CheckStage.COUNTERS);
            }
            countersReserved = true;
        }
        UndoLog log = new UndoLog(c, rd, pos, countersReserved);
        if (f.deviceTaints() && taintPrevents(d, rd)) {
            log.undo();
            return rejected(c, q, s, k, pos, CheckStage.TAINTS);
        }
        for (Constraint con : constraints[c]) {
            if (!con.add(rd, pos, d)) {
                log.undo();
                if (must) {
                    throw new AllocationException("claim " + claimRef(claims.get(c)) + ", request " + rd.name
                            + ": cannot add device " + d.id + " because a claim constraint would not be satisfied");
                }
                return rejected(c, q, s, k, pos, CheckStage.CONSTRAINTS);
            }
            log.constraintsAdded++;
        }
        if (!multi) {
            markAllocating(pos, c);
            log.marked = true;
        }
        String shareId = null;
        Map<String, KubeQuantity> consumed = null;
        if (f.consumableCapacity()) {
            boolean fits;
            try {
                fits = capacityFits(rd, pos);
            } catch (ConsumableCapacity.CapacityException e) {
                log.undo();
                throw new AllocationException("claim " + claimRef(claims.get(c)) + ", request " + rd.name
                        + ": rechecking capacity for device " + d.id + ": " + e.getMessage());
            }
            if (!fits) {
                log.undo();
                return rejected(c, q, s, k, pos, CheckStage.CAPACITY);
            }
            if (multi) {
                try {
                    consumed = ConsumableCapacity.consumption(rd.capacityRequests, d, f.fractionalCapacityRange());
                } catch (ConsumableCapacity.CapacityException e) {
                    log.undo();
                    throw new AllocationException("claim " + claimRef(claims.get(c)) + ", request " + rd.name
                            + ": computing consumed capacity for device " + d.id + ": " + e.getMessage());
                }
                shareId = shareIds.get();
                log.capacityEntryExisted = allocatingCapacity.containsKey(d.id);
                Map<String, BigDecimal> entry = allocatingCapacity.computeIfAbsent(d.id, id -> new LinkedHashMap<>());
                consumed.forEach((name, amount) -> entry.merge(name, amount.value(), BigDecimal::add));
                log.consumed = consumed;
            }
        }
        log.previousResults = results[c].size();
        results[c].add(new DeviceResult(rd, d, shareId, consumed == null || consumed.isEmpty() ? null : consumed));
        log.resultAdded = true;
        if (observer != null) {
            observer.taken(c, q, s, k, d.id);
        }
        return log;
    }

    /** Everything one tentative allocateDevice changed, undone in reverse order. */
    private final class UndoLog implements Undo {
        final int claim;
        final RequestData request;
        final DeviceInfo device;
        final int position;
        final Pool pool;
        final boolean countersReserved;
        int constraintsAdded;
        boolean marked;
        boolean capacityEntryExisted;
        Map<String, KubeQuantity> consumed;
        boolean resultAdded;
        int previousResults;

        UndoLog(int claim, RequestData request, int position, boolean countersReserved) {
            this.claim = claim;
            this.request = request;
            this.position = position;
            this.device = candidates[position];
            this.pool = candidatePools[position];
            this.countersReserved = countersReserved;
        }

        @Override
        public void undo() {
            if (resultAdded) {
                List<DeviceResult> list = results[claim];
                while (list.size() > previousResults) {
                    list.remove(list.size() - 1);
                }
            }
            if (consumed != null) {
                Map<String, BigDecimal> entry = allocatingCapacity.get(device.id);
                if (entry != null) {
                    consumed.forEach((name, q) -> entry.computeIfPresent(name, (k, v) -> v.subtract(q.value())));
                    if (entry.values().stream().allMatch(v -> v.signum() == 0)) {
                        allocatingCapacity.remove(device.id);
                    }
                }
                if (capacityEntryExisted) {
                    allocatingCapacity.computeIfAbsent(device.id, k -> new LinkedHashMap<>());
                }
            }
            if (marked) {
                unmarkAllocating(position, claim);
            }
            List<Constraint> cons = constraints[claim];
            for (int i = constraintsAdded - 1; i >= 0; i--) {
                cons.get(i).remove(request, device);
            }
            if (countersReserved) {
                counters.release(device, pool);
            }
        }
    }

    /**
     * Whether taking the device at pos reserves shared counters: it consumes some, unless it is a multi-allocatable
     * device that some allocation already shares (that one consumed them).
     */
    private boolean reservesCounters(int pos) {
        DeviceInfo d = candidates[pos];
        return d.consumesCounters() && !(f.consumableCapacity() && d.allowMultipleAllocations && capacityInUse(pos));
    }

    /** allocateDevice's counter check for the device at pos taken alone, leaving nothing reserved (explanations). */
    boolean countersFit(int pos) {
        if (!reservesCounters(pos)) {
            return true;
        }
        if (!counters.reserve(candidates[pos], candidatePools[pos])) {
            return false;
        }
        counters.release(candidates[pos], candidatePools[pos]);
        return true;
    }

    /**
     * The device's slice lets the node skip operations (skipNodeOperations), which needs DRAOptionalNodeOperations on
     * and declared by the node; the search and the explanation funnel share this check.
     */
    boolean nodeOperationsUnsupported(DeviceInfo d) {
        return f.variant() == EngineFeatures.Variant.EXPERIMENTAL
                && !d.slice.skipNodeOperations.isEmpty()
                && (!f.optionalNodeOperations() || !nodeDeclares("DRAOptionalNodeOperations"));
    }

    private boolean nodeDeclares(String feature) {
        return node.getStatus() != null
                && node.getStatus().getDeclaredFeatures() != null
                && node.getStatus().getDeclaredFeatures().contains(feature);
    }

    boolean capacityFits(RequestData rd, int pos) throws ConsumableCapacity.CapacityException {
        DeviceInfo d = candidates[pos];
        return ConsumableCapacity.fits(
                persistedCapacity(pos),
                rd.capacityRequests,
                d,
                allocatingCapacity.isEmpty() ? null : allocatingCapacity.get(d.id),
                f.fractionalCapacityRange());
    }

    /**
     * Whether the device's own capacity, before any consumption, can serve the request's capacity requests: how
     * All-mode requests list their devices (upstream: "static capacity only"), and the most any device can offer.
     */
    boolean staticCapacityFits(RequestData rd, DeviceInfo d) throws ConsumableCapacity.CapacityException {
        return ConsumableCapacity.fits(null, rd.capacityRequests, d, null, f.fractionalCapacityRange());
    }

    static boolean taintPrevents(DeviceInfo d, RequestData rd) {
        return preventingTaint(d, rd) != null;
    }

    /** The device's first NoSchedule or NoExecute taint that the request does not tolerate, or null. */
    static DeviceTaint preventingTaint(DeviceInfo d, RequestData rd) {
        for (DeviceTaint taint : d.taints) {
            String effect = taint.getEffect();
            if (("NoSchedule".equals(effect) || "NoExecute".equals(effect)) && !tolerated(taint, rd.tolerations)) {
                return taint;
            }
        }
        return null;
    }

    static boolean tolerated(DeviceTaint taint, List<DeviceToleration> tolerations) {
        for (DeviceToleration t : tolerations) {
            if (tolerates(t, taint)) {
                return true;
            }
        }
        return false;
    }

    /** Upstream's ToleratesTaint: effect and key match when set; Equal compares values, Exists matches any. */
    static boolean tolerates(DeviceToleration t, DeviceTaint taint) {
        if (t.getEffect() != null && !t.getEffect().isEmpty() && !t.getEffect().equals(taint.getEffect())) {
            return false;
        }
        if (t.getKey() != null && !t.getKey().isEmpty() && !t.getKey().equals(taint.getKey())) {
            return false;
        }
        String op = t.getOperator() == null ? "" : t.getOperator();
        return switch (op) {
            case "", "Equal" -> nz(t.getValue()).equals(nz(taint.getValue()));
            case "Exists" -> true;
            default -> false;
        };
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    // Phase: devices in use. Exclusive marks are per claim, so admin access can skip devices of other claims while
    // still never taking one device twice within its own claim.
    private boolean inUse(int pos) {
        return persistedExclusive(pos) || allocating(pos);
    }

    private boolean allocating(int pos) {
        BitSet claims = allocatingClaims[pos];
        return claims != null && !claims.isEmpty();
    }

    private boolean isAllocatingForClaim(int pos, int claim) {
        BitSet claims = allocatingClaims[pos];
        return claims != null && claims.get(claim);
    }

    private void markAllocating(int pos, int claim) {
        BitSet claims = allocatingClaims[pos];
        if (claims == null) {
            claims = new BitSet();
            allocatingClaims[pos] = claims;
        }
        claims.set(claim);
        Bits.set(allocatingAny, pos);
        Bits.set(heldByClaim[claim], pos);
    }

    private void unmarkAllocating(int pos, int claim) {
        BitSet claims = allocatingClaims[pos];
        claims.clear(claim);
        Bits.clear(heldByClaim[claim], pos);
        if (claims.isEmpty()) {
            Bits.clear(allocatingAny, pos);
        }
    }

    private boolean capacityInUse(int pos) {
        return persistedCapacity(pos) != null
                || persistedShare(pos)
                || allocatingCapacity.containsKey(candidates[pos].id);
    }

    /** What a pool's counter sets still offer after earlier allocations (for explanations). */
    Map<String, Map<String, BigDecimal>> availableCounters(Pool pool) {
        return Counters.available(view, pool);
    }
}
