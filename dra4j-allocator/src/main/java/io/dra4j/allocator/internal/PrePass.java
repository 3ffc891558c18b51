package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The pre-pass of one allocation call. Validates every request and subrequest, fixes the device lists of All
 * requests, enforces the per-claim limit of 32 results with each request's minimum, and builds the claims'
 * constraints. Upstream does all of this before searching, so its errors win over any search outcome.
 */
final class PrePass {
    private final Search search;
    private final EngineFeatures f;

    private PrePass(Search search) {
        this.search = search;
        this.f = search.f;
    }

    /** Fills the search's request table and constraints, or fails with upstream's first error. */
    static void run(Search search) throws AllocationException {
        new PrePass(search).prepare();
    }

    private void prepare() throws AllocationException {
        List<ResourceClaim> claims = search.claims;
        search.requests = new RequestData[claims.size()][][];
        search.selectedSub = new int[claims.size()][];
        int slot = 0;
        for (int ci = 0; ci < claims.size(); ci++) {
            ResourceClaim claim = claims.get(ci);
            String ref = Search.claimRef(claim);
            List<DeviceRequest> reqs = ClaimDevices.requests(claim);
            RequestData[][] table = new RequestData[reqs.size()][];
            search.requests[ci] = table;
            search.selectedSub[ci] = new int[reqs.size()];
            int minPerClaim = 0;
            for (int qi = 0; qi < reqs.size(); qi++) {
                DeviceRequest request = reqs.get(qi);
                Supplier<String> where = () -> "claim " + ref + ", request " + request.getName();
                List<DeviceSubRequest> subs =
                        request.getFirstAvailable() == null ? List.of() : request.getFirstAvailable();
                boolean hasSubs = !subs.isEmpty();
                if (!f.prioritizedList() && hasSubs) {
                    throw new AllocationException(
                            where.get() + ": has subrequests, but the DRAPrioritizedList feature is disabled");
                }
                if (!f.consumableCapacity() && !f.stable()) {
                    if (request.getExactly() != null && request.getExactly().getCapacity() != null) {
                        throw new AllocationException(where.get()
                                + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
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
                    table[qi] = new RequestData[subs.size()];
                    minPerRequest = Integer.MAX_VALUE;
                    for (int si = 0; si < subs.size(); si++) {
                        DeviceSubRequest sub = subs.get(si);
                        RequestData rd = RequestData.sub(
                                ci,
                                qi,
                                si,
                                slot++,
                                request.getName(),
                                sub,
                                () -> "claim " + ref + ", request " + request.getName() + "/" + sub.getName());
                        validate(rd, claim);
                        table[qi][si] = rd;
                        minPerRequest = Math.min(minPerRequest, rd.numDevices);
                    }
                } else {
                    if (request.getExactly() == null) {
                        throw new AllocationException(
                                where.get() + ": unknown request type (neither exactly nor firstAvailable is set)");
                    }
                    RequestData rd = RequestData.exact(ci, qi, slot++, request.getName(), request.getExactly(), where);
                    validate(rd, claim);
                    table[qi] = new RequestData[] {rd};
                    minPerRequest = rd.numDevices;
                }
                if (minPerRequest > Search.MAX_RESULTS - minPerClaim) {
                    throw new AllocationException(
                            where.get() + ": adding " + minPerRequest + " devices exceeds the claim limit of "
                                    + Search.MAX_RESULTS + ", with " + minPerClaim + " already accounted for");
                }
                minPerClaim += minPerRequest;
            }
            search.setConstraints(ci, constraints(claim, ref));
        }
        search.slots = slot;
    }

    private List<Constraint> constraints(ResourceClaim claim, String ref) throws AllocationException {
        List<DeviceConstraint> cons = ClaimDevices.constraints(claim);
        List<Constraint> built = new ArrayList<>(cons.size());
        for (int i = 0; i < cons.size(); i++) {
            DeviceConstraint c = cons.get(i);
            if (c.getMatchAttribute() != null) {
                built.add(new Constraint.Match(c.getRequests(), c.getMatchAttribute(), f.listTypeAttributes(), search));
            } else if (c.getDistinctAttribute() != null && !f.stable()) {
                built.add(new Constraint.Distinct(
                        c.getRequests(), c.getDistinctAttribute(), f.listTypeAttributes(), search));
            } else {
                throw new AllocationException(
                        "claim " + ref + ", constraint #" + i + ": empty constraint (unsupported constraint type?)");
            }
        }
        return built;
    }

    private void validate(RequestData rd, ResourceClaim claim) throws AllocationException {
        Supplier<String> where = () -> "claim " + Search.claimRef(claim) + ", request " + rd.name;
        if (!rd.derivedAttributes.isEmpty()) {
            throw new AllocationException(where.get()
                    + (f.derivedAttributes()
                            ? ": derived attributes (DRADerivedAttributes, alpha) are not implemented by dra4j"
                            : ": cannot handle request with derived attributes, the feature is disabled"));
        }
        for (int i = 0; i < rd.selectors.size(); i++) {
            DeviceSelector s = rd.selectors.get(i);
            if (s == null || s.getCel() == null) {
                throw new AllocationException(
                        where.get() + ", selector #" + i + ": CEL expression empty (unsupported selector type?)");
            }
        }
        if (!f.adminAccess() && rd.adminAccessSet) {
            throw new AllocationException(where.get() + ": admin access is requested, but the feature is disabled");
        }
        if (rd.className.isEmpty()) {
            throw new AllocationException(where.get() + ": missing device class name (unsupported request type?)");
        }
        rd.deviceClass = search.view.deviceClass(rd.className);
        if (rd.deviceClass == null) {
            throw new AllocationException(where.get() + ": could not retrieve device class " + rd.className
                    + ": deviceclass.resource.k8s.io \"" + rd.className + "\" not found");
        }
        switch (rd.mode) {
            case RequestData.EXACT_COUNT -> rd.numDevices = (int) Math.min(Integer.MAX_VALUE, rd.count);
            case RequestData.ALL -> enumerateAll(rd, where);
            default -> throw new AllocationException(where.get() + ": unsupported count mode " + rd.mode);
        }
    }

    // All-mode requests get their device list once, before the search: every selectable device of every complete,
    // valid pool that passes the capacity check against the static capacity only. The candidates list the devices of
    // usable pools in the same order, so a device's position there is counted along.
    private void enumerateAll(RequestData rd, Supplier<String> where) throws AllocationException {
        List<DeviceInfo> all = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        int pos = 0;
        for (Pool pool : search.pools) {
            if (pool.incomplete()) {
                throw new AllocationException(where.get() + ": asks for all devices, but resource pool " + pool.id()
                        + " is currently being updated");
            }
            if (pool.invalid()) {
                throw new AllocationException(where.get() + ": asks for all devices, but resource pool " + pool.id()
                        + " is currently invalid");
            }
            for (SliceInfo s : pool.targeting()) {
                for (DeviceInfo d : s.devices()) {
                    int at = pos++;
                    if (!search.isSelectable(rd, at)) {
                        continue;
                    }
                    if (f.consumableCapacity()) {
                        try {
                            if (!search.staticCapacityFits(rd, d)) {
                                continue;
                            }
                        } catch (ConsumableCapacity.CapacityException e) {
                            throw new AllocationException(
                                    where.get() + ": checking capacity for device " + d.name + ": " + e.getMessage());
                        }
                    }
                    all.add(d);
                    positions.add(at);
                }
            }
        }
        rd.allDevices = all;
        rd.allDevicePositions = positions.stream().mapToInt(Integer::intValue).toArray();
        rd.numDevices = all.size();
    }
}
