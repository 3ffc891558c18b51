package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decision-preserving bounds of one allocation call (not in upstream): each one only cuts a subtree in which the
 * search could not find a solution, and never one in which it would report an error, so the first solution and every
 * error stay upstream's.
 */
final class PruningBounds {
    private final Search search;
    private final EngineFeatures f;
    private final int words;
    /** Per claim, the static part of the pigeonhole bound for each request; computed on first use. */
    private final RemainingDemand[][] remainingDemand;
    /** Static part of the pigeonhole bound for the requests q.. of claim c; demand 0 means "no bound". */
    private record RemainingDemand(int demand, long[] usable) {}

    private static final RemainingDemand NO_DEMAND = new RemainingDemand(0, new long[0]);

    /** Per claim, constraint and request, the static part of the distinct-values bound; computed on first use. */
    private final DistinctSupply[][][] distinctSupply;

    /**
     * Static part of the distinct-values bound for the requests q.. of claim c and one distinctAttribute constraint:
     * how many devices the covered requests need at least, and the values their usable devices offer.
     */
    private record DistinctSupply(int demand, Set<String> values) {}

    private static final DistinctSupply NO_BOUND = new DistinctSupply(0, Set.of());

    /**
     * Per claim and constraint, for each request q, the static part of the support bound over the requests after
     * q (null where the bound is off); computed on first use.
     */
    private final MatchSupply[][][] matchSupply;

    /** How many devices the covered requests after some request need at least, and where they may come from. */
    private record MatchSupply(int demand, long[] supply) {}

    /**
     * Per claim, for each request q (and one past the last): the most results requests q.. can add, each with its
     * largest alternative, capped above the 32-results limit; computed on first use.
     */
    private final int[][] mostResults;

    /** Per claim and request, {@link #mayCut}; computed on first use. */
    private final boolean[][] mayCut;

    /** What {@link #probe} finds out about a device for a request without searching. */
    enum Probe {
        NEVER,
        MAYBE,
        FAILS
    }

    /**
     * {@link #probe} over every candidate for requests that probe alike: the positions that may serve, those whose
     * checks fail, and (on first use) the number of usable positions from each position on.
     */
    static final class ProbeRow {
        final long[] usable;
        final long[] fails;
        final int lastFail;
        /** Per position p, how many usable positions lie at p or after (unbounded up to the last failing one). */
        final int[] suffix;

        ProbeRow(long[] usable, long[] fails, int lastFail, int positions) {
            this.usable = usable;
            this.fails = fails;
            this.lastFail = lastFail;
            this.suffix = new int[positions + 1];
            for (int p = positions - 1; p >= 0; p--) {
                suffix[p] = suffix[p + 1] + (Bits.get(usable, p) ? 1 : 0);
            }
            for (int p = 0; p <= lastFail; p++) {
                suffix[p] = Integer.MAX_VALUE;
            }
        }
    }

    /**
     * What a probe depends on besides the device and what earlier allocations hold: the selection key (class and
     * request selector expressions, see {@link Search#selectionKey}), admin access, capacity requests.
     */
    record ProbeKey(List<Object> selection, boolean adminAccess, Map<String, KubeQuantity> capacity) {}

    private final Map<ProbeKey, ProbeRow> rows = new HashMap<>();
    private final ProbeRow[] rowBySlot;
    /** Positions of multi-allocatable devices under DRAConsumableCapacity (null when the gate is off). */
    private long[] multi;

    PruningBounds(Search search) {
        this.search = search;
        this.f = search.f;
        this.words = Bits.words(search.candidates().length);
        this.rowBySlot = new ProbeRow[search.slots];
        this.remainingDemand = new RemainingDemand[search.claims.size()][];
        this.distinctSupply = new DistinctSupply[search.claims.size()][][];
        this.matchSupply = new MatchSupply[search.claims.size()][][];
        this.mostResults = new int[search.claims.size()][];
        this.mayCut = new boolean[search.claims.size()][];
    }

