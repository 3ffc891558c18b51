package io.dra4j.allocator.internal;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.Explanation.Change;
import io.dra4j.allocator.Explanation.Reason;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.EvalResult;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.SelectorGuard;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
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
    /** Each try is one allocation of a changed copy; this bounds the cost of one explanation. */
    private static final int MAX_TRIES = 60;
    /** Gates whose absence can make an allocation impossible, with the gates they need alongside. */
    private static final List<Set<DraFeature>> ALLOCATOR_GATES = List.of(
            Set.of(DraFeature.DRAPrioritizedList),
            Set.of(DraFeature.DRAAdminAccess),
            Set.of(DraFeature.DRAPartitionableDevices),
            Set.of(DraFeature.DRAConsumableCapacity),
            Set.of(DraFeature.DRADeviceBindingConditions, DraFeature.DRAResourceClaimDeviceStatus),
            Set.of(DraFeature.DRAListTypeAttributes));

    private final AllocatorInputs inputs;
    private final Search search;
    private final Map<String, Change> candidates = new LinkedHashMap<>();

    private Suggestions(AllocatorInputs inputs, Search search) {
        this.inputs = inputs;
        this.search = search;
    }

    public static List<Explanation.Suggestion> find(
            Explainer.Analysis analysis,
            AllocationOutcome outcome,
            AllocatorInputs inputs,
            Function<AllocatorInputs, AllocationOutcome> allocate) {
        if (outcome instanceof AllocationOutcome.Allocated) {
            return List.of();
        }
        Suggestions s = new Suggestions(inputs, analysis.search());
        if (outcome instanceof AllocationOutcome.Failed failed) {
            s.gateFixes(failed.message());
        }
        analysis.preparationFailure().ifPresent(s::guardFix);
        for (int ci = 0; ci < analysis.funnels().size(); ci++) {
            for (List<Explainer.Funnel> alternatives : analysis.funnels().get(ci)) {
                for (Explainer.Funnel f : alternatives) {
                    s.fromFunnel(ci, f);
                }
            }
        }
        s.generic(analysis);
        List<Explanation.Suggestion> out = new ArrayList<>();
        int tries = 0;
        for (Map.Entry<String, Change> c : s.candidates.entrySet()) {
            if (out.size() == MAX_SUGGESTIONS || tries++ == MAX_TRIES) {
                break;
            }
            if (out.stream().anyMatch(done -> done.change().equals(c.getValue()))) {
                continue;
            }
            AllocationOutcome changed = allocate.apply(apply(c.getValue(), inputs));
            if (changed instanceof AllocationOutcome.Allocated) {
                out.add(new Explanation.Suggestion(c.getKey(), c.getValue()));
            } else if (outcome instanceof AllocationOutcome.Failed
                    && c.getValue() instanceof Change.GuardSelector
                    && changed instanceof AllocationOutcome.Unschedulable u) {
                // The guard fixes the error even where the guarded selector then leaves too few devices.
                out.add(new Explanation.Suggestion(c.getKey(), c.getValue(), u.reason()));
            }
        }
        return collapseCounts(withoutDroppedGuardedSelectors(out));
    }

    /**
     * Where a selector fails with a CEL runtime error and its guard is offered, dropping that selector is not: it
     * widens the request beyond its intent (every device the selector was meant to exclude), where the guard keeps
     * the intent and only stops the error.
     */
    private static List<Explanation.Suggestion> withoutDroppedGuardedSelectors(List<Explanation.Suggestion> found) {
        Set<Change.DropSelector> guarded = new HashSet<>();
        for (Explanation.Suggestion s : found) {
            if (s.change() instanceof Change.GuardSelector g) {
                guarded.add(new Change.DropSelector(g.claim(), g.request(), g.index()));
            }
        }
        return found.stream()
                .filter(s -> !(s.change() instanceof Change.DropSelector d && guarded.contains(d)))
                .toList();
    }

    /**
     * "ask for 3 / 2 / 1" says one thing: keep, per request, only the largest count that fits (every smaller one fits
     * too), worded as what it is, in the place of the first of them.
     */
    private static List<Explanation.Suggestion> collapseCounts(List<Explanation.Suggestion> found) {
        Map<String, Change.SetCount> largest = new LinkedHashMap<>();
        for (Explanation.Suggestion s : found) {
            if (s.change() instanceof Change.SetCount c) {
                largest.merge(c.claim() + "/" + c.request(), c, (a, b) -> a.count() >= b.count() ? a : b);
            }
        }
        List<Explanation.Suggestion> out = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        for (Explanation.Suggestion s : found) {
            if (!(s.change() instanceof Change.SetCount c)) {
                out.add(s);
                continue;
            }
            String key = c.claim() + "/" + c.request();
            if (placed.add(key)) {
                Change.SetCount best = largest.get(key);
                String description = found.stream()
                        .filter(x -> x.change().equals(best))
                        .findFirst()
                        .map(Explanation.Suggestion::description)
                        .orElse(s.description());
                int colon = description.lastIndexOf(": ask for ");
                String where = colon < 0 ? description : description.substring(0, colon);
                out.add(new Explanation.Suggestion(
                        where + ": at most " + best.count() + " device(s) fit, ask for " + best.count()
                                + (colon < 0 ? "" : description.substring(description.indexOf(" instead of ", colon))),
                        best));
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
            candidates.put(
                    "enable the DRAAdminAccess feature gate",
                    new Change.EnableGates(Set.of(DraFeature.DRAAdminAccess)));
        }
    }

    private void fromFunnel(int ci, Explainer.Funnel f) {
        RequestData rd = f.request();
        String claimRef = Search.claimRef(inputs.claims().get(ci));
        String where = "claim " + claimRef + ", request " + rd.fullName();
        Map<Reason, List<DeviceInfo>> rejected = f.rejected();
        int missing =
                rd.allMode() ? 0 : Math.max(0, rd.numDevices - f.survivors().size());

        List<DeviceInfo> tainted = rejected.getOrDefault(Reason.TAINT, List.of());
        if (!tainted.isEmpty()) {
            Set<String> texts = new LinkedHashSet<>();
            List<DeviceToleration> tolerations = new ArrayList<>();
            for (DeviceInfo d : tainted) {
                for (DeviceTaint t : d.taints) {
                    if (("NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect()))
                            && !Search.tolerated(t, rd.tolerations)
                            && texts.add(Explainer.taintText(t))) {
                        tolerations.add(new DeviceTolerationBuilder()
                                .withKey(t.getKey())
                                .withOperator("Equal")
                                .withValue(t.getValue() == null ? "" : t.getValue())
                                .withEffect(t.getEffect())
                                .build());
                    }
                }
            }
            candidates.put(
                    where + ": tolerate taint " + String.join(", ", texts) + " (device " + tainted.get(0).id
                            + " would then fit)",
                    new Change.Tolerate(ci, rd.fullName(), tolerations));
        }
        for (DeviceInfo d : rejected.getOrDefault(Reason.SELECTOR_ERROR, List.of())) {
            guardFix(ci, rd, where, d);
        }
        List<DeviceInfo> inUse = rejected.getOrDefault(Reason.IN_USE, List.of());
        if (!inUse.isEmpty()) {
            int n = rd.allMode() ? inUse.size() : Math.max(1, Math.min(inUse.size(), missing));
            List<DeviceId> free = inUse.subList(0, n).stream().map(d -> d.id).toList();
            candidates.put(
                    where + ": release "
                            + String.join(
                                    ", ", free.stream().map(DeviceId::toString).toList())
                            + " (allocated to other claims)",
                    new Change.Release(free));
        }
        List<DeviceInfo> shortOfCapacity = rejected.getOrDefault(Reason.CAPACITY, List.of());
        List<DeviceId> shared = shortOfCapacity.stream()
                .map(d -> d.id)
                .filter(id -> inputs.state().aggregatedCapacity().containsKey(id))
                .toList();
        if (!shared.isEmpty()) {
            candidates.put(
                    where + ": release the capacity other claims consume on "
                            + String.join(
                                    ", ",
                                    shared.stream().map(DeviceId::toString).toList()),
                    new Change.Release(shared));
        }
        for (DeviceInfo d : rejected.getOrDefault(Reason.COUNTERS, List.of())) {
            candidates.put(
                    where + ": raise the shared counters of pool " + d.id.driver() + "/" + d.id.pool()
                            + " by what device " + d.id.device() + " consumes",
                    new Change.RaiseCounters(d.id));
            break;
        }
        if (!rejected.getOrDefault(Reason.BINDING_CONDITIONS_DISABLED, List.of())
                .isEmpty()) {
            candidates.put(
                    "enable the DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature gates",
                    new Change.EnableGates(
                            Set.of(DraFeature.DRADeviceBindingConditions, DraFeature.DRAResourceClaimDeviceStatus)));
        }
        if (!rejected.getOrDefault(Reason.PARTITIONABLE_DISABLED, List.of()).isEmpty()) {
            candidates.put(
                    "enable the DRAPartitionableDevices feature gate",
                    new Change.EnableGates(Set.of(DraFeature.DRAPartitionableDevices)));
        }
        if (!rd.allMode() && f.usable() > 0 && f.usable() < rd.numDevices) {
            candidates.put(
                    where + ": ask for " + f.usable() + " device(s) instead of " + rd.numDevices,
                    new Change.SetCount(ci, rd.fullName(), f.usable()));
        }
        List<DeviceConstraint> constraints =
                ClaimDevices.constraints(inputs.claims().get(ci));
        if (f.shortfall() != null) {
            for (int i = 0; i < constraints.size(); i++) {
                DeviceConstraint c = constraints.get(i);
                String what = c.getMatchAttribute() != null
                        ? "matchAttribute " + c.getMatchAttribute()
                        : "distinctAttribute " + c.getDistinctAttribute();
                candidates.put(
                        "claim " + claimRef + ": drop constraint #" + i + " (" + what + ")",
                        new Change.DropConstraint(ci, i));
            }
        }
        if (!rejected.getOrDefault(Reason.REQUEST_SELECTOR, List.of()).isEmpty() && !widensDriver(f)) {
            for (int i = 0; i < rd.selectors.size(); i++) {
                if (!namesDriver(rd.selectors.get(i))) {
                    candidates.put(
                            where + ": drop selector #" + i + " `"
                                    + rd.selectors.get(i).getCel().getExpression() + "`",
                            new Change.DropSelector(ci, rd.fullName(), i));
                }
            }
        }
    }

    /**
     * A request selector that fails on a device (a CEL runtime error, which upstream makes an error of the whole
     * allocation): the same selector with the guard kube-scheduler's error text advises, so that such a device does
     * not match. Class selectors are the class author's and stay; selectors after a false one are not reached.
     */
    private void guardFix(int ci, RequestData rd, String where, DeviceInfo d) {
        for (int i = 0; i < rd.selectors.size(); i++) {
            DeviceSelector sel = rd.selectors.get(i);
            if (sel == null || sel.getCel() == null || sel.getCel().getExpression() == null) {
                return;
            }
            String text = sel.getCel().getExpression();
            CompiledExpression expr = search.view.cel.compile(text);
            if (expr.compileError().isPresent()) {
                return;
            }
            EvalResult result = d.evaluate(expr, search.view.cel);
            if (result instanceof EvalResult.Failed failed) {
                guard(ci, rd.fullName(), where, i, d.id, text, failed.message());
                return;
            }
            if (!((EvalResult.Matched) result).value()) {
                return;
            }
        }
    }

    /** The same when the search could not be prepared because of that error (allocation mode All evaluates early). */
    private void guardFix(AllocationException.SelectorFailure failure) {
        if (!failure.classSelector()) {
            guard(
                    failure.claim(),
                    failure.request(),
                    "claim " + Search.claimRef(inputs.claims().get(failure.claim())) + ", request " + failure.request(),
                    failure.index(),
                    failure.device(),
                    failure.expression(),
                    failure.error());
        }
    }

    private void guard(
            int ci, String request, String where, int index, DeviceId device, String expression, String error) {
        SelectorGuard.forRuntimeError(expression, error, device.driver())
                .ifPresent(g -> candidates.putIfAbsent(
                        where + ": guard selector #" + index + " with `" + g.guard() + "`, so that device " + device
                                + " and others like it do not match instead of failing: `" + g.expression() + "`",
                        new Change.GuardSelector(ci, request, index, g.expression())));
    }

    /** A selector that restricts the driver (device.driver) states what kind of device the request wants. */
    private static boolean namesDriver(DeviceSelector selector) {
        return selector.getCel() != null
                && selector.getCel().getExpression() != null
                && selector.getCel().getExpression().contains("device.driver");
    }

    /**
     * Whether dropping the request's selectors could admit a device of a driver that no device passing them has:
     * then the selectors restrict the kind of device (a GPU request must not get a NIC) and stay. Unknown (no device
     * passes) counts as widening.
     */
    private static boolean widensDriver(Explainer.Funnel f) {
        Set<String> passing = new HashSet<>();
        for (DeviceInfo d : f.survivors()) {
            passing.add(d.id.driver());
        }
        for (Map.Entry<Reason, List<DeviceInfo>> e : f.rejected().entrySet()) {
            if (e.getKey().compareTo(Reason.REQUEST_SELECTOR) > 0) {
                e.getValue().forEach(d -> passing.add(d.id.driver()));
            }
        }
        for (DeviceInfo d : f.rejected().getOrDefault(Reason.REQUEST_SELECTOR, List.of())) {
            if (!passing.contains(d.id.driver())) {
                return true;
            }
        }
        return false;
    }

    // Changes that do not follow from one request's funnel: what the whole node lacks (a complete pool, a label a
    // network-attached pool selects, a gate), and relaxations of the claims, from small to large.
    private void generic(Explainer.Analysis analysis) {
        Search search = analysis.search();
        if (search.pools != null) {
            for (Pool p : search.pools) {
                if (p.incomplete()) {
                    candidates.putIfAbsent(
                            "once every slice of pool " + p.id() + " is published (the pool is being updated)",
                            new Change.CompletePool(p.id().driver(), p.id().pool()));
                }
            }
        }
        Map<String, String> labels = missingNodeLabels(search);
        if (!labels.isEmpty()) {
            candidates.putIfAbsent(
                    "label node " + search.nodeName + " with " + labels
                            + " (network-attached devices select nodes by these labels)",
                    new Change.LabelNode(labels));
        }
        for (Set<DraFeature> gates : ALLOCATOR_GATES) {
            if (gates.stream().noneMatch(inputs.gates()::isEnabled)) {
                candidates.putIfAbsent(
                        "enable the "
                                + String.join(
                                        " and ",
                                        gates.stream()
                                                .map(DraFeature::gateName)
                                                .sorted()
                                                .toList()) + " feature gate" + (gates.size() > 1 ? "s" : ""),
                        new Change.EnableGates(gates));
            }
        }
        for (int ci = 0; ci < analysis.funnels().size(); ci++) {
            String claimRef = Search.claimRef(inputs.claims().get(ci));
            for (List<Explainer.Funnel> alternatives : analysis.funnels().get(ci)) {
                for (Explainer.Funnel f : alternatives) {
                    RequestData rd = f.request();
                    String where = "claim " + claimRef + ", request " + rd.fullName();
                    if (rd.capacityRequests != null) {
                        candidates.putIfAbsent(
                                where + ": drop the capacity requests",
                                new Change.DropCapacityRequests(ci, rd.fullName()));
                    }
                    for (long n = rd.allMode() ? 0 : rd.numDevices - 1; n >= 1; n--) {
                        candidates.putIfAbsent(
                                where + ": ask for " + n + " device(s) instead of " + rd.numDevices,
                                new Change.SetCount(ci, rd.fullName(), n));
                    }
                    // A class selector is the class's intent and is never dropped; a request selector only when
                    // dropping it cannot hand the request devices of another driver.
                    for (int i = 0; i < rd.selectors.size() && !widensDriver(f); i++) {
                        if (!namesDriver(rd.selectors.get(i))) {
                            candidates.putIfAbsent(
                                    where + ": drop selector #" + i + " `"
                                            + rd.selectors.get(i).getCel().getExpression() + "`",
                                    new Change.DropSelector(ci, rd.fullName(), i));
                        }
                    }
                }
            }
            List<DeviceConstraint> constraints =
                    ClaimDevices.constraints(inputs.claims().get(ci));
            for (int i = 0; i < constraints.size(); i++) {
                DeviceConstraint c = constraints.get(i);
                String what = c.getMatchAttribute() != null
                        ? "matchAttribute " + c.getMatchAttribute()
                        : "distinctAttribute " + c.getDistinctAttribute();
                candidates.putIfAbsent(
                        "claim " + claimRef + ": drop constraint #" + i + " (" + what + ")",
                        new Change.DropConstraint(ci, i));
            }
        }
        List<DeviceId> held = new ArrayList<>();
        for (DeviceInfo d : search.candidates() == null ? new DeviceInfo[0] : search.candidates()) {
            if (inputs.state().isAllocated(d.id)) {
                held.add(d.id);
            }
        }
        if (!held.isEmpty()) {
            candidates.putIfAbsent(
                    "release the " + held.size() + " device(s) of this node that other claims hold: "
                            + String.join(
                                    ", ", held.stream().map(DeviceId::toString).toList()),
                    new Change.Release(held));
        }
        for (int ci = 0; ci < inputs.claims().size(); ci++) {
            List<DeviceRequest> requests = ClaimDevices.requests(inputs.claims().get(ci));
            for (int qi = 0; requests.size() > 1 && qi < requests.size(); qi++) {
                candidates.putIfAbsent(
                        "claim " + Search.claimRef(inputs.claims().get(ci)) + ": leave out request "
                                + requests.get(qi).getName() + ": the other requests fit, not all of them together",
                        new Change.DropRequest(ci, requests.get(qi).getName()));
            }
        }
        for (int ci = 0; inputs.claims().size() > 1 && ci < inputs.claims().size(); ci++) {
            candidates.putIfAbsent(
                    "leave out claim " + Search.claimRef(inputs.claims().get(ci))
                            + ": the other claims fit on this node, not all of them together",
                    new Change.DropClaim(ci));
        }
    }

    /** Labels that the single-term node selectors of slices not matching the node ask for with In. */
    private Map<String, String> missingNodeLabels(Search search) {
        Map<String, String> nodeLabels =
                search.node.getMetadata() == null || search.node.getMetadata().getLabels() == null
                        ? Map.of()
                        : search.node.getMetadata().getLabels();
        Map<String, String> wanted = new LinkedHashMap<>();
        for (ResourceSlice s : inputs.slices()) {
            var sel = s.getSpec() == null ? null : s.getSpec().getNodeSelector();
            if (sel == null
                    || sel.getNodeSelectorTerms() == null
                    || sel.getNodeSelectorTerms().size() != 1
                    || sel.getNodeSelectorTerms().get(0).getMatchExpressions() == null) {
                continue;
            }
            for (var r : sel.getNodeSelectorTerms().get(0).getMatchExpressions()) {
                if ("In".equals(r.getOperator())
                        && r.getValues() != null
                        && !r.getValues().isEmpty()
                        && !r.getValues().contains(nodeLabels.get(r.getKey()))) {
                    wanted.putIfAbsent(r.getKey(), r.getValues().get(0));
                }
            }
        }
        return wanted;
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
        if (change instanceof Change.GuardSelector g) {
            return editRequest(
                    in,
                    g.claim(),
                    g.request(),
                    r -> r.selectors.set(
                            g.index(),
                            new DeviceSelectorBuilder()
                                    .withNewCel()
                                    .withExpression(g.expression())
                                    .endCel()
                                    .build()));
        }
        if (change instanceof Change.DropConstraint d) {
            return editClaim(
                    in,
                    d.claim(),
                    claim -> claim.getSpec().getDevices().getConstraints().remove(d.index()));
        }
        if (change instanceof Change.Release r) {
            AllocatedState s = in.state();
            Set<DeviceId> ids = new LinkedHashSet<>(s.allocatedDevices());
            r.devices().forEach(ids::remove);
            Set<AllocatedState.SharedDevice> shared = new LinkedHashSet<>(s.sharedDevices());
            shared.removeIf(sd -> r.devices().contains(sd.device()));
            Map<DeviceId, Map<String, KubeQuantity>> capacity = new LinkedHashMap<>(s.aggregatedCapacity());
            r.devices().forEach(capacity::remove);
            return new AllocatorInputs(
                    in.gates(),
                    new AllocatedState(ids, shared, capacity, s.owners()),
                    in.classes(),
                    in.slices(),
                    in.taintRules(),
                    in.node(),
                    in.claims());
        }
        if (change instanceof Change.DropRequest d) {
            return editClaim(in, d.claim(), claim -> {
                var devices = claim.getSpec().getDevices();
                devices.setRequests(new ArrayList<>(devices.getRequests()));
                devices.getRequests().removeIf(r -> d.request().equals(r.getName()));
                if (devices.getConstraints() != null) {
                    devices.getConstraints()
                            .removeIf(c -> c.getRequests() != null
                                    && !c.getRequests().isEmpty()
                                    && c.getRequests().stream()
                                            .allMatch(r -> r.equals(d.request()) || r.startsWith(d.request() + "/")));
                }
                if (devices.getConfig() != null) {
                    devices.setConfig(new ArrayList<>(devices.getConfig()));
                    devices.getConfig()
                            .removeIf(c -> c.getRequests() != null
                                    && !c.getRequests().isEmpty()
                                    && c.getRequests().stream()
                                            .allMatch(r -> r.equals(d.request()) || r.startsWith(d.request() + "/")));
                }
            });
        }
        if (change instanceof Change.DropClaim d) {
            List<ResourceClaim> claims = new ArrayList<>(in.claims());
            claims.remove(d.claim());
            return new AllocatorInputs(
                    in.gates(), in.state(), in.classes(), in.slices(), in.taintRules(), in.node(), claims);
        }
        if (change instanceof Change.RaiseCounters r) {
            return withMoreCounters(in, r.device());
        }
        if (change instanceof Change.CompletePool p) {
            return withCompletePool(in, p.driver(), p.pool());
        }
        if (change instanceof Change.DropClassSelector d) {
            List<DeviceClass> classes = new ArrayList<>();
            for (DeviceClass c : in.classes()) {
                if (c.getMetadata() != null
                        && d.deviceClass().equals(c.getMetadata().getName())
                        && c.getSpec() != null) {
                    List<DeviceSelector> selectors = new ArrayList<>(c.getSpec().getSelectors());
                    selectors.remove(d.index());
                    c = new DeviceClassBuilder(c)
                            .editSpec()
                            .withSelectors(selectors)
                            .endSpec()
                            .build();
                }
                classes.add(c);
            }
            return new AllocatorInputs(
                    in.gates(), in.state(), classes, in.slices(), in.taintRules(), in.node(), in.claims());
        }
        if (change instanceof Change.DropCapacityRequests d) {
            return editRequest(in, d.claim(), d.request(), r -> r.dropCapacity = true);
        }
        if (change instanceof Change.LabelNode l) {
            Map<String, String> labels = new LinkedHashMap<>(
                    in.node().getMetadata().getLabels() == null
                            ? Map.of()
                            : in.node().getMetadata().getLabels());
            labels.putAll(l.labels());
            Node node = new NodeBuilder(in.node())
                    .editMetadata()
                    .withLabels(labels)
                    .endMetadata()
                    .build();
            return new AllocatorInputs(
                    in.gates(), in.state(), in.classes(), in.slices(), in.taintRules(), node, in.claims());
        }
        Change.EnableGates g = (Change.EnableGates) change;
        FeatureGates gates = in.gates();
        for (DraFeature f : EnumSet.copyOf(g.gates())) {
            gates = gates.with(f, true);
        }
        return new AllocatorInputs(
                gates, in.state(), in.classes(), in.slices(), in.taintRules(), in.node(), in.claims());
    }

    /** The mutable parts of a request or subrequest that changes touch. */
    private static final class RequestEdit {
        List<DeviceToleration> tolerations;
        List<DeviceSelector> selectors;
        Long count;
        boolean dropCapacity;
    }

    private static AllocatorInputs editRequest(
            AllocatorInputs in, int ci, String requestName, Consumer<RequestEdit> edit) {
        return editClaim(in, ci, claim -> {
            String parent =
                    requestName.contains("/") ? requestName.substring(0, requestName.indexOf('/')) : requestName;
            String sub = requestName.contains("/") ? requestName.substring(requestName.indexOf('/') + 1) : null;
            for (DeviceRequest request : claim.getSpec().getDevices().getRequests()) {
                if (!parent.equals(request.getName())) {
                    continue;
                }
                RequestEdit e = new RequestEdit();
                if (sub == null) {
                    var exact = request.getExactly();
                    e.tolerations =
                            new ArrayList<>(exact.getTolerations() == null ? List.of() : exact.getTolerations());
                    e.selectors = new ArrayList<>(exact.getSelectors() == null ? List.of() : exact.getSelectors());
                    e.count = exact.getCount();
                    edit.accept(e);
                    exact.setTolerations(e.tolerations);
                    exact.setSelectors(e.selectors);
                    exact.setCount(e.count);
                    if (e.dropCapacity) {
                        exact.setCapacity(null);
                    }
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
                        if (e.dropCapacity) {
                            s.setCapacity(null);
                        }
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
            copy.getSpec()
                    .getDevices()
                    .setConstraints(new ArrayList<>(copy.getSpec().getDevices().getConstraints()));
        }
        edit.accept(copy);
        claims.set(ci, copy);
        return new AllocatorInputs(
                in.gates(), in.state(), in.classes(), in.slices(), in.taintRules(), in.node(), claims);
    }

    private static AllocatorInputs withCompletePool(AllocatorInputs in, String driver, String pool) {
        long newest = Long.MIN_VALUE;
        int published = 0;
        for (ResourceSlice s : in.slices()) {
            if (s.getSpec() != null
                    && driver.equals(s.getSpec().getDriver())
                    && s.getSpec().getPool() != null
                    && pool.equals(s.getSpec().getPool().getName())) {
                long g = s.getSpec().getPool().getGeneration() == null
                        ? 0
                        : s.getSpec().getPool().getGeneration();
                if (g > newest) {
                    newest = g;
                    published = 0;
                }
                if (g == newest) {
                    published++;
                }
            }
        }
        List<ResourceSlice> slices = new ArrayList<>();
        for (ResourceSlice s : in.slices()) {
            if (s.getSpec() != null
                    && driver.equals(s.getSpec().getDriver())
                    && s.getSpec().getPool() != null
                    && pool.equals(s.getSpec().getPool().getName())
                    && (s.getSpec().getPool().getGeneration() == null
                                    ? 0
                                    : s.getSpec().getPool().getGeneration())
                            == newest) {
                s = new ResourceSliceBuilder(s)
                        .editSpec()
                        .editPool()
                        .withResourceSliceCount((long) published)
                        .endPool()
                        .endSpec()
                        .build();
            }
            slices.add(s);
        }
        return new AllocatorInputs(
                in.gates(), in.state(), in.classes(), slices, in.taintRules(), in.node(), in.claims());
    }

    private static AllocatorInputs withMoreCounters(AllocatorInputs in, DeviceId id) {
        Map<String, Map<String, KubeQuantity>> consumption = new LinkedHashMap<>();
        for (ResourceSlice s : in.slices()) {
            if (s.getSpec() == null
                    || !id.driver().equals(s.getSpec().getDriver())
                    || s.getSpec().getPool() == null
                    || !id.pool().equals(s.getSpec().getPool().getName())
                    || s.getSpec().getDevices() == null) {
                continue;
            }
            for (Device d : s.getSpec().getDevices()) {
                if (id.device().equals(d.getName()) && d.getConsumesCounters() != null) {
                    for (DeviceCounterConsumption c : d.getConsumesCounters()) {
                        Map<String, KubeQuantity> m =
                                consumption.computeIfAbsent(c.getCounterSet(), k -> new LinkedHashMap<>());
                        c.getCounters()
                                .forEach((name, counter) -> m.put(name, KubeQuantity.fromFabric8(counter.getValue())));
                    }
                }
            }
        }
        List<ResourceSlice> slices = new ArrayList<>();
        for (ResourceSlice s : in.slices()) {
            var spec = s.getSpec();
            if (spec == null
                    || spec.getSharedCounters() == null
                    || spec.getSharedCounters().isEmpty()
                    || !id.driver().equals(spec.getDriver())
                    || spec.getPool() == null
                    || !id.pool().equals(spec.getPool().getName())) {
                slices.add(s);
                continue;
            }
            List<CounterSet> sets = new ArrayList<>();
            for (CounterSet set : spec.getSharedCounters()) {
                Map<String, Counter> counters =
                        new LinkedHashMap<>(set.getCounters() == null ? Map.of() : set.getCounters());
                consumption.getOrDefault(set.getName(), Map.of()).forEach((name, amount) -> {
                    Counter counter = counters.get(name);
                    if (counter != null) {
                        // Go's Quantity.Add: the raised counter keeps the format the driver wrote it in.
                        KubeQuantity raised =
                                KubeQuantity.fromFabric8(counter.getValue()).add(amount);
                        counters.put(
                                name,
                                new CounterBuilder()
                                        .withValue(new Quantity(raised.canonical()))
                                        .build());
                    }
                });
                sets.add(new CounterSetBuilder()
                        .withName(set.getName())
                        .withCounters(counters)
                        .build());
            }
            slices.add(new ResourceSliceBuilder(s)
                    .editSpec()
                    .withSharedCounters(sets)
                    .endSpec()
                    .build());
        }
        return new AllocatorInputs(
                in.gates(), in.state(), in.classes(), slices, in.taintRules(), in.node(), in.claims());
    }
}
