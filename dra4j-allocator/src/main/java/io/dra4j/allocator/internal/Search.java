package io.dra4j.allocator.internal;

import io.dra4j.allocator.DeviceId;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.EvalResult;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
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
 * Single-threaded; one instance per call.
 *
 * <p>This class is long because the search, its per-call bookkeeping (devices in use, counters, capacity,
 * constraints) and its undo log only make sense together; splitting them would spread one invariant over several
 * files.
 */
public final class Search {
    static final int NOT_FOUND = 0;
    static final int FOUND = 1;
    /** Upstream's "allocation max size exceeded" signal: more than 32 results would be needed for a claim. */
    static final int MAX_EXCEEDED = 2;
    static final int MAX_RESULTS = 32;

    final ClusterView view;
    final EngineFeatures f;
    final Node node;
    final String nodeName;
    final List<ResourceClaim> claims;
    private final Supplier<String> shareIds;
    private final long deadlineNanos;

    List<Pool> pools;
    /** Candidates of usable pools in enumeration order, and the pool of each. */
    private DeviceInfo[] candidates;
    private Pool[] candidatePools;
    /** Per claim, per request: the request (length 1) or its subrequests. */
    RequestData[][][] requests;
    int[][] selectedSub;
    private List<Constraint>[] constraints;
    final List<DeviceResult>[] results;

    private final Map<Long, Boolean> selectable = new HashMap<>();
    private final Map<Integer, int[]> usableSuffix = new HashMap<>();
    /** Per device (by index): the claims of this call that hold it exclusively. */
    private final BitSet[] allocatingClaims;
    /** Devices (by index) that some claim of this call holds exclusively. */
    private final BitSet allocatingAny = new BitSet();
    private RemainingDemand[][] remainingDemand;
    private final Map<DeviceId, Map<String, BigDecimal>> allocatingCapacity = new HashMap<>();
    private final Map<SliceInfo.PoolId, Map<String, Map<String, BigDecimal>>> consumedCounters = new HashMap<>();
    long steps;

    /** One allocated device, as the search recorded it. */
    record DeviceResult(RequestData request, DeviceInfo device, String shareId, Map<String, KubeQuantity> consumedCapacity) {
    }

    @FunctionalInterface
    interface Undo {
        void undo();
    }

    @SuppressWarnings("unchecked")
    public Search(ClusterView view, Node node, List<ResourceClaim> claims, Supplier<String> shareIds, long deadlineNanos) {
        this.view = view;
        this.f = view.features;
        this.node = node;
        this.nodeName = node.getMetadata() == null ? null : node.getMetadata().getName();
        this.claims = claims;
        this.shareIds = shareIds;
        this.deadlineNanos = deadlineNanos;
        this.allocatingClaims = new BitSet[view.deviceCount];
        this.results = new List[claims.size()];
        this.constraints = new List[claims.size()];
        for (int i = 0; i < claims.size(); i++) {
            results[i] = new ArrayList<>();
        }
    }

    /** Runs the whole allocation; true when every claim got devices. */
    public boolean run() throws AllocationException {
        prepareAll();
        int r = allocateOne(0, 0, 0, 0, false, 0);
        if (r == FOUND) {
            return true;
        }
        for (Pool pool : pools) {
            if (pool.invalid()) {
                throw new AllocationException("invalid resource pools were encountered", true);
            }
        }
        return false;
    }