    // Phase: pruning by counting. A slot that needs n more devices fails when fewer than n candidates from its
    // start position are selectable and not taken by earlier allocations: the search would try each of them and
    // fail. The count is an upper bound computed once per probe row; positions whose selectors or capacity
    // computation fail are never pruned past, so every error upstream would report is still reported.
    int usableBound(RequestData rd, int from) {
        return row(rd).suffix[from];
    }

    /** Whether the selectors or capacity computation of this request fail on some candidate. */
    boolean mayFail(RequestData rd) {
        return row(rd).lastFail >= 0;
    }

    // Phase: pruning by pigeonhole. The requests from q to the end of claim c need at least `demand` distinct
    // devices, each from its own usable set; when the union of those sets, minus devices this call already took, is
    // smaller, no combination exists. Admin-access requests are left out (they may use taken devices), shared
    // devices disable the bound (one device can serve several requests), and so do any device whose selectors
    // or capacity computation fail and any All request under a constraint, so that the search still reaches and
    // reports those errors as upstream does. The sums for every q are computed once, from the last request back.
    boolean cannotFitRemainingRequests(int c, int q) {
        RemainingDemand[] perRequest = remainingDemand[c];
        if (perRequest == null) {
            perRequest = remainingDemands(c);
            remainingDemand[c] = perRequest;
        }
        RemainingDemand rem = perRequest[q];
        return rem.demand != 0 && Bits.countAndNot(rem.usable, search.allocatingAny()) < rem.demand;
    }

    private RemainingDemand[] remainingDemands(int c) {
        RequestData[][] requests = search.requests[c];
        RemainingDemand[] out = new RemainingDemand[requests.length];
        Arrays.fill(out, NO_DEMAND);
        boolean constrained = !search.constraints(c).isEmpty();
        int demand = 0;
        long[] usable = new long[words];
        for (int qi = requests.length - 1; qi >= 0; qi--) {
            RequestData[] alternatives = requests[qi];
            int min = Integer.MAX_VALUE;
            long[] mine = new long[words];
            for (RequestData rd : alternatives) {
                if (rd.allMode() && constrained) {
                    // An All device that breaks a constraint is an error, which the search must reach first.
                    return out;
                }
                min = Math.min(min, rd.numDevices);
                ProbeRow row = row(rd);
                if (rd.allMode()) {
                    for (int pos : rd.allDevicePositions) {
                        if (Bits.get(row.fails, pos)) {
                            return out;
                        }
                        if (Bits.get(row.usable, pos)) {
                            Bits.set(mine, pos);
                        }
                    }
                } else {
                    if (row.lastFail >= 0) {
                        return out;
                    }
                    for (int w = 0; w < words; w++) {
                        mine[w] |= row.usable[w];
                    }
                }
                if (sharesDevices(mine)) {
                    return out;
                }
            }
            if (!alternatives[0].adminAccess) {
                demand += min;
                for (int w = 0; w < words; w++) {
                    usable[w] |= mine[w];
                }
            }
            out[qi] = new RemainingDemand(demand, usable.clone());
        }
        return out;
    }

    /** Whether some of the positions hold a device that may be allocated several times (DRAConsumableCapacity). */
    private boolean sharesDevices(long[] positions) {
        if (!f.consumableCapacity()) {
            return false;
        }
        if (multi == null) {
            multi = new long[words];
            DeviceInfo[] candidates = search.candidates();
            for (int pos = 0; pos < candidates.length; pos++) {
                if (candidates[pos].allowMultipleAllocations) {
                    Bits.set(multi, pos);
                }
            }
        }
        for (int w = 0; w < words; w++) {
            if ((positions[w] & multi[w]) != 0) {
                return true;
            }
        }
        return false;
    }

