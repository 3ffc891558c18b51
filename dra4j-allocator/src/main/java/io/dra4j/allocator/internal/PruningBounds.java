package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;

import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decision-preserving bounds of one allocation call (not in upstream): each one only cuts a subtree in which the
 * search could not find a solution, and never one in which it would report an error, so the first solution and every
 * error stay upstream's.
 */
final class PruningBounds {
    private final Search search;
    private final EngineFeatures f;
    /** Per request slot, the suffix counts of {@link #usableBound}; computed on first use. */
    private final int[][] usableSuffix;
    /** Per claim and request, the static part of the pigeonhole bound; computed on first use. */
    private final RemainingDemand[][] remainingDemand;

    /** Static part of the pigeonhole bound for the requests q.. of claim c; demand 0 means "no bound". */
    private record RemainingDemand(int demand, BitSet usable) {
    }

    /** Per claim, request and constraint, the static part of the distinct-values bound; computed on first use. */
    private final DistinctSupply[][][] distinctSupply;

    /**
     * Static part of the distinct-values bound for the requests q.. of claim c and one distinctAttribute constraint:
     * how many devices the covered requests need at least, and the values their usable devices offer.
     */
    private record DistinctSupply(int demand, Set<String> values) {
    }

    private static final DistinctSupply NO_BOUND = new DistinctSupply(0, Set.of());

    /** What {@link #probe} finds out about a device for a request without searching. */
    enum Probe { NEVER, MAYBE, FAILS }

    PruningBounds(Search search) {
        this.search = search;
        this.f = search.f;
        this.usableSuffix = new int[search.slots][];
        this.remainingDemand = new RemainingDemand[search.claims.size()][];
        this.distinctSupply = new DistinctSupply[search.claims.size()][][];
        for (int c = 0; c < remainingDemand.length; c++) {
            remainingDemand[c] = new RemainingDemand[search.requests[c].length];
            distinctSupply[c] = new DistinctSupply[search.requests[c].length][];
        }
    }

    // Phase: pruning by counting. A slot that needs n more devices fails when fewer than n candidates from its
    // start position are selectable and not taken by earlier allocations: the search would try each of them and
    // fail. The count is an upper bound computed once per request; positions whose selectors or capacity
    // computation fail are never pruned past, so every error upstream would report is still reported.
    int usableBound(RequestData rd, int from) {
        int[] suffix = usableSuffix[rd.slot];
        if (suffix == null) {
            int n = search.candidates().length;
            suffix = new int[n + 1];
            int lastError = -1;
            for (int p = n - 1; p >= 0; p--) {
                int usable = 0;
                switch (probe(rd, p)) {
                    case MAYBE -> usable = 1;
                    case FAILS -> lastError = Math.max(lastError, p);
                    default -> { }
                }
                suffix[p] = suffix[p + 1] + usable;
            }
            for (int p = 0; p <= lastError; p++) {
                suffix[p] = Integer.MAX_VALUE;
            }
            usableSuffix[rd.slot] = suffix;
        }
        return suffix[from];
    }

