package io.dra4j.allocator.internal;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.Explanation.Reason;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * "What would make it fit": candidate changes derived from the funnels, each applied to a copy of the inputs and
 * allocated again. Only changes after which the claims are allocated on this node are reported, so every
 * suggestion is a checked fact, not a guess. Candidates are tried from the smallest change to the largest.
 */
public final class Suggestions {
    private static final int MAX_SUGGESTIONS = 5;

    private final AllocatorInputs inputs;
    private final Function<AllocatorInputs, AllocationOutcome> allocate;
    private final Map<String, UnaryOperator<AllocatorInputs>> candidates = new LinkedHashMap<>();

    private Suggestions(AllocatorInputs inputs, Function<AllocatorInputs, AllocationOutcome> allocate) {
        this.inputs = inputs;
        this.allocate = allocate;
    }

    public static List<Explanation.Suggestion> find(Explainer.Analysis analysis, AllocationOutcome outcome, AllocatorInputs inputs,
                                             Function<AllocatorInputs, AllocationOutcome> allocate) {
        if (outcome instanceof AllocationOutcome.Allocated) {
            return List.of();
        }
        Suggestions s = new Suggestions(inputs, allocate);
        if (outcome instanceof AllocationOutcome.Failed failed) {
            s.gateFixes(failed.message());
        }
        for (int ci = 0; ci < analysis.funnels().size(); ci++) {
            for (List<Explainer.Funnel> alternatives : analysis.funnels().get(ci)) {
                for (Explainer.Funnel f : alternatives) {
                    s.fromFunnel(ci, f);
                }
            }
        }
        return s.verified();
    }

    private List<Explanation.Suggestion> verified() {
        List<Explanation.Suggestion> out = new ArrayList<>();
        for (Map.Entry<String, UnaryOperator<AllocatorInputs>> c : candidates.entrySet()) {
            if (out.size() == MAX_SUGGESTIONS) {
                break;
            }
            AllocationOutcome o = allocate.apply(c.getValue().apply(inputs));
            if (o instanceof AllocationOutcome.Allocated) {
                out.add(new Explanation.Suggestion(c.getKey()));
            }
        }
        return out;
    }

    // A disabled feature named by the error message: turn that gate on.
    private void gateFixes(String message) {
        for (DraFeature gate : DraFeature.values()) {
            if (message.contains(gate.gateName() + " feature is disabled")) {
                candidates.put("enable the " + gate.gateName() + " feature gate",
                        in -> withGates(in, gate));
            }
        }
        if (message.contains("admin access is requested, but the feature is disabled")) {
            candidates.put("enable the DRAAdminAccess feature gate", in -> withGates(in, DraFeature.DRAAdminAccess));
        }
    }

    private static AllocatorInputs withGates(AllocatorInputs in, DraFeature... gates) {
        var g = in.gates();
        for (DraFeature f : gates) {
            g = g.with(f, true);
        }
        return new AllocatorInputs(g, in.state(), in.classes(), in.slices(), in.taintRules(), in.node(), in.claims());
    }