    // Phase: the 32-results limit. Upstream signals "max size exceeded" when a request needs more results than the
    // claim has room for; the signal makes every device loop of the claim's earlier requests stop at once, and only
    // the claim's end turns it into "not found". A bound that answers "not found" for a subtree in which the signal
    // could arise would let those loops go on to candidates (and errors) upstream never reaches, so the bounds apply
    // only where the requests q.. of claim c cannot reach the limit, or where the subtree is a whole claim (q = 0,
    // whose caller turns the signal into "not found" anyway).
    boolean mayExceedResults(int c, int q, int held) {
        int[] most = mostResults[c];
        if (most == null) {
            RequestData[][] requests = search.requests[c];
            most = new int[requests.length + 1];
            for (int qi = requests.length - 1; qi >= 0; qi--) {
                int max = 0;
                for (RequestData rd : requests[qi]) {
                    max = Math.max(max, rd.numDevices);
                }
                most[qi] = (int) Math.min(Search.MAX_RESULTS + 1L, (long) most[qi + 1] + max);
            }
            mostResults[c] = most;
        }
        return held + most[q] > Search.MAX_RESULTS;
    }

    /** Whether the request-entry bounds (pigeonhole and distinct values) may cut the subtree of request q. */
    boolean entryBoundsApply(int c, int q) {
        return (q == 0 || !mayExceedResults(c, q, search.results[c].size())) && mayCut(c, q);
    }

    /**
     * Whether a bound over the requests from q on can cut more than the search's own scan would: when they need at
     * most one device and have no subrequests or All requests, a bound that finds no usable device says what the scan
     * of the candidates finds at the same cost (it rejects each without a step), so probing every candidate of the
     * node for it is wasted, above all on a fresh cluster state where no probe row is shared yet.
     */
    private boolean mayCut(int c, int q) {
        boolean[] perRequest = mayCut[c];
        if (perRequest == null) {
            RequestData[][] requests = search.requests[c];
            perRequest = new boolean[requests.length];
            int demand = 0;
            boolean complex = false;
            for (int qi = requests.length - 1; qi >= 0; qi--) {
                RequestData[] alternatives = requests[qi];
                RequestData rd = alternatives[0];
                complex |= alternatives.length > 1 || rd.parentName != null || rd.allMode();
                if (!rd.adminAccess) {
                    demand += rd.numDevices;
                }
                perRequest[qi] = complex || demand > 1;
            }
            mayCut[c] = perRequest;
        }
        return perRequest[q];
    }

    // Phase: pruning by support (list-type matchAttribute). Once a device of the claim joined the constraint, the
    // values every later device must share lie in the current intersection, so some value of it must be carried by
    // as many devices as the covered requests still need: usable for them, and not already in the claim (a claim
    // never takes one device twice unless it is shared, which turns the bound off). When no value is, the subtree
    // holds no solution. It never hides an error or a changed control flow: off when a remaining request has a
    // failing selector or capacity computation, is an All request, or when the claim could reach the 32-results
    // limit (whose signal stops sibling candidates even of the claim's first request).
    boolean supportApplies(int c) {
        return !mayExceedResults(c, 0, 0);
    }

    /**
     * Whether, after the device at pos joined for rd (request q of claim c), with `remaining` devices of rd still to
     * pick, some list-type matchAttribute constraint of the claim can no longer be met by any choice below.
     */
    boolean unsupported(int c, int q, RequestData rd, int remaining, int pos) {
        List<Constraint> cons = search.constraints(c);
        ProbeRow own = remaining > 0 ? row(rd) : null;
        if (own != null && own.lastFail >= 0) {
            return false;
        }
        long[] held = search.heldByClaim(c);
        for (int i = 0; i < cons.size(); i++) {
            if (!(cons.get(i) instanceof Constraint.Match m) || !m.setSemantics) {
                continue;
            }
            int[] current = m.intersection();
            if (current == null) {
                continue;
            }
            MatchSupply after = matchSupply(c, i, m)[q];
            if (after == null) {
                continue;
            }
            boolean covers = own != null && m.appliesTo(rd);
            if (covers && sharesDevices(own.usable)) {
                continue;
            }
            int demand = after.demand + (covers ? remaining : 0);
            if (demand == 0) {
                continue;
            }
            ValueIndex index = m.index();
            if (m.appliesTo(rd) && index.maxCarriers(pos) - 1 < demand) {
                // The intersection lies within the values of the device just added, which is held by the claim.
                return true;
            }
            boolean supported = false;
            for (int v : current) {
                long[] with = index.positionsWith(v);
                int n = 0;
                for (int w = 0; w < with.length; w++) {
                    long supply = covers ? after.supply[w] | own.usable[w] : after.supply[w];
                    n += Long.bitCount(with[w] & supply & ~held[w]);
                }
                if (n >= demand) {
                    supported = true;
                    break;
                }
            }
            if (!supported) {
                return true;
            }
        }
        return false;
    }

