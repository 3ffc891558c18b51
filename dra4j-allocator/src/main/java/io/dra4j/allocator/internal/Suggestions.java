package io.dra4j.allocator.internal;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.Explanation.Change;
import io.dra4j.allocator.Explanation.Reason;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
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
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * "What would make it fit": candidate changes derived from the funnels, each applied to a copy of the inputs and
 * allocated again. Only changes after which the claims are allocated on this node are reported, so every
 * suggestion is a checked fact, not a guess. Candidates are tried from the smallest change to the largest.
 */
public final class Suggestions {
    private static final int MAX_SUGGESTIONS = 5;

    private final AllocatorInputs inputs;
    private final Map<String, Change> candidates = new LinkedHashMap<>();

    private Suggestions(AllocatorInputs inputs) {
        this.inputs = inputs;
    }

    public static List<Explanation.Suggestion> find(Explainer.Analysis analysis, AllocationOutcome outcome, AllocatorInputs inputs,
                                                    Function<AllocatorInputs, AllocationOutcome> allocate) {
        if (outcome instanceof AllocationOutcome.Allocated) {
            return List.of();
        }
        Suggestions s = new Suggestions(inputs);
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
        List<Explanation.Suggestion> out = new ArrayList<>();
        for (Map.Entry<String, Change> c : s.candidates.entrySet()) {
            if (out.size() == MAX_SUGGESTIONS) {
                break;
            }
            if (allocate.apply(apply(c.getValue(), inputs)) instanceof AllocationOutcome.Allocated) {
                out.add(new Explanation.Suggestion(c.getKey(), c.getValue()));
            }
        }
        return out;
    }

    // A disabled feature named by the error message: turn that gate on.
    private void gateFixes(String message) {
        for (DraFeature gate : DraFeature.values()) {
            if (message.contains(gate.gateName() + " feature is disabled")) {
                candidates.put("enable the " + gate.gateName() + " feature gate", new Change.EnableGates(Set.of(gate)));
            }
        }
        if (message.contains("admin access is requested, but the feature is disabled")) {
            candidates.put("enable the DRAAdminAccess feature gate", new Change.EnableGates(Set.of(DraFeature.DRAAdminAccess)));
        }
    }

