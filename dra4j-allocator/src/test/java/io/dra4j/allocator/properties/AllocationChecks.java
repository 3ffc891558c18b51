package io.dra4j.allocator.properties;

import io.dra4j.allocator.DeviceId;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks an allocation result against the {@link Reference} model; each violation is one line of text. */
final class AllocationChecks {
    private AllocationChecks() {}

    static List<String> violations(Inputs in, List<AllocationResult> results) {
        Reference ref = new Reference(in);
        List<String> out = new ArrayList<>();
        List<ResourceClaim> claims = in.claims();
        if (results.size() != claims.size()) {
            out.add(results.size() + " results for " + claims.size() + " claims");
            return out;
        }
        List<Reference.Choice> choices = new ArrayList<>();
        for (int ci = 0; ci < claims.size(); ci++) {
            ResourceClaim claim = claims.get(ci);
            List<DeviceRequestAllocationResult> rs =
                    results.get(ci).getDevices().getResults();
            for (DeviceRequestAllocationResult r : rs) {
                String where =
                        "claim " + ci + ", result " + r.getRequest() + " " + r.getPool() + "/" + r.getDevice() + ": ";
                Reference.Effective request = Reference.effective(claim, r.getRequest());
                if (request == null) {
                    out.add(where + "names no request of the claim");
                    continue;
                }
                Inputs.PublishedDevice d = ref.device(new DeviceId(r.getDriver(), r.getPool(), r.getDevice()));
                if (d == null) {
                    out.add(where + "no such device");
                    continue;
                }
                choices.add(new Reference.Choice(ci, request, d));
                if (!Reference.targetsNode(d.slice()) || !ref.poolComplete(d.id().pool())) {
                    out.add(where + "device is not usable on the node (slice "
                            + d.slice().getMetadata().getName() + ")");
                }
                if (!ref.selects(request, d)) {
                    out.add(where + "device does not satisfy the class and request selectors");
                }
                if (!ref.taintsTolerated(request, d)) {
                    out.add(where + "device taints are not tolerated");
                }
                if (Boolean.TRUE.equals(r.getAdminAccess()) != request.admin()) {
                    out.add(where + "adminAccess " + r.getAdminAccess() + " but the request says " + request.admin());
                }
                if (ref.consumable) {
                    if (ref.multi(d)) {
                        Map<String, BigDecimal> expected = Reference.consumption(request, d.device());
                        if (r.getShareID() == null) {
                            out.add(where + "a shared device without shareID");
                        }
                        if (expected == null) {
                            out.add(where + "request breaks the device's capacity policy");
                        } else if (!sameAmounts(expected, r.getConsumedCapacity())) {
                            out.add(where + "consumedCapacity " + r.getConsumedCapacity() + ", expected " + expected);
                        }
                    } else if (!Reference.fitsAlone(request, d.device())) {
                        out.add(where + "request does not fit the device's capacity");
                    }
                }
                if (!ref.multi(d)
                        && (r.getShareID() != null
                                || (r.getConsumedCapacity() != null
                                        && !r.getConsumedCapacity().isEmpty()))) {
                    out.add(where + "shareID or consumedCapacity on an exclusively allocated device");
                }
            }
            out.addAll(countViolations(ref, ci, claim, rs));
        }
        out.addAll(ref.couplingViolations(choices, claims));
        return out;
    }

    /**
     * Every request got exactly one of its alternatives; ExactCount got its count, All got exactly the selectable
     * devices of the node that fit by capacity.
     */
    private static List<String> countViolations(
            Reference ref, int ci, ResourceClaim claim, List<DeviceRequestAllocationResult> rs) {
        List<String> out = new ArrayList<>();
        for (List<Reference.Effective> alternatives : Reference.requests(claim)) {
            Reference.Effective chosen = null;
            for (Reference.Effective alt : alternatives) {
                boolean used = rs.stream().anyMatch(r -> r.getRequest().equals(alt.name()));
                if (used) {
                    if (chosen != null) {
                        out.add("claim " + ci + ": results for both " + chosen.name() + " and " + alt.name());
                    }
                    chosen = alt;
                }
            }
            if (chosen == null) {
                out.add("claim " + ci + ": no results for "
                        + alternatives.get(0).name());
                continue;
            }
            Reference.Effective c = chosen;
            List<DeviceId> got = rs.stream()
                    .filter(r -> r.getRequest().equals(c.name()))
                    .map(r -> new DeviceId(r.getDriver(), r.getPool(), r.getDevice()))
                    .toList();
            if (!c.all()) {
                if (got.size() != c.count()) {
                    out.add("claim " + ci + ", " + c.name() + ": " + got.size() + " devices for count " + c.count());
                }
                continue;
            }
            Set<DeviceId> expected = new LinkedHashSet<>();
            for (Inputs.PublishedDevice d : ref.candidates()) {
                if (ref.selects(c, d) && (!ref.consumable || Reference.fitsAlone(c, d.device()))) {
                    expected.add(d.id());
                }
            }
            if (got.size() != expected.size() || !expected.equals(new LinkedHashSet<>(got))) {
                out.add("claim " + ci + ", " + c.name() + ": All got " + got + ", expected " + expected);
            }
        }
        return out;
    }

    private static boolean sameAmounts(Map<String, BigDecimal> expected, Map<String, Quantity> got) {
        if (got == null || !got.keySet().equals(expected.keySet())) {
            return false;
        }
        for (Map.Entry<String, BigDecimal> e : expected.entrySet()) {
            if (Reference.amount(got.get(e.getKey())).compareTo(e.getValue()) != 0) {
                return false;
            }
        }
        return true;
    }
}