    // Phase: pruning by pigeonhole. The requests from q to the end of claim c need at least `demand` distinct
    // devices, each from its own usable set; when the union of those sets, minus devices this call already took, is
    // smaller, no combination exists. Admin-access requests are left out (they may use taken devices), shared
    // devices disable the bound (one device can serve several requests), and so do any device whose selectors
    // or capacity computation fail and any All request under a constraint, so that the search still reaches and
    // reports those errors as upstream does.
    boolean cannotFitRemainingRequests(int c, int q, BitSet allocatingAny) {
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

    private RemainingDemand remainingDemand(int c, int q) {
        int demand = 0;
        BitSet usable = new BitSet();
        RequestData[][] requests = search.requests[c];
        boolean constrained = !search.constraints(c).isEmpty();
        int candidates = search.candidates().length;
        for (int qi = q; qi < requests.length; qi++) {
            RequestData[] alternatives = requests[qi];
            int min = Integer.MAX_VALUE;
            BitSet mine = new BitSet();
            for (RequestData rd : alternatives) {
                if (rd.allMode() && constrained) {
                    // An All device that breaks a constraint is an error, which the search must reach first.
                    return new RemainingDemand(0, usable);
                }
                min = Math.min(min, rd.numDevices);
                int n = rd.allMode() ? rd.allDevicePositions.length : candidates;
                for (int i = 0; i < n; i++) {
                    int pos = rd.allMode() ? rd.allDevicePositions[i] : i;
                    switch (probe(rd, pos)) {
                        case MAYBE -> {
                            if (f.consumableCapacity() && search.candidates()[pos].allowMultipleAllocations) {
                                return new RemainingDemand(0, usable);
                            }
                            mine.set(pos);
                        }
                        case FAILS -> {
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

    // Phase: pruning by distinct values. Under a distinctAttribute constraint (scalar values), the covered requests
    // from q to the end of claim c need at least `demand` devices with pairwise different values, none of them a
    // value the claim's earlier devices already took. When their usable devices offer fewer such values, no
    // combination exists. As for the pigeonhole bound, any failing selector or capacity computation among the
    // remaining requests, multi-allocatable devices, All requests and values that are not plain scalars disable it.
    boolean cannotMeetDistinctValues(int c, int q) {
        List<Constraint> cons = search.constraints(c);
        for (int i = 0; i < cons.size(); i++) {
            if (!(cons.get(i) instanceof Constraint.Distinct d) || d.setSemantics) {
                continue;
            }
            DistinctSupply[] perConstraint = distinctSupply[c][q];
            if (perConstraint == null) {
                perConstraint = new DistinctSupply[cons.size()];
                distinctSupply[c][q] = perConstraint;
            }
            DistinctSupply supply = perConstraint[i];
            if (supply == null) {
                supply = distinctSupply(c, q, d);
                perConstraint[i] = supply;
            }
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

    private DistinctSupply distinctSupply(int c, int q, Constraint.Distinct d) {
        int demand = 0;
        Set<String> values = new HashSet<>();
        RequestData[][] requests = search.requests[c];
        DeviceInfo[] candidates = search.candidates();
        for (int qi = q; qi < requests.length; qi++) {
            RequestData[] alternatives = requests[qi];
            boolean covered = true;
            int min = Integer.MAX_VALUE;
            for (RequestData rd : alternatives) {
                if (rd.allMode()) {
                    return NO_BOUND;
                }
                covered &= d.appliesTo(rd);
                min = Math.min(min, rd.numDevices);
                for (int pos = 0; pos < candidates.length; pos++) {
                    switch (probe(rd, pos)) {
                        case FAILS -> {
                            return NO_BOUND;
                        }
                        case MAYBE -> {
                            DeviceInfo device = candidates[pos];
                            if (f.consumableCapacity() && device.allowMultipleAllocations) {
                                return NO_BOUND;
                            }
                            if (!d.appliesTo(rd)) {
                                continue;
                            }
                            DeviceAttribute a = Constraint.lookup(device, d.attributeName);
                            if (a == null) {
                                continue;
                            }
                            String key = Constraint.scalarKey(a);
                            if (key == null) {
                                return NO_BOUND;
                            }
                            values.add(key);
                        }
                        default -> { }
                    }
                }
            }
            if (covered) {
                demand += min;
            }
        }
        return new DistinctSupply(demand, values);
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
                if (!ConsumableCapacity.fits(null, rd.capacityRequests, search.candidates()[pos], null,
                        f.fractionalCapacityRange())) {
                    return Probe.NEVER;
                }
            } catch (ConsumableCapacity.CapacityException e) {
                return Probe.FAILS;
            }
        }
        return Probe.MAYBE;
    }
}