    /** Gathers pools, validates the requests and lists the candidates, as the search does before its first step. */
    void prepareAll() throws AllocationException {
        pools = PoolGatherer.gather(view, node);
        prepare();
        List<DeviceInfo> c = new ArrayList<>();
        List<Pool> p = new ArrayList<>();
        for (Pool pool : pools) {
            if (!pool.usable()) {
                continue;
            }
            for (SliceInfo s : pool.targeting()) {
                for (DeviceInfo d : s.devices()) {
                    c.add(d);
                    p.add(pool);
                }
            }
        }
        candidates = c.toArray(new DeviceInfo[0]);
        candidatePools = p.toArray(new Pool[0]);
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

    public long steps() {
        return steps;
    }

    static String claimRef(ResourceClaim claim) {
        String ns = claim.getMetadata() == null ? null : claim.getMetadata().getNamespace();
        String name = claim.getMetadata() == null ? "" : claim.getMetadata().getName();
        return ns == null || ns.isEmpty() ? name : ns + "/" + name;
    }

    // Phase: pre-pass. Validates every request and subrequest, fixes the device lists of All requests, enforces the
    // per-claim limit of 32 results with each request's minimum, and builds the claims' constraints. Upstream does
    // all of this before searching, so its errors win over any search outcome.
    @SuppressWarnings("unchecked")
    private void prepare() throws AllocationException {
        requests = new RequestData[claims.size()][][];
        selectedSub = new int[claims.size()][];
        remainingDemand = new RemainingDemand[claims.size()][];
        int slot = 0;
        for (int ci = 0; ci < claims.size(); ci++) {
            ResourceClaim claim = claims.get(ci);
            String ref = claimRef(claim);
            List<DeviceRequest> reqs = claim.getSpec() == null || claim.getSpec().getDevices() == null
                    || claim.getSpec().getDevices().getRequests() == null
                    ? List.of() : claim.getSpec().getDevices().getRequests();
            requests[ci] = new RequestData[reqs.size()][];
            selectedSub[ci] = new int[reqs.size()];
            remainingDemand[ci] = new RemainingDemand[reqs.size()];
            int minPerClaim = 0;
            for (int qi = 0; qi < reqs.size(); qi++) {
                DeviceRequest request = reqs.get(qi);
                String where = "claim " + ref + ", request " + request.getName();
                List<DeviceSubRequest> subs = request.getFirstAvailable() == null ? List.of() : request.getFirstAvailable();
                boolean hasSubs = !subs.isEmpty();
                if (!f.prioritizedList() && hasSubs) {
                    throw new AllocationException(where + ": has subrequests, but the DRAPrioritizedList feature is disabled");
                }
                if (!f.consumableCapacity() && !f.stable()) {
                    if (request.getExactly() != null && request.getExactly().getCapacity() != null) {
                        throw new AllocationException(where + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
                    }
                    for (DeviceSubRequest sub : subs) {
                        if (sub.getCapacity() != null) {
                            throw new AllocationException("claim " + ref + ", subrequest " + sub.getName()
                                    + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
                        }
                    }
                }
                int minPerRequest;
                if (hasSubs) {
                    requests[ci][qi] = new RequestData[subs.size()];
                    minPerRequest = Integer.MAX_VALUE;
                    for (int si = 0; si < subs.size(); si++) {
                        RequestData rd = RequestData.sub(ci, qi, si, slot++, request.getName(), subs.get(si),
                                "claim " + ref + ", request " + request.getName() + "/" + subs.get(si).getName());
                        validate(rd, claim);
                        requests[ci][qi][si] = rd;
                        minPerRequest = Math.min(minPerRequest, rd.numDevices);
                    }
                } else {
                    if (request.getExactly() == null) {
                        throw new AllocationException(where + ": unknown request type (neither exactly nor firstAvailable is set)");
                    }
                    RequestData rd = RequestData.exact(ci, qi, slot++, request.getName(), request.getExactly(), where);
                    validate(rd, claim);
                    requests[ci][qi] = new RequestData[]{rd};
                    minPerRequest = rd.numDevices;
                }
                if (minPerRequest > MAX_RESULTS - minPerClaim) {
                    throw new AllocationException(where + ": adding " + minPerRequest + " devices exceeds the claim limit of "
                            + MAX_RESULTS + ", with " + minPerClaim + " already accounted for");
                }
                minPerClaim += minPerRequest;
            }
            List<DeviceConstraint> cons = claim.getSpec() == null || claim.getSpec().getDevices() == null
                    || claim.getSpec().getDevices().getConstraints() == null
                    ? List.of() : claim.getSpec().getDevices().getConstraints();
            List<Constraint> built = new ArrayList<>(cons.size());
            for (int i = 0; i < cons.size(); i++) {
                DeviceConstraint c = cons.get(i);
                if (c.getMatchAttribute() != null) {
                    built.add(new Constraint.Match(c.getRequests(), c.getMatchAttribute(), f.listTypeAttributes()));
                } else if (c.getDistinctAttribute() != null && !f.stable()) {
                    built.add(new Constraint.Distinct(c.getRequests(), c.getDistinctAttribute(), f.listTypeAttributes()));
                } else {
                    throw new AllocationException("claim " + ref + ", constraint #" + i + ": empty constraint (unsupported constraint type?)");
                }
            }
            constraints[ci] = built;
        }
    }

    private void validate(RequestData rd, ResourceClaim claim) throws AllocationException {
        String where = "claim " + claimRef(claim) + ", request " + rd.name;
        if (!rd.derivedAttributes.isEmpty()) {
            throw new AllocationException(where + (f.derivedAttributes()
                    ? ": derived attributes (DRADerivedAttributes, alpha) are not implemented by dra4j"
                    : ": cannot handle request with derived attributes, the feature is disabled"));
        }
        for (int i = 0; i < rd.selectors.size(); i++) {
            DeviceSelector s = rd.selectors.get(i);
            if (s == null || s.getCel() == null) {
                throw new AllocationException(where + ", selector #" + i + ": CEL expression empty (unsupported selector type?)");
            }
        }
        if (!f.adminAccess() && rd.adminAccessSet) {
            throw new AllocationException(where + ": admin access is requested, but the feature is disabled");
        }
        if (rd.className.isEmpty()) {
            throw new AllocationException(where + ": missing device class name (unsupported request type?)");
        }
        rd.deviceClass = view.classes.get(rd.className);
        if (rd.deviceClass == null) {
            throw new AllocationException(where + ": could not retrieve device class " + rd.className
                    + ": deviceclass.resource.k8s.io \"" + rd.className + "\" not found");
        }
        switch (rd.mode) {
            case RequestData.EXACT_COUNT -> rd.numDevices = (int) Math.min(Integer.MAX_VALUE, rd.count);
            case RequestData.ALL -> enumerateAll(rd, where);
            default -> throw new AllocationException(where + ": unsupported count mode " + rd.mode);
        }
    }

    // All-mode requests get their device list once, before the search: every selectable device of every complete,
    // valid pool that passes the capacity check against the persisted state only.
    private void enumerateAll(RequestData rd, String where) throws AllocationException {
        List<DeviceInfo> all = new ArrayList<>();
        List<Pool> allPools = new ArrayList<>();
        for (Pool pool : pools) {
            if (pool.incomplete()) {
                throw new AllocationException(where + ": asks for all devices, but resource pool " + pool.id() + " is currently being updated");
            }
            if (pool.invalid()) {
                throw new AllocationException(where + ": asks for all devices, but resource pool " + pool.id() + " is currently invalid");
            }
            for (SliceInfo s : pool.targeting()) {
                for (DeviceInfo d : s.devices()) {
                    if (!isSelectable(rd, d)) {
                        continue;
                    }
                    if (f.consumableCapacity()) {
                        try {
                            if (!ConsumableCapacity.fits(null, rd.capacityRequests, d, null, f.fractionalCapacityRange())) {
                                continue;
                            }
                        } catch (ConsumableCapacity.CapacityException e) {
                            throw new AllocationException(where + ": checking capacity for device " + d.name + ": " + e.getMessage());
                        }
                    }
                    all.add(d);
                    allPools.add(pool);
                }
            }
        }
        rd.allDevices = all;
        rd.allDevicePools = allPools;
        rd.numDevices = all.size();
    }

    // Phase: the search. Mirrors upstream's allocateOne step by step, including how "max size exceeded" travels:
    // it moves on to the next subrequest, stops the candidates of one slot, and becomes "not found" at claim level.
    private int allocateOne(int c, int q, int s, int k, boolean inSubRequest, int start) throws AllocationException {
        steps++;
        if (deadlineNanos != 0 && (steps & 0xff) == 0 && System.nanoTime() > deadlineNanos) {
            throw new AllocationException("filter operation aborted: context deadline exceeded", true);
        }
        if (c >= claims.size()) {
            return FOUND;
        }
        if (q >= requests[c].length) {
            int r = allocateOne(c + 1, 0, 0, 0, false, 0);
            return r == MAX_EXCEEDED ? NOT_FOUND : r;
        }
        RequestData[] alternatives = requests[c][q];
        if (k == 0 && !inSubRequest && cannotFitRemainingRequests(c, q)) {
            return NOT_FOUND;
        }
        if (!inSubRequest && alternatives[0].parentName != null) {
            boolean allExceeded = true;
            for (int si = 0; si < alternatives.length; si++) {
                int r = allocateOne(c, q, si, k, true, 0);
                if (r == MAX_EXCEEDED) {
                    continue;
                }
                allExceeded = false;
                if (r == FOUND) {
                    selectedSub[c][q] = si;
                    return FOUND;
                }
            }
            return allExceeded ? MAX_EXCEEDED : NOT_FOUND;
        }
        RequestData rd = alternatives[s];
        boolean all = rd.allMode();
        if (all && rd.allDevices.isEmpty()) {
            return NOT_FOUND;
        }
        if (k >= rd.numDevices) {
            return allocateOne(c, q + 1, 0, 0, false, 0);
        }
        if (rd.numDevices - k > MAX_RESULTS - results[c].size()) {
            return MAX_EXCEEDED;
        }
        if (all) {
            Undo undo = allocateDevice(c, rd, rd.allDevices.get(k), rd.allDevicePools.get(k), true);
            if (undo == null) {
                return NOT_FOUND;
            }
            int r = allocateOne(c, q, s, k + 1, inSubRequest, 0);
            if (r != FOUND) {
                undo.undo();
            }
            return r;
        }
        int from = f.stable() ? 0 : start;
        if (rd.numDevices - k > usableBound(rd, from)) {
            return NOT_FOUND;
        }
        int[] failedClasses = null;
        int failed = 0;
        for (int pos = from; pos < candidates.length; pos++) {
            DeviceInfo d = candidates[pos];
            if (rd.adminAccess ? isAllocatingForClaim(d, c) : inUse(d)) {
                continue;
            }
            boolean untouched = untouched(d);
            if (untouched && failed > 0 && contains(failedClasses, failed, view.symmetryClass(d))) {
                continue;
            }
            if (!isSelectable(rd, d)) {
                continue;
            }
            if (f.consumableCapacity()) {
                try {
                    if (!capacityFits(rd, d)) {
                        continue;
                    }
                } catch (ConsumableCapacity.CapacityException e) {
                    throw new AllocationException("claim " + claimRef(claims.get(c)) + ", request " + rd.name
                            + ": checking capacity for device " + d.id + ": " + e.getMessage());
                }
            }
            Undo undo = allocateDevice(c, rd, d, candidatePools[pos], false);
            if (undo == null) {
                continue;
            }
            int r = allocateOne(c, q, s, k + 1, inSubRequest, pos + 1);
            if (r == FOUND) {
                return FOUND;
            }
            undo.undo();
            if (r == MAX_EXCEEDED) {
                return MAX_EXCEEDED;
            }
            if (untouched) {
                if (failedClasses == null) {
                    failedClasses = new int[4];
                } else if (failed == failedClasses.length) {
                    failedClasses = java.util.Arrays.copyOf(failedClasses, failed * 2);
                }
                failedClasses[failed++] = view.symmetryClass(d);
            }
        }
        return NOT_FOUND;
    }

    private static boolean contains(int[] values, int n, int v) {
        for (int i = 0; i < n; i++) {
            if (values[i] == v) {
                return true;
            }
        }
        return false;
    }

    /** No claim of this call holds the device or a share of it, so it differs from its twins only by name. */
    private boolean untouched(DeviceInfo d) {
        return !allocating(d) && !allocatingCapacity.containsKey(d.id);
    }

    // Phase: pruning by counting. A slot that needs n more devices fails when fewer than n candidates from its
    // start position are selectable and not taken by earlier allocations: the search would try each of them and
    // fail. The count is an upper bound computed once per request; positions whose selectors or capacity
    // computation fail are never pruned past, so every error upstream would report is still reported.
    private int usableBound(RequestData rd, int from) {
        int[] suffix = usableSuffix.get(rd.slot);
        if (suffix == null) {
            suffix = new int[candidates.length + 1];
            int lastError = -1;
            for (int p = candidates.length - 1; p >= 0; p--) {
                int usable = 0;
                switch (probe(rd, candidates[p])) {
                    case 1 -> usable = 1;
                    case 2 -> lastError = Math.max(lastError, p);
                    default -> { }
                }
                suffix[p] = suffix[p + 1] + usable;
            }
            for (int p = 0; p <= lastError; p++) {
                suffix[p] = Integer.MAX_VALUE;
            }
            usableSuffix.put(rd.slot, suffix);
        }
        return suffix[from];
    }

    /** 1: may be usable by this request, 0: never, 2: evaluating it fails (the search must reach it itself). */
    private int probe(RequestData rd, DeviceInfo d) {
        if (!rd.adminAccess && d.persistedExclusive) {
            return 0;
        }
        try {
            if (!isSelectable(rd, d)) {
                return 0;
            }
        } catch (AllocationException e) {
            return 2;
        }
        if (f.consumableCapacity()) {
            // Without any earlier consumption this is the most a device can offer; the consumed amounts are the
            // same computation the search repeats, so its errors show up here too.
            try {
                if (!ConsumableCapacity.fits(null, rd.capacityRequests, d, null, f.fractionalCapacityRange())) {
                    return 0;
                }
            } catch (ConsumableCapacity.CapacityException e) {
                return 2;
            }
        }
        return 1;
    }

    // Phase: selectability. Class selectors first, then the request's own, then per-device node selection. The
    // CEL results themselves are cached per device across calls; this per-call map only skips the selector loop.
    boolean isSelectable(RequestData rd, DeviceInfo d) throws AllocationException {
        if (!f.bindingAndStatus() && d.hasBindingConditions) {
            return false;
        }
        long key = (long) rd.slot * view.deviceCount + d.index;
        Boolean cached = selectable.get(key);
        if (cached != null) {
            return cached;
        }
        boolean ok = selectorsMatch(rd, d, true) && selectorsMatch(rd, d, false) && perDeviceNodeMatches(d);
        selectable.put(key, ok);
        return ok;
    }

    private boolean selectorsMatch(RequestData rd, DeviceInfo d, boolean classSelectors) throws AllocationException {
        List<DeviceSelector> selectors = classSelectors
                ? rd.classSelectors()
                : rd.selectors;
        for (int i = 0; i < selectors.size(); i++) {
            DeviceSelector sel = selectors.get(i);
            String owner = classSelectors ? "class " + rd.className : "claim " + claimRef(claims.get(rd.claimIndex));
            if (sel == null || sel.getCel() == null) {
                throw new AllocationException(owner + ": selector #" + i + ": CEL expression empty (unsupported selector type?)");
            }
            String text = sel.getCel().getExpression() == null ? "" : sel.getCel().getExpression();
            String driver = d.celViewBuildable ? view.shortcuts.driverEquality(text) : null;
            if (driver != null) {
                if (!driver.equals(d.id.driver())) {
                    return false;
                }
                continue;
            }
            CompiledExpression expr = view.cel.compile(text);
            if (expr.compileError().isPresent()) {
                throw new AllocationException(owner + ": selector #" + i + ": CEL compile error: " + expr.compileError().get());
            }
            EvalResult result = d.evaluate(expr, view.cel);
            if (result instanceof EvalResult.Failed failed) {
                throw new AllocationException(owner + ": selector #" + i + " on device " + d.id + ": CEL runtime error: "
                        + failed.message());
            }
            if (!((EvalResult.Matched) result).value()) {
                return false;
            }
        }
        return true;
    }

    private boolean perDeviceNodeMatches(DeviceInfo d) throws AllocationException {
        if (!Boolean.TRUE.equals(d.slice.perDeviceNodeSelection)) {
            return true;
        }
        try {
            return NodeSelectors.nodeMatches(node, d.device.getNodeName(), Boolean.TRUE.equals(d.device.getAllNodes()),
                    d.device.getNodeSelector());
        } catch (NodeSelectors.InvalidSelectorException e) {
            throw new AllocationException("failed to parse node selector: " + e.getMessage());
        }
    }

    // Phase: tentatively take one device. The checks run in upstream's order (in use, partitionable gate, counters,
    // taints, constraints, capacity), and each step taken is recorded so that the returned undo reverses all of it.
    private Undo allocateDevice(int c, RequestData rd, DeviceInfo d, Pool pool, boolean must) throws AllocationException {
        boolean multi = f.consumableCapacity() && d.allowMultipleAllocations;
        if (!multi && rd.adminAccess && isAllocatingForClaim(d, c)) {
            return null;
        }
        if (!rd.adminAccess && inUse(d)) {
            return null;
        }
        if (f.variant() == EngineFeatures.Variant.EXPERIMENTAL && !d.slice.skipNodeOperations.isEmpty()
                && (!f.optionalNodeOperations() || !nodeDeclares("DRAOptionalNodeOperations"))) {
            return null;
        }
        if (!f.partitionableDevices() && d.consumesCounters()) {
            return null;
        }
        boolean skipCounters = multi && capacityInUse(d);
        boolean countersReserved = false;
        if (!skipCounters && d.consumesCounters()) {
            if (!reserveCounters(d, pool)) {
                return null;
            }
            countersReserved = true;
        }
        UndoLog log = new UndoLog(c, rd, d, pool, countersReserved);
        if (f.deviceTaints() && taintPrevents(d, rd)) {
            log.undo();
            return null;
        }
        for (Constraint con : constraints[c]) {
            if (!con.add(rd, d)) {
                log.undo();
                if (must) {
                    throw new AllocationException("claim " + claimRef(claims.get(c)) + ", request " + rd.name + ": cannot add device "
                            + d.id + " because a claim constraint would not be satisfied");
                }
                return null;
            }
            log.constraintsAdded++;
        }
        if (!multi) {
            markAllocating(d, c);
            log.marked = true;
        }
        String shareId = null;
        Map<String, KubeQuantity> consumed = null;
        if (f.consumableCapacity()) {
            boolean fits;
            try {
                fits = capacityFits(rd, d);
            } catch (ConsumableCapacity.CapacityException e) {
                log.undo();
                throw new AllocationException("claim " + claimRef(claims.get(c)) + ", request " + rd.name
                        + ": rechecking capacity for device " + d.id + ": " + e.getMessage());
            }
            if (!fits) {
                log.undo();
                return null;
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
                Map<String, BigDecimal> entry = allocatingCapacity.computeIfAbsent(d.id, k -> new LinkedHashMap<>());
                consumed.forEach((name, q) -> entry.merge(name, q.value(), BigDecimal::add));
                log.consumed = consumed;
            }
        }
        log.previousResults = results[c].size();
        results[c].add(new DeviceResult(rd, d, shareId, consumed == null || consumed.isEmpty() ? null : consumed));
        log.resultAdded = true;
        return log;
    }

    /** Everything one tentative allocateDevice changed, undone in reverse order. */
    private final class UndoLog implements Undo {
        final int claim;
        final RequestData request;
        final DeviceInfo device;
        final Pool pool;
        final boolean countersReserved;
        int constraintsAdded;
        boolean marked;
        boolean capacityEntryExisted;
        Map<String, KubeQuantity> consumed;
        boolean resultAdded;
        int previousResults;

        UndoLog(int claim, RequestData request, DeviceInfo device, Pool pool, boolean countersReserved) {
            this.claim = claim;
            this.request = request;
            this.device = device;
            this.pool = pool;
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
                unmarkAllocating(device, claim);
            }
            List<Constraint> cons = constraints[claim];
            for (int i = constraintsAdded - 1; i >= 0; i--) {
                cons.get(i).remove(request, device);
            }
            if (countersReserved) {
                releaseCounters(device, pool);
            }
        }
    }

    private boolean nodeDeclares(String feature) {
        return node.getStatus() != null && node.getStatus().getDeclaredFeatures() != null
                && node.getStatus().getDeclaredFeatures().contains(feature);
    }

    boolean capacityFits(RequestData rd, DeviceInfo d) throws ConsumableCapacity.CapacityException {
        return ConsumableCapacity.fits(d.persistedCapacity, rd.capacityRequests, d, allocatingCapacity.get(d.id),
                f.fractionalCapacityRange());
    }

    static boolean taintPrevents(DeviceInfo d, RequestData rd) {
        for (DeviceTaint taint : d.taints) {
            String effect = taint.getEffect();
            if (("NoSchedule".equals(effect) || "NoExecute".equals(effect)) && !tolerated(taint, rd.tolerations)) {
                return true;
            }
        }
        return false;
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
    private boolean inUse(DeviceInfo d) {
        return d.persistedExclusive || allocating(d);
    }

    private boolean allocating(DeviceInfo d) {
        BitSet claims = allocatingClaims[d.index];
        return claims != null && !claims.isEmpty();
    }

    private boolean isAllocatingForClaim(DeviceInfo d, int claim) {
        BitSet claims = allocatingClaims[d.index];
        return claims != null && claims.get(claim);
    }

    private void markAllocating(DeviceInfo d, int claim) {
        BitSet claims = allocatingClaims[d.index];
        if (claims == null) {
            claims = new BitSet();
            allocatingClaims[d.index] = claims;
        }
        claims.set(claim);
        allocatingAny.set(d.index);
    }

    private void unmarkAllocating(DeviceInfo d, int claim) {
        BitSet claims = allocatingClaims[d.index];
        claims.clear(claim);
        if (claims.isEmpty()) {
            allocatingAny.clear(d.index);
        }
    }

    // Phase: pruning by pigeonhole. The requests from q to the end of claim c need at least `demand` distinct
    // devices, each from its own usable set; when the union of those sets, minus devices this call already took, is
    // smaller, no combination exists. Admin-access requests are left out (they may use taken devices), shared
    // devices disable the bound (one device can serve several requests), and so do any device whose selectors
    // or capacity computation fail and any All request under a constraint, so that the search still reaches and
    // reports those errors as upstream does.
    private boolean cannotFitRemainingRequests(int c, int q) {
        RemainingDemand rem = remainingDemand[c][q];
        if (rem == null) {
            rem = remainingDemand(c, q);
            remainingDemand[c][q] = rem;
        }
        if (rem.demand == 0) {
            return false;
        }
        BitSet free = (BitSet) rem.usable.clone();
        free.andNot(allocatingAny);
        return free.cardinality() < rem.demand;
    }

    /** Static part of the pigeonhole bound for the requests q.. of claim c; demand 0 means "no bound". */
    private record RemainingDemand(int demand, BitSet usable) {
    }

    private RemainingDemand remainingDemand(int c, int q) {
        int demand = 0;
        BitSet usable = new BitSet();
        for (int qi = q; qi < requests[c].length; qi++) {
            RequestData[] alternatives = requests[c][qi];
            int min = Integer.MAX_VALUE;
            BitSet mine = new BitSet();
            for (RequestData rd : alternatives) {
                if (rd.allMode() && !constraints[c].isEmpty()) {
                    // An All device that breaks a constraint is an error, which the search must reach first.
                    return new RemainingDemand(0, usable);
                }
                min = Math.min(min, rd.numDevices);
                List<DeviceInfo> devices = rd.allMode() ? rd.allDevices : List.of(candidates);
                for (DeviceInfo d : devices) {
                    switch (probe(rd, d)) {
                        case 1 -> {
                            if (f.consumableCapacity() && d.allowMultipleAllocations) {
                                return new RemainingDemand(0, usable);
                            }
                            mine.set(d.index);
                        }
                        case 2 -> {
                            return new RemainingDemand(0, usable);
                        }
                        default -> { }
                    }
                }
            }
            if (!alternatives[0].adminAccess) {
                demand += min;
                usable.or(mine);
            }
        }
        return new RemainingDemand(demand, usable);
    }

    private boolean capacityInUse(DeviceInfo d) {
        return d.persistedCapacity != null || d.persistedShare || allocatingCapacity.containsKey(d.id);
    }

    // Phase: shared counters. Availability per pool is computed once per allocator from the persisted state; this
    // call's consumption is tracked separately, and a reservation fails when any counter of the pool would go
    // below zero, including counters the device does not consume (upstream checks them all).
    private boolean reserveCounters(DeviceInfo d, Pool pool) {
        Map<String, Map<String, BigDecimal>> available = availableCounters(pool);
        Map<String, Map<String, BigDecimal>> consumed = consumedCounters.computeIfAbsent(pool.id(), id -> new HashMap<>());
        for (DeviceInfo.CounterConsumption cc : d.consumesCounters) {
            Map<String, BigDecimal> set = consumed.computeIfAbsent(cc.counterSet(), k -> new HashMap<>());
            cc.counters().forEach((name, v) -> set.merge(name, v, BigDecimal::add));
        }
        for (Map.Entry<String, Map<String, BigDecimal>> set : available.entrySet()) {
            Map<String, BigDecimal> used = consumed.getOrDefault(set.getKey(), Map.of());
            for (Map.Entry<String, BigDecimal> counter : set.getValue().entrySet()) {
                if (counter.getValue().compareTo(used.getOrDefault(counter.getKey(), BigDecimal.ZERO)) < 0) {
                    releaseCounters(d, pool);
                    return false;
                }
            }
        }
        return true;
    }

    private void releaseCounters(DeviceInfo d, Pool pool) {
        Map<String, Map<String, BigDecimal>> consumed = consumedCounters.get(pool.id());
        for (DeviceInfo.CounterConsumption cc : d.consumesCounters) {
            Map<String, BigDecimal> set = consumed.get(cc.counterSet());
            cc.counters().forEach((name, v) -> set.merge(name, v.negate(), BigDecimal::add));
        }
    }

    /** What a pool's counter sets still offer after earlier allocations; cached per allocator, as upstream. */
    Map<String, Map<String, BigDecimal>> availableCounters(Pool pool) {
        return view.availableCounters.computeIfAbsent(pool.id(), id -> computeAvailableCounters(pool));
    }

    private Map<String, Map<String, BigDecimal>> computeAvailableCounters(Pool pool) {
        Map<String, Map<String, BigDecimal>> available = new HashMap<>();
        pool.counterSets().forEach((name, counters) -> available.put(name, new HashMap<>(counters)));
        for (List<SliceInfo> slices : List.of(pool.targeting(), pool.notTargeting())) {
            for (SliceInfo s : slices) {
                for (DeviceInfo d : s.devices()) {
                    if (!d.persistedInUse()) {
                        continue;
                    }
                    for (DeviceInfo.CounterConsumption cc : d.consumesCounters) {
                        Map<String, BigDecimal> set = available.get(cc.counterSet());
                        if (set == null) {
                            continue;
                        }
                        cc.counters().forEach((name, v) -> set.computeIfPresent(name, (k, old) -> old.subtract(v)));
                    }
                }
            }
        }
        return available;
    }
}