    private MatchSupply[] matchSupply(int c, int i, Constraint.Match m) {
        MatchSupply[][] perConstraint = matchSupply[c];
        if (perConstraint == null) {
            perConstraint = new MatchSupply[search.constraints(c).size()][];
            matchSupply[c] = perConstraint;
        }
        MatchSupply[] perRequest = perConstraint[i];
        if (perRequest == null) {
            perRequest = matchSupplies(c, m);
            perConstraint[i] = perRequest;
        }
        return perRequest;
    }

    /** For each request q of claim c, the support the requests after q offer, summed from the last request back. */
    private MatchSupply[] matchSupplies(int c, Constraint.Match m) {
        RequestData[][] requests = search.requests[c];
        MatchSupply[] out = new MatchSupply[requests.length];
        MatchSupply from = new MatchSupply(0, new long[words]);
        for (int qi = requests.length - 1; qi >= 0; qi--) {
            out[qi] = from;
            int min = Integer.MAX_VALUE;
            long[] supply = from.supply.clone();
            for (RequestData rd : requests[qi]) {
                ProbeRow row = rd.allMode() ? null : row(rd);
                if (row == null || row.lastFail >= 0) {
                    return out;
                }
                if (!m.appliesTo(rd)) {
                    min = 0;
                    continue;
                }
                if (sharesDevices(row.usable)) {
                    return out;
                }
                min = Math.min(min, rd.numDevices);
                for (int w = 0; w < words; w++) {
                    supply[w] |= row.usable[w];
                }
            }
            from = new MatchSupply(from.demand + min, supply);
        }
        return out;
    }

    // Phase: pruning by distinct values. Under a distinctAttribute constraint (scalar values), the covered requests
    // from q to the end of claim c need at least `demand` devices with pairwise different values, none of them a
    // value the claim's earlier devices already took. When their usable devices offer fewer such values, no
    // combination exists. As for the pigeonhole bound, any failing selector or capacity computation among the
    // remaining requests, multi-allocatable devices, All requests and values that are not plain scalars disable it.
    // The supplies for every q are computed once, from the last request back.
    boolean cannotMeetDistinctValues(int c, int q) {
        List<Constraint> cons = search.constraints(c);
        for (int i = 0; i < cons.size(); i++) {
            if (!(cons.get(i) instanceof Constraint.Distinct d) || d.setSemantics) {
                continue;
            }
            DistinctSupply[][] perConstraint = distinctSupply[c];
            if (perConstraint == null) {
                perConstraint = new DistinctSupply[cons.size()][];
                distinctSupply[c] = perConstraint;
            }
            DistinctSupply[] perRequest = perConstraint[i];
            if (perRequest == null) {
                perRequest = distinctSupplies(c, d);
                perConstraint[i] = perRequest;
            }
            DistinctSupply supply = perRequest[q];
            if (supply.demand == 0) {
                continue;
            }
            List<String> used = d.usedKeys();
            if (used == null) {
                continue;
            }
            int free = supply.values.size();
            for (String key : used) {
                if (supply.values.contains(key)) {
                    free--;
                }
            }
            if (free < supply.demand) {
                return true;
            }
        }
        return false;
    }

