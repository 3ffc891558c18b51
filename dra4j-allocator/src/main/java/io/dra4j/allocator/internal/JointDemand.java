package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Why requests that each have enough usable devices on their own still fail together, with the numbers: a set of
 * devices that fewer devices than the requests confined to it need together (Hall's condition, checked for each
 * request's candidates and for all of them), or a distinctAttribute whose candidates carry fewer values than its
 * requests need devices. Only explains, never decides: each finding is a proof that no allocation exists, so it is
 * reported only where it holds (requests with one choice, in ExactCount mode, without admin access, over devices
 * that take one allocation; distinctAttribute over scalar values).
 */
final class JointDemand {
    /** One request with its usable devices (the funnel's survivors). */
    private record Demand(int claim, RequestData request, Set<DeviceInfo> devices) {}

    private JointDemand() {}

    /** The first shortage found, in claim and request order; empty when none of these bounds proves one. */
    static Optional<String> shortage(Search search, List<List<List<Explainer.Funnel>>> funnels) {
        List<Demand> demands = new ArrayList<>();
        for (int ci = 0; ci < funnels.size(); ci++) {
            for (List<Explainer.Funnel> alternatives : funnels.get(ci)) {
                if (alternatives.size() != 1) {
                    continue;
                }
                Explainer.Funnel f = alternatives.get(0);
                RequestData rd = f.request();
                boolean exclusive = f.survivors().stream().noneMatch(d -> d.allowMultipleAllocations);
                if (!rd.allMode() && !rd.adminAccess && exclusive && rd.numDevices > 0) {
                    demands.add(new Demand(ci, rd, new LinkedHashSet<>(f.survivors())));
                }
            }
        }
        Optional<String> devices = devices(search, demands);
        return devices.isPresent() ? devices : distinctValues(search, demands);
    }

    // Phase: Hall's condition. Every request must get its own devices from its candidates, so the requests whose
    // candidates all lie in one set need no more devices together than that set holds.
    private static Optional<String> devices(Search search, List<Demand> demands) {
        List<Set<DeviceInfo>> sets = new ArrayList<>();
        for (Demand d : demands) {
            sets.add(d.devices());
        }
        Set<DeviceInfo> union = new LinkedHashSet<>();
        demands.forEach(d -> union.addAll(d.devices()));
        sets.add(union);
        for (Set<DeviceInfo> set : sets) {
            List<Demand> confined = new ArrayList<>();
            long need = 0;
            for (Demand d : demands) {
                if (set.containsAll(d.devices())) {
                    confined.add(d);
                    need += d.request().numDevices;
                }
            }
            if (confined.size() > 1 && need > set.size()) {
                return Optional.of(set.size() + " device(s) can serve " + names(search, confined) + ", which need "
                        + need + " together");
            }
        }
        return Optional.empty();
    }

    // Phase: a distinctAttribute takes one device per value, so its requests need at least as many values among
    // their candidates as devices.
    private static Optional<String> distinctValues(Search search, List<Demand> demands) {
        for (int ci = 0; ci < search.claims.size(); ci++) {
            for (Constraint c : search.constraints(ci)) {
                if (!(c instanceof Constraint.Distinct) || c.setSemantics) {
                    continue;
                }
                List<Demand> covered = new ArrayList<>();
                Set<Object> values = new HashSet<>();
                long need = 0;
                for (Demand d : demands) {
                    if (d.claim() != ci || !c.appliesTo(d.request())) {
                        continue;
                    }
                    covered.add(d);
                    need += d.request().numDevices;
                    for (DeviceInfo device : d.devices()) {
                        DeviceAttribute a = Constraint.lookup(device, c.attributeName);
                        Constraint.TypedSet set = a == null ? null : Constraint.TypedSet.of(a);
                        if (set != null) {
                            values.add(set);
                        }
                    }
                }
                if (need > values.size()) {
                    return Optional.of("distinctAttribute " + c.attributeName + ": the devices that can serve "
                            + names(search, covered) + " have " + values.size() + " distinct value(s), and they need "
                            + need + " device(s) with distinct values");
                }
            }
        }
        return Optional.empty();
    }

    private static String names(Search search, List<Demand> demands) {
        List<String> out = new ArrayList<>();
        int claim = -1;
        for (Demand d : demands) {
            String request = "request " + d.request().fullName();
            if (d.claim() != claim) {
                claim = d.claim();
                request = "claim " + Search.claimRef(search.claims.get(claim)) + ", " + request;
            }
            out.add(request);
        }
        return String.join("; ", out);
    }
}