    private void fromFunnel(int ci, Explainer.Funnel f) {
        RequestData rd = f.request();
        String where = "claim " + Search.claimRef(inputs.claims().get(ci)) + ", request " + rd.fullName();
        Map<Reason, List<DeviceInfo>> rejected = f.rejected();
        int missing = rd.allMode() ? 0 : Math.max(0, rd.numDevices - f.survivors().size());

        List<DeviceInfo> tainted = rejected.getOrDefault(Reason.TAINT, List.of());
        if (!tainted.isEmpty()) {
            Set<String> texts = new LinkedHashSet<>();
            List<DeviceToleration> tolerations = new ArrayList<>();
            for (DeviceInfo d : tainted) {
                for (DeviceTaint t : d.taints) {
                    if (("NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect()))
                            && !Search.tolerated(t, rd.tolerations) && texts.add(Explainer.taintText(t))) {
                        tolerations.add(new DeviceTolerationBuilder().withKey(t.getKey()).withOperator("Equal")
                                .withValue(t.getValue() == null ? "" : t.getValue()).withEffect(t.getEffect()).build());
                    }
                }
            }
            candidates.put(where + ": tolerate taint " + String.join(", ", texts) + " (device " + tainted.get(0).id
                    + " would then fit)", in -> editRequest(in, ci, rd, r -> r.tolerations.addAll(tolerations)));
        }
        List<DeviceInfo> inUse = rejected.getOrDefault(Reason.IN_USE, List.of());
        if (!inUse.isEmpty()) {
            int n = rd.allMode() ? inUse.size() : Math.max(1, Math.min(inUse.size(), missing));
            List<DeviceInfo> free = inUse.subList(0, n);
            List<String> names = free.stream().map(d -> d.id.toString()).toList();
            candidates.put(where + ": release " + String.join(", ", names) + " (allocated to other claims)",
                    in -> new AllocatorInputs(in.gates(), without(in.state(), free), in.classes(), in.slices(),
                            in.taintRules(), in.node(), in.claims()));
        }
        for (DeviceInfo d : rejected.getOrDefault(Reason.COUNTERS, List.of())) {
            candidates.put(where + ": raise the shared counters of pool " + d.id.driver() + "/" + d.id.pool()
                    + " by what device " + d.id.device() + " consumes", in -> withMoreCounters(in, d));
            break;
        }
        if (!rejected.getOrDefault(Reason.BINDING_CONDITIONS_DISABLED, List.of()).isEmpty()) {
            candidates.put("enable the DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature gates",
                    in -> withGates(in, DraFeature.DRADeviceBindingConditions, DraFeature.DRAResourceClaimDeviceStatus));
        }
        if (!rejected.getOrDefault(Reason.PARTITIONABLE_DISABLED, List.of()).isEmpty()) {
            candidates.put("enable the DRAPartitionableDevices feature gate",
                    in -> withGates(in, DraFeature.DRAPartitionableDevices));
        }
        if (!rd.allMode() && !f.survivors().isEmpty() && f.survivors().size() < rd.numDevices) {
            long n = f.survivors().size();
            candidates.put(where + ": ask for " + n + " device(s) instead of " + rd.numDevices,
                    in -> editRequest(in, ci, rd, r -> r.count = n));
        }
        List<io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint> constraints =
                inputs.claims().get(ci).getSpec().getDevices().getConstraints();
        if (f.shortfall() != null && constraints != null) {
            for (int i = 0; i < constraints.size(); i++) {
                var c = constraints.get(i);
                String what = c.getMatchAttribute() != null ? "matchAttribute " + c.getMatchAttribute()
                        : "distinctAttribute " + c.getDistinctAttribute();
                int index = i;
                candidates.put("claim " + Search.claimRef(inputs.claims().get(ci)) + ": drop constraint #" + i + " (" + what + ")",
                        in -> editClaim(in, ci, claim -> claim.getSpec().getDevices().getConstraints().remove(index)));
            }
        }
        if (!rejected.getOrDefault(Reason.REQUEST_SELECTOR, List.of()).isEmpty()) {
            for (int i = 0; i < rd.selectors.size(); i++) {
                int index = i;
                candidates.put(where + ": drop selector #" + i + " `" + rd.selectors.get(i).getCel().getExpression() + "`",
                        in -> editRequest(in, ci, rd, r -> r.selectors.remove(index)));
            }
        }
    }

    /** The mutable parts of a request or subrequest that suggestions change. */
    private static final class RequestEdit {
        List<DeviceToleration> tolerations;
        List<io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector> selectors;
        Long count;
    }

    private static AllocatorInputs editRequest(AllocatorInputs in, int ci, RequestData rd, java.util.function.Consumer<RequestEdit> edit) {
        return editClaim(in, ci, claim -> {
            DeviceRequest request = claim.getSpec().getDevices().getRequests().get(rd.requestIndex);
            RequestEdit e = new RequestEdit();
            if (rd.parentName == null) {
                var exact = request.getExactly();
                e.tolerations = new ArrayList<>(exact.getTolerations() == null ? List.of() : exact.getTolerations());
                e.selectors = new ArrayList<>(exact.getSelectors() == null ? List.of() : exact.getSelectors());
                e.count = exact.getCount();
                edit.accept(e);
                exact.setTolerations(e.tolerations);
                exact.setSelectors(e.selectors);
                exact.setCount(e.count);
            } else {
                DeviceSubRequest sub = request.getFirstAvailable().get(rd.subRequestIndex);
                e.tolerations = new ArrayList<>(sub.getTolerations() == null ? List.of() : sub.getTolerations());
                e.selectors = new ArrayList<>(sub.getSelectors() == null ? List.of() : sub.getSelectors());
                e.count = sub.getCount();
                edit.accept(e);
                sub.setTolerations(e.tolerations);
                sub.setSelectors(e.selectors);
                sub.setCount(e.count);
            }
        });
    }

    private static AllocatorInputs editClaim(AllocatorInputs in, int ci, java.util.function.Consumer<ResourceClaim> edit) {
        List<ResourceClaim> claims = new ArrayList<>(in.claims());
        ResourceClaim copy = new ResourceClaimBuilder(claims.get(ci)).build();
        if (copy.getSpec().getDevices().getConstraints() != null) {
            copy.getSpec().getDevices().setConstraints(new ArrayList<>(copy.getSpec().getDevices().getConstraints()));
        }
        edit.accept(copy);
        claims.set(ci, copy);
        return new AllocatorInputs(in.gates(), in.state(), in.classes(), in.slices(), in.taintRules(), in.node(), claims);
    }

    private static AllocatedState without(AllocatedState state, List<DeviceInfo> free) {
        Set<io.dra4j.allocator.DeviceId> ids = new LinkedHashSet<>(state.allocatedDevices());
        free.forEach(d -> ids.remove(d.id));
        return new AllocatedState(ids, state.sharedDevices(), state.aggregatedCapacity());
    }

    private static AllocatorInputs withMoreCounters(AllocatorInputs in, DeviceInfo device) {
        List<ResourceSlice> slices = new ArrayList<>();
        for (ResourceSlice s : in.slices()) {
            var spec = s.getSpec();
            if (spec == null || spec.getSharedCounters() == null || spec.getSharedCounters().isEmpty()
                    || !device.id.driver().equals(spec.getDriver()) || spec.getPool() == null
                    || !device.id.pool().equals(spec.getPool().getName())) {
                slices.add(s);
                continue;
            }
            List<CounterSet> sets = new ArrayList<>();
            for (CounterSet set : spec.getSharedCounters()) {
                Map<String, Counter> counters = new LinkedHashMap<>(set.getCounters() == null ? Map.of() : set.getCounters());
                for (DeviceInfo.CounterConsumption cc : device.consumesCounters) {
                    if (!cc.counterSet().equals(set.getName())) {
                        continue;
                    }
                    cc.counters().forEach((name, amount) -> {
                        Counter counter = counters.get(name);
                        if (counter != null) {
                            BigDecimal v = io.dra4j.cel.KubeQuantity.fromFabric8(counter.getValue()).value().add(amount);
                            counters.put(name, new CounterBuilder().withValue(new Quantity(v.stripTrailingZeros().toPlainString())).build());
                        }
                    });
                }
                sets.add(new CounterSetBuilder().withName(set.getName()).withCounters(counters).build());
            }
            ResourceSlice copy = new ResourceSliceBuilder(s).editSpec().withSharedCounters(sets).endSpec().build();
            slices.add(copy);
        }
        return new AllocatorInputs(in.gates(), in.state(), in.classes(), slices, in.taintRules(), in.node(), in.claims());
    }
}