    /** For each request q of claim c, the distinct-values supply of the requests q.. (NO_BOUND where it is off). */
    private DistinctSupply[] distinctSupplies(int c, Constraint.Distinct d) {
        int demand = 0;
        Set<String> values = new HashSet<>();
        RequestData[][] requests = search.requests[c];
        DistinctSupply[] out = new DistinctSupply[requests.length];
        Arrays.fill(out, NO_BOUND);
        DeviceInfo[] candidates = search.candidates();
        for (int qi = requests.length - 1; qi >= 0; qi--) {
            RequestData[] alternatives = requests[qi];
            boolean covered = true;
            int min = Integer.MAX_VALUE;
            for (RequestData rd : alternatives) {
                if (rd.allMode()) {
                    return out;
                }
                covered &= d.appliesTo(rd);
                min = Math.min(min, rd.numDevices);
                ProbeRow row = row(rd);
                for (int pos = 0; pos < candidates.length; pos++) {
                    Probe probe = Bits.get(row.fails, pos)
                            ? Probe.FAILS
                            : Bits.get(row.usable, pos) ? Probe.MAYBE : Probe.NEVER;
                    switch (probe) {
                        case FAILS -> {
                            return out;
                        }
                        case MAYBE -> {
                            DeviceInfo device = candidates[pos];
                            if (f.consumableCapacity() && device.allowMultipleAllocations) {
                                return out;
                            }
                            if (!d.appliesTo(rd)) {
                                continue;
                            }
                            DeviceAttribute a = d.column[pos];
                            if (a == null) {
                                continue;
                            }
                            String key = Constraint.scalarKey(a);
                            if (key == null) {
                                return out;
                            }
                            values.add(key);
                        }
                        default -> {}
                    }
                }
            }
            if (covered) {
                demand += min;
            }
            out[qi] = new DistinctSupply(demand, Set.copyOf(values));
        }
        return out;
    }

    /**
     * The probe row of a request, shared with every request that probes alike: within the call, and across the
     * searches on the node view while what earlier allocations hold is unchanged (a row depends only on the
     * devices, the key and that). A request whose selectors are incomplete probes for this call alone.
     */
    private ProbeRow row(RequestData rd) {
        ProbeRow row = rowBySlot[rd.slot];
        if (row == null) {
            List<Object> selection = search.selectionKey(rd);
            ProbeKey key = new ProbeKey(
                    selection == Search.INCOMPLETE ? List.of(rd) : selection,
                    rd.adminAccess,
                    f.consumableCapacity() ? rd.capacityRequests : null);
            Map<ProbeKey, ProbeRow> shared = selection == Search.INCOMPLETE ? null : search.sharedProbeRows();
            shared = shared == null ? rows : shared;
            row = shared.get(key);
            if (row == null) {
                int n = search.candidates().length;
                long[] usable = new long[words];
                long[] fails = new long[words];
                int lastFail = -1;
                for (int pos = 0; pos < n; pos++) {
                    switch (probe(rd, pos)) {
                        case MAYBE -> Bits.set(usable, pos);
                        case FAILS -> {
                            Bits.set(fails, pos);
                            lastFail = pos;
                        }
                        default -> {}
                    }
                }
                row = new ProbeRow(usable, fails, lastFail, n);
                ProbeRow raced = shared.putIfAbsent(key, row);
                row = raced == null ? row : raced;
            }
            rowBySlot[rd.slot] = row;
        }
        return row;
    }

    /** Whether the device at a candidate position may serve the request, never can, or fails to be evaluated. */
    private Probe probe(RequestData rd, int pos) {
        if (!rd.adminAccess && search.persistedExclusive(pos)) {
            return Probe.NEVER;
        }
        try {
            if (!search.isSelectable(rd, pos)) {
                return Probe.NEVER;
            }
        } catch (AllocationException e) {
            return Probe.FAILS;
        }
        if (f.consumableCapacity()) {
            // Without any earlier consumption this is the most a device can offer; the consumed amounts are the
            // same computation the search repeats, so its errors show up here too.
            try {
                if (!search.staticCapacityFits(rd, search.candidates()[pos])) {
                    return Probe.NEVER;
                }
            } catch (ConsumableCapacity.CapacityException e) {
                return Probe.FAILS;
            }
        }
        return Probe.MAYBE;
    }
}