    private void fromFunnel(int ci, Explainer.Funnel f) {
        RequestData rd = f.request();
        String claimRef = Search.claimRef(inputs.claims().get(ci));
        String where = "claim " + claimRef + ", request " + rd.fullName();
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
                    + " would then fit)", new Change.Tolerate(ci, rd.fullName(), tolerations));
        }
        List<DeviceInfo> inUse = rejected.getOrDefault(Reason.IN_USE, List.of());
        if (!inUse.isEmpty()) {
            int n = rd.allMode() ? inUse.size() : Math.max(1, Math.min(inUse.size(), missing));
            List<DeviceId> free = inUse.subList(0, n).stream().map(d -> d.id).toList();
            candidates.put(where + ": release " + String.join(", ", free.stream().map(DeviceId::toString).toList())
                    + " (allocated to other claims)", new Change.Release(free));
        }
        for (DeviceInfo d : rejected.getOrDefault(Reason.COUNTERS, List.of())) {
            candidates.put(where + ": raise the shared counters of pool " + d.id.driver() + "/" + d.id.pool()
                    + " by what device " + d.id.device() + " consumes", new Change.RaiseCounters(d.id));
            break;
        }
        if (!rejected.getOrDefault(Reason.BINDING_CONDITIONS_DISABLED, List.of()).isEmpty()) {
            candidates.put("enable the DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature gates",
                    new Change.EnableGates(Set.of(DraFeature.DRADeviceBindingConditions, DraFeature.DRAResourceClaimDeviceStatus)));
        }
        if (!rejected.getOrDefault(Reason.PARTITIONABLE_DISABLED, List.of()).isEmpty()) {
            candidates.put("enable the DRAPartitionableDevices feature gate",
                    new Change.EnableGates(Set.of(DraFeature.DRAPartitionableDevices)));
        }
        if (!rd.allMode() && f.usable() > 0 && f.usable() < rd.numDevices) {
            candidates.put(where + ": ask for " + f.usable() + " device(s) instead of " + rd.numDevices,
                    new Change.SetCount(ci, rd.fullName(), f.usable()));
        }
        List<DeviceConstraint> constraints = inputs.claims().get(ci).getSpec().getDevices().getConstraints();
        if (f.shortfall() != null && constraints != null) {
            for (int i = 0; i < constraints.size(); i++) {
                DeviceConstraint c = constraints.get(i);
                String what = c.getMatchAttribute() != null ? "matchAttribute " + c.getMatchAttribute()
                        : "distinctAttribute " + c.getDistinctAttribute();
                candidates.put("claim " + claimRef + ": drop constraint #" + i + " (" + what + ")", new Change.DropConstraint(ci, i));
            }
        }
        if (!rejected.getOrDefault(Reason.REQUEST_SELECTOR, List.of()).isEmpty()) {
            for (int i = 0; i < rd.selectors.size(); i++) {
                candidates.put(where + ": drop selector #" + i + " `" + rd.selectors.get(i).getCel().getExpression() + "`",
                        new Change.DropSelector(ci, rd.fullName(), i));
            }
        }
    }

    /** A copy of the inputs with the change applied; the inputs themselves stay untouched. */
    public static AllocatorInputs apply(Change change, AllocatorInputs in) {
        if (change instanceof Change.Tolerate t) {
            return editRequest(in, t.claim(), t.request(), r -> r.tolerations.addAll(t.tolerations()));
        }
        if (change instanceof Change.SetCount c) {
            return editRequest(in, c.claim(), c.request(), r -> r.count = c.count());
        }
        if (change instanceof Change.DropSelector d) {
            return editRequest(in, d.claim(), d.request(), r -> r.selectors.remove(d.index()));
        }
        if (change instanceof Change.DropConstraint d) {
            return editClaim(in, d.claim(), claim -> claim.getSpec().getDevices().getConstraints().remove(d.index()));
        }
        if (change instanceof Change.Release r) {
            AllocatedState s = in.state();
            Set<DeviceId> ids = new LinkedHashSet<>(s.allocatedDevices());
            r.devices().forEach(ids::remove);
            return new AllocatorInputs(in.gates(), new AllocatedState(ids, s.sharedDevices(), s.aggregatedCapacity(), s.owners()),
                    in.classes(), in.slices(), in.taintRules(), in.node(), in.claims());
        }
        if (change instanceof Change.RaiseCounters r) {
            return withMoreCounters(in, r.device());
        }
        Change.EnableGates g = (Change.EnableGates) change;
        FeatureGates gates = in.gates();
        for (DraFeature f : EnumSet.copyOf(g.gates())) {
            gates = gates.with(f, true);
        }
        return new AllocatorInputs(gates, in.state(), in.classes(), in.slices(), in.taintRules(), in.node(), in.claims());
    }

    /** The mutable parts of a request or subrequest that changes touch. */
    private static final class RequestEdit {
        List<DeviceToleration> tolerations;
        List<DeviceSelector> selectors;
        Long count;
    }

    private static AllocatorInputs editRequest(AllocatorInputs in, int ci, String requestName, Consumer<RequestEdit> edit) {
        return editClaim(in, ci, claim -> {
            String parent = requestName.contains("/") ? requestName.substring(0, requestName.indexOf('/')) : requestName;
            String sub = requestName.contains("/") ? requestName.substring(requestName.indexOf('/') + 1) : null;
            for (DeviceRequest request : claim.getSpec().getDevices().getRequests()) {
                if (!parent.equals(request.getName())) {
                    continue;
                }
                RequestEdit e = new RequestEdit();
                if (sub == null) {
                    var exact = request.getExactly();
                    e.tolerations = new ArrayList<>(exact.getTolerations() == null ? List.of() : exact.getTolerations());
                    e.selectors = new ArrayList<>(exact.getSelectors() == null ? List.of() : exact.getSelectors());
                    e.count = exact.getCount();
                    edit.accept(e);
                    exact.setTolerations(e.tolerations);
                    exact.setSelectors(e.selectors);
                    exact.setCount(e.count);
                    return;
                }
                for (DeviceSubRequest s : request.getFirstAvailable()) {
                    if (sub.equals(s.getName())) {
                        e.tolerations = new ArrayList<>(s.getTolerations() == null ? List.of() : s.getTolerations());
                        e.selectors = new ArrayList<>(s.getSelectors() == null ? List.of() : s.getSelectors());
                        e.count = s.getCount();
                        edit.accept(e);
                        s.setTolerations(e.tolerations);
                        s.setSelectors(e.selectors);
                        s.setCount(e.count);
                        return;
                    }
                }
            }
        });
    }

    private static AllocatorInputs editClaim(AllocatorInputs in, int ci, Consumer<ResourceClaim> edit) {
        List<ResourceClaim> claims = new ArrayList<>(in.claims());
        ResourceClaim copy = new ResourceClaimBuilder(claims.get(ci)).build();
        if (copy.getSpec().getDevices().getConstraints() != null) {
            copy.getSpec().getDevices().setConstraints(new ArrayList<>(copy.getSpec().getDevices().getConstraints()));
        }
        edit.accept(copy);
        claims.set(ci, copy);
        return new AllocatorInputs(in.gates(), in.state(), in.classes(), in.slices(), in.taintRules(), in.node(), claims);
    }

    private static AllocatorInputs withMoreCounters(AllocatorInputs in, DeviceId id) {
        Map<String, Map<String, BigDecimal>> consumption = new LinkedHashMap<>();
        for (ResourceSlice s : in.slices()) {
            if (s.getSpec() == null || !id.driver().equals(s.getSpec().getDriver()) || s.getSpec().getPool() == null
                    || !id.pool().equals(s.getSpec().getPool().getName()) || s.getSpec().getDevices() == null) {
                continue;
            }
            for (Device d : s.getSpec().getDevices()) {
                if (id.device().equals(d.getName()) && d.getConsumesCounters() != null) {
                    for (DeviceCounterConsumption c : d.getConsumesCounters()) {
                        Map<String, BigDecimal> m = consumption.computeIfAbsent(c.getCounterSet(), k -> new LinkedHashMap<>());
                        c.getCounters().forEach((name, counter) -> m.put(name, KubeQuantity.fromFabric8(counter.getValue()).value()));
                    }
                }
            }
        }
        List<ResourceSlice> slices = new ArrayList<>();
        for (ResourceSlice s : in.slices()) {
            var spec = s.getSpec();
            if (spec == null || spec.getSharedCounters() == null || spec.getSharedCounters().isEmpty()
                    || !id.driver().equals(spec.getDriver()) || spec.getPool() == null
                    || !id.pool().equals(spec.getPool().getName())) {
                slices.add(s);
                continue;
            }
            List<CounterSet> sets = new ArrayList<>();
            for (CounterSet set : spec.getSharedCounters()) {
                Map<String, Counter> counters = new LinkedHashMap<>(set.getCounters() == null ? Map.of() : set.getCounters());
                consumption.getOrDefault(set.getName(), Map.of()).forEach((name, amount) -> {
                    Counter counter = counters.get(name);
                    if (counter != null) {
                        BigDecimal v = KubeQuantity.fromFabric8(counter.getValue()).value().add(amount);
                        counters.put(name, new CounterBuilder().withValue(new Quantity(v.stripTrailingZeros().toPlainString())).build());
                    }
                });
                sets.add(new CounterSetBuilder().withName(set.getName()).withCounters(counters).build());
            }
            slices.add(new ResourceSliceBuilder(s).editSpec().withSharedCounters(sets).endSpec().build());
        }
        return new AllocatorInputs(in.gates(), in.state(), in.classes(), slices, in.taintRules(), in.node(), in.claims());
    }
}
