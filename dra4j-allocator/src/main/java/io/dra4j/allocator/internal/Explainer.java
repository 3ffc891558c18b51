package io.dra4j.allocator.internal;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.Explanation.Reason;
import io.dra4j.allocator.Explanation.Rejection;
import io.dra4j.allocator.Explanation.Stage;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.EvalResult;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Computes the candidate funnel of every request on a node, after the fact and apart from the search: explaining
 * never runs inside {@link Search}, so allocation pays nothing for it and its decisions cannot change. Each device
 * is checked stage by stage in the order the allocator applies the checks; the first failing check is its reason.
 */
public final class Explainer {
    static final int REJECTIONS_PER_REASON = 3;

    private final Search search;
    private final AllocationOutcome outcome;

    /** What the funnel of one request found, for the report and for the suggestions. */
    public record Funnel(
            RequestData request,
            List<Stage> stages,
            Map<Reason, List<Rejection>> rejections,
            Map<Reason, List<DeviceInfo>> rejected,
            Map<DeviceId, CheckStage> droppedAt,
            List<DeviceInfo> survivors,
            List<String> constraintNotes,
            int usable,
            String shortfall,
            String shortfallStage) {}

    Explainer(Search search, AllocationOutcome outcome) {
        this.search = search;
        this.outcome = outcome;
    }

    /** Everything except the suggestions, which {@link Suggestions} adds by re-running the allocator. */
    public static Analysis analyze(Search search, AllocationOutcome outcome) {
        try {
            search.prepareAll();
        } catch (AllocationException e) {
            return new Analysis(search, List.of(), poolNotes(search), e.getMessage(), e.selectorFailure());
        }
        return new Explainer(search, outcome).run();
    }

    /** The funnels of all requests plus the decisive reason. */
    /**
     * @param preparationFailure why the search could not even be prepared (then there are no funnels), when it was a
     *                           selector that failed on a device
     */
    public record Analysis(
            Search search,
            List<List<List<Funnel>>> funnels,
            List<Explanation.PoolNote> pools,
            String decisive,
            Optional<AllocationException.SelectorFailure> preparationFailure) {}

    private Analysis run() {
        List<List<List<Funnel>>> all = new ArrayList<>();
        String firstShortfall = null;
        for (int ci = 0; ci < search.claims.size(); ci++) {
            List<List<Funnel>> perRequest = new ArrayList<>();
            for (RequestData[] alternatives : search.requests[ci]) {
                List<Funnel> funnels = new ArrayList<>();
                boolean anyFits = false;
                String shortfall = null;
                for (RequestData rd : alternatives) {
                    Funnel f = funnel(ci, rd);
                    funnels.add(f);
                    if (f.shortfall() == null) {
                        anyFits = true;
                    } else if (shortfall == null) {
                        shortfall = "claim " + Search.claimRef(search.claims.get(ci)) + ", request " + rd.fullName()
                                + ": " + f.shortfall();
                    }
                }
                if (!anyFits && firstShortfall == null) {
                    firstShortfall = shortfall;
                }
                perRequest.add(funnels);
            }
            all.add(perRequest);
        }
        String decisive;
        if (outcome instanceof AllocationOutcome.Failed failed) {
            decisive = failed.message();
        } else if (outcome instanceof AllocationOutcome.Allocated) {
            decisive = "allocated: every request got its devices on node " + search.nodeName;
        } else if (firstShortfall != null) {
            decisive = firstShortfall;
            List<Explanation.PoolNote> unusable = poolNotes(search);
            if (!unusable.isEmpty()) {
                decisive += "; pool " + unusable.get(0).pool() + " is "
                        + unusable.get(0).problem();
            }
        } else {
            decisive = JointDemand.shortage(search, all)
                    .orElse("every request has enough usable devices on its own, but not all together: requests "
                            + "compete for the same devices, shared counters or capacity, or a constraint across "
                            + "requests cannot be met");
        }
        return new Analysis(search, all, poolNotes(search), decisive, Optional.empty());
    }

    static List<Explanation.PoolNote> poolNotes(Search search) {
        List<Explanation.PoolNote> notes = new ArrayList<>();
        if (search.pools == null) {
            return notes;
        }
        for (Pool p : search.pools) {
            if (p.incomplete()) {
                notes.add(new Explanation.PoolNote(
                        p.id().toString(), "incomplete (being updated): " + p.incompleteDetail()));
            } else if (p.invalid()) {
                notes.add(new Explanation.PoolNote(p.id().toString(), "invalid: " + p.invalidReason()));
            }
        }
        return notes;
    }

    // Phase: the funnel. Stages run in the search's own order of checks (CheckStage.order, the one list for both),
    // so the first stage that drops a device is the check at which the search rejects it. Constraints appear as a
    // stage only where one covers the request: there a device is dropped that the constraint refuses as the first
    // device of its request, as allocateDevice asks it.
    private Funnel funnel(int ci, RequestData rd) {
        List<Stage> stages = new ArrayList<>();
        Map<Reason, List<Rejection>> rejections = new EnumMap<>(Reason.class);
        Map<Reason, List<DeviceInfo>> rejected = new EnumMap<>(Reason.class);
        Map<DeviceId, CheckStage> droppedAt = new LinkedHashMap<>();
        List<DeviceInfo> alive = new ArrayList<>(List.of(search.candidates()));
        Map<DeviceInfo, Integer> positionOf = new IdentityHashMap<>();
        for (int i = 0; i < search.candidates().length; i++) {
            positionOf.put(search.candidates()[i], i);
        }
        List<DeviceInfo> universe = rd.allMode() ? null : alive;
        stages.add(new Stage(CheckStage.POOLS, alive.size()));
        boolean constrained = false;
        for (Constraint c : search.constraints(ci)) {
            constrained |= c.appliesTo(rd);
        }
        Drops drops = new Drops(alive, stages, rejections, rejected, droppedAt);
        int selected = alive.size();
        for (CheckStage stage : CheckStage.order(rd.allMode())) {
            if (stage == CheckStage.CONSTRAINTS && !constrained
                    || stage == CheckStage.STATIC_CAPACITY && !search.f.consumableCapacity()) {
                continue;
            }
            drops.filter(stage, d -> {
                int pos = positionOf.get(d);
                return check(stage, ci, rd, d, search.candidatePools()[pos], pos);
            });
            if (stage == CheckStage.NODE_SELECTION || stage == CheckStage.STATIC_CAPACITY) {
                // The devices an All-mode request lists and must all take (PrePass.enumerateAll).
                selected = alive.size();
            }
        }

        List<String> constraintNotes = new ArrayList<>();
        int best = alive.size();
        String constraintShortfall = null;
        for (Constraint c : search.constraints(ci)) {
            if (!c.appliesTo(rd)) {
                continue;
            }
            String kind = kind(c);
            List<DeviceInfo> with = alive;
            int fit;
            String note;
            if (c instanceof Constraint.Match) {
                Map<String, Integer> groups = groups(with, c.attributeName);
                String value = null;
                int max = 0;
                for (Map.Entry<String, Integer> e : groups.entrySet()) {
                    if (e.getValue() > max) {
                        max = e.getValue();
                        value = e.getKey();
                    }
                }
                fit = max;
                note = kind + " " + c.attributeName + ": at most " + max + " device(s) share one value"
                        + (value == null ? "" : " (" + value + ")");
            } else {
                fit = groups(with, c.attributeName).size();
                note = kind + " " + c.attributeName + ": " + fit + " distinct value(s) among the candidates";
            }
            constraintNotes.add(note);
            if (fit < best) {
                best = fit;
                if (!rd.allMode() && fit < rd.numDevices && constraintShortfall == null) {
                    constraintShortfall = note + ", " + rd.numDevices + " requested";
                }
            }
        }

        String shortfall = null;
        String shortfallStage = null;
        if (rd.allMode()) {
            if (selected == 0 && stageCount(stages, CheckStage.NODE_SELECTION.label()) > 0) {
                shortfall = "allocationMode All needs at least one device, and none that passes the selectors has"
                        + " the requested capacity of its own";
                shortfallStage = CheckStage.STATIC_CAPACITY.label();
            } else if (selected == 0) {
                shortfall = "allocationMode All needs at least one device, and none passes the selectors";
                shortfallStage = "request selectors";
            } else if (alive.size() < selected) {
                shortfallStage = firstStageBelow(stages, selected);
                shortfall = "allocationMode All must take all " + selected + " selected devices, but only "
                        + alive.size() + " are usable (" + shortfallStage + ")";
            }
        } else if (alive.size() < rd.numDevices) {
            shortfallStage = firstStageBelow(stages, rd.numDevices);
            int left = stageCount(stages, shortfallStage);
            shortfall = rd.numDevices + " device(s) requested, "
                    + (shortfallStage.equals(stages.get(0).stage())
                            ? (left == 0 ? "none" : "only " + left) + " in usable pools on node " + search.nodeName
                            : left + " left after " + shortfallStage)
                    + firstDetail(rejections);
        } else if (constraintShortfall != null) {
            shortfallStage = "constraints";
            shortfall = constraintShortfall;
        }
        if (universe != null && universe.isEmpty() && shortfall == null && rd.numDevices > 0) {
            shortfall = "no device on this node";
        }
        return new Funnel(
                rd, stages, rejections, rejected, droppedAt, alive, constraintNotes, best, shortfall, shortfallStage);
    }

    // One stage's check of one device, in the terms the search uses for it: null when the device passes. In use:
    // admin access never conflicts with other claims. Capacity: checked against what earlier allocations consume.
    // Constraints: each covering constraint is asked to take the device as the first of its request, and let go.
    private Rejection check(CheckStage stage, int ci, RequestData rd, DeviceInfo d, Pool pool, int pos) {
        EngineFeatures f = search.f;
        return switch (stage) {
            case IN_USE ->
                !rd.adminAccess && search.persistedExclusive(pos)
                        ? rej(
                                Reason.IN_USE,
                                d,
                                search.owner(d) != null
                                        ? "allocated to claim " + search.owner(d)
                                        : "allocated to another claim")
                        : null;
            case BINDING_CONDITIONS ->
                !f.bindingAndStatus() && d.hasBindingConditions
                        ? rej(
                                Reason.BINDING_CONDITIONS_DISABLED,
                                d,
                                "the device has binding conditions, but DRADeviceBindingConditions and DRAResourceClaimDeviceStatus are not both on")
                        : null;
            case CLASS_SELECTORS -> selectorRejection(ci, rd, d, true);
            case REQUEST_SELECTORS -> selectorRejection(ci, rd, d, false);
            case NODE_SELECTION -> nodeSelectionRejection(d);
            case STATIC_CAPACITY -> staticCapacityRejection(rd, d);
            case CAPACITY -> capacityRejection(rd, d, pos);
            case NODE_OPERATIONS ->
                search.nodeOperationsUnsupported(d)
                        ? rej(
                                Reason.NODE_OPERATIONS,
                                d,
                                "its slice lets the node skip operations ("
                                        + String.join(", ", d.slice.skipNodeOperations)
                                        + "), which needs DRAOptionalNodeOperations on and declared by node "
                                        + search.nodeName)
                        : null;
            case PARTITIONABLE_GATE ->
                !f.partitionableDevices() && d.consumesCounters()
                        ? rej(
                                Reason.PARTITIONABLE_DISABLED,
                                d,
                                "the device consumes shared counters, but DRAPartitionableDevices is off")
                        : null;
            case COUNTERS -> search.countersFit(pos) ? null : counterRejection(d, pool);
            case TAINTS -> taintRejection(rd, d);
            case CONSTRAINTS -> constraintRejection(ci, rd, d, pos);
        };
    }

    private Rejection nodeSelectionRejection(DeviceInfo d) {
        if (!Boolean.TRUE.equals(d.slice.perDeviceNodeSelection)) {
            return null;
        }
        try {
            return NodeSelectors.nodeMatches(
                            search.node,
                            d.device.getNodeName(),
                            Boolean.TRUE.equals(d.device.getAllNodes()),
                            d.device.getNodeSelector())
                    ? null
                    : rej(
                            Reason.NODE_SELECTION,
                            d,
                            "the device's own node selection does not match node " + search.nodeName);
        } catch (NodeSelectors.InvalidSelectorException e) {
            return rej(Reason.NODE_SELECTION, d, "its node selector does not parse: " + e.getMessage());
        }
    }

    private Rejection staticCapacityRejection(RequestData rd, DeviceInfo d) {
        try {
            return search.staticCapacityFits(rd, d) ? null : rej(Reason.CAPACITY, d, capacityText(rd, d, false));
        } catch (ConsumableCapacity.CapacityException e) {
            return rej(Reason.CAPACITY, d, e.getMessage());
        }
    }

    private Rejection capacityRejection(RequestData rd, DeviceInfo d, int pos) {
        if (!search.f.consumableCapacity()) {
            return null;
        }
        try {
            return search.capacityFits(rd, pos) ? null : rej(Reason.CAPACITY, d, capacityText(rd, d, true));
        } catch (ConsumableCapacity.CapacityException e) {
            return rej(Reason.CAPACITY, d, e.getMessage());
        }
    }

    private Rejection taintRejection(RequestData rd, DeviceInfo d) {
        if (!search.f.deviceTaints()) {
            return null;
        }
        DeviceTaint t = Search.preventingTaint(d, rd);
        return t == null ? null : rej(Reason.TAINT, d, "taint " + taintText(t) + " is not tolerated");
    }

    private Rejection constraintRejection(int ci, RequestData rd, DeviceInfo d, int pos) {
        List<Constraint> constraints = search.constraints(ci);
        Rejection refused = null;
        int added = 0;
        for (Constraint c : constraints) {
            if (!c.add(rd, pos, d)) {
                refused = rej(
                        Reason.CONSTRAINT,
                        d,
                        (Constraint.lookup(d, c.attributeName) == null
                                        ? "no attribute " + c.attributeName
                                        : "attribute " + c.attributeName + " has no value it can compare")
                                + " (" + kind(c) + ")");
                break;
            }
            added++;
        }
        for (int i = added - 1; i >= 0; i--) {
            constraints.get(i).remove(rd, d);
        }
        return refused;
    }

    private static String kind(Constraint c) {
        return c instanceof Constraint.Match ? "matchAttribute" : "distinctAttribute";
    }

    private static String firstStageBelow(List<Stage> stages, int needed) {
        for (Stage s : stages) {
            if (s.remaining() < needed) {
                return s.stage();
            }
        }
        return stages.get(stages.size() - 1).stage();
    }

    private static int stageCount(List<Stage> stages, String name) {
        for (Stage s : stages) {
            if (s.stage().equals(name)) {
                return s.remaining();
            }
        }
        return 0;
    }

    private static String firstDetail(Map<Reason, List<Rejection>> rejections) {
        Rejection last = null;
        for (List<Rejection> l : rejections.values()) {
            if (!l.isEmpty()) {
                last = l.get(0);
            }
        }
        return last == null ? "" : "; e.g. " + last.device() + ": " + last.detail();
    }

    private static Map<String, Integer> groups(List<DeviceInfo> devices, String attribute) {
        Map<String, Integer> groups = new LinkedHashMap<>();
        for (DeviceInfo d : devices) {
            DeviceAttribute a = Constraint.lookup(d, attribute);
            Constraint.TypedSet set = Constraint.TypedSet.of(a);
            if (set == null) {
                continue;
            }
            for (Object v : set.elements()) {
                groups.merge(attribute + "=" + v, 1, Integer::sum);
            }
        }
        return groups;
    }

    /** The funnel's state while stages drop devices: what is left, and what each stage dropped and why. */
    private record Drops(
            List<DeviceInfo> alive,
            List<Stage> stages,
            Map<Reason, List<Rejection>> rejections,
            Map<Reason, List<DeviceInfo>> rejected,
            Map<DeviceId, CheckStage> droppedAt) {
        void filter(CheckStage stage, java.util.function.Function<DeviceInfo, Rejection> check) {
            alive.removeIf(d -> {
                Rejection r = check.apply(d);
                if (r == null) {
                    return false;
                }
                add(rejections, r);
                rejected.computeIfAbsent(r.reason(), k -> new ArrayList<>()).add(d);
                droppedAt.put(d.id, stage);
                return true;
            });
            stages.add(new Stage(stage.label(), alive.size()));
        }
    }

    private static void add(Map<Reason, List<Rejection>> rejections, Rejection r) {
        List<Rejection> l = rejections.computeIfAbsent(r.reason(), k -> new ArrayList<>());
        if (l.size() < REJECTIONS_PER_REASON) {
            l.add(r);
        }
    }

    private static Rejection rej(Reason reason, DeviceInfo d, String detail) {
        return new Rejection(reason, d.id, detail);
    }

    private Rejection selectorRejection(int ci, RequestData rd, DeviceInfo d, boolean classSelectors) {
        List<DeviceSelector> selectors = classSelectors ? rd.classSelectors() : rd.selectors;
        for (int i = 0; i < selectors.size(); i++) {
            String owner = classSelectors ? "class " + rd.className : "claim " + Search.claimRef(search.claims.get(ci));
            DeviceSelector sel = selectors.get(i);
            String text = sel.getCel() == null || sel.getCel().getExpression() == null
                    ? ""
                    : sel.getCel().getExpression();
            CompiledExpression expr = search.view.cel.compile(text);
            if (expr.compileError().isPresent()) {
                return rej(
                        Reason.SELECTOR_ERROR,
                        d,
                        owner + " selector #" + i + " does not compile: "
                                + expr.compileError().get());
            }
            EvalResult r = d.evaluate(expr, search.view.cel);
            if (r instanceof EvalResult.Failed failed) {
                return rej(Reason.SELECTOR_ERROR, d, owner + " selector #" + i + " fails: " + failed.message());
            }
            if (!((EvalResult.Matched) r).value()) {
                return rej(
                        classSelectors ? Reason.CLASS_SELECTOR : Reason.REQUEST_SELECTOR,
                        d,
                        owner + " selector #" + i + " `" + text + "` is false; the device has " + attributesText(d));
            }
        }
        return null;
    }

    // The search's reservation failed: name a counter the device needs more of than is free, else one that earlier
    // allocations already overdrew (a reservation checks every counter of the pool, as upstream).
    private Rejection counterRejection(DeviceInfo d, Pool pool) {
        Map<String, Map<String, BigDecimal>> available = search.availableCounters(pool);
        for (DeviceInfo.CounterConsumption cc : d.consumesCounters) {
            Map<String, BigDecimal> set = available.getOrDefault(cc.counterSet(), Map.of());
            for (Map.Entry<String, BigDecimal> e : cc.counters().entrySet()) {
                BigDecimal free = set.getOrDefault(e.getKey(), BigDecimal.ZERO);
                if (free.compareTo(e.getValue()) < 0) {
                    return rej(
                            Reason.COUNTERS,
                            d,
                            "counter set " + cc.counterSet() + ": " + e.getKey() + " needs "
                                    + quantityText(e.getValue(), cc.formats().get(e.getKey())) + ", "
                                    + quantityText(free, counterFormat(pool, cc.counterSet(), e.getKey()))
                                    + " free");
                }
            }
        }
        for (Map.Entry<String, Map<String, BigDecimal>> set : available.entrySet()) {
            for (Map.Entry<String, BigDecimal> e : set.getValue().entrySet()) {
                if (e.getValue().signum() < 0) {
                    return rej(
                            Reason.COUNTERS,
                            d,
                            "counter set " + set.getKey() + ": " + e.getKey() + " is overdrawn by earlier allocations ("
                                    + quantityText(e.getValue(), counterFormat(pool, set.getKey(), e.getKey()))
                                    + " free)");
                }
            }
        }
        return rej(Reason.COUNTERS, d, "the shared counters of pool " + pool.id() + " do not suffice");
    }

    /** What the device offers against the request: its free capacity, or with consumed false its own capacity. */
    private String capacityText(RequestData rd, DeviceInfo d, boolean consumed) {
        StringBuilder sb = new StringBuilder("capacity short:");
        var persisted = consumed ? search.persistedCapacityQuantities(d) : null;
        for (DeviceInfo.CapacityInfo cap : d.capacity.values()) {
            var asked = rd.capacityRequests == null ? null : rd.capacityRequests.get(cap.name());
            KubeQuantity used = persisted == null ? null : persisted.get(cap.name());
            sb.append(' ')
                    .append(cap.name())
                    .append(" asked ")
                    .append(asked == null ? "(default)" : asked.canonical())
                    .append(", free ")
                    .append(freeText(cap.value(), used))
                    .append(';');
        }
        if (rd.capacityRequests != null) {
            for (String name : rd.capacityRequests.keySet()) {
                if (!d.capacity.containsKey(name)) {
                    sb.append(' ').append(name).append(" is not a capacity of the device;");
                }
            }
        }
        return sb.substring(0, sb.length() - 1);
    }

    /**
     * The free amount of a capacity as a canonical quantity, like the amount asked: the capacity less what is
     * consumed ({@code used} null for none), with Go's Sub keeping the capacity's format.
     */
    static String freeText(KubeQuantity capacity, KubeQuantity used) {
        return (used == null ? capacity : capacity.sub(used)).canonical();
    }

    /**
     * An amount as a canonical quantity in the given format (null: decimal), as the capacity texts print theirs: the
     * amount a device consumes in the format it was written in, what a counter has free in the counter's format (what
     * Go's Sub keeps).
     */
    static String quantityText(BigDecimal amount, KubeQuantity.Format format) {
        return KubeQuantity.of(amount, format == null ? KubeQuantity.Format.DECIMAL_SI : format)
                .canonical();
    }

    /** The format a counter of the pool was written in; null when the pool has no such counter. */
    private static KubeQuantity.Format counterFormat(Pool pool, String counterSet, String counter) {
        return pool.counterFormats().getOrDefault(counterSet, Map.of()).get(counter);
    }

    static String taintText(DeviceTaint t) {
        return t.getKey() + (t.getValue() == null || t.getValue().isEmpty() ? "" : "=" + t.getValue()) + ":"
                + t.getEffect();
    }

    private static String attributesText(DeviceInfo d) {
        if (d.attributes.isEmpty()) {
            return "no attributes";
        }
        StringBuilder sb = new StringBuilder();
        int n = 0;
        for (Map.Entry<String, DeviceAttribute> e : new java.util.TreeMap<>(d.attributes).entrySet()) {
            if (n++ == 6) {
                sb.append(", ...");
                break;
            }
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(e.getKey()).append('=').append(attributeValue(e.getValue()));
        }
        return sb.toString();
    }

    private static String attributeValue(DeviceAttribute a) {
        if (a.getString() != null) {
            return "\"" + a.getString() + "\"";
        }
        if (a.getInt() != null) {
            return a.getInt().toString();
        }
        if (a.getBool() != null) {
            return a.getBool().toString();
        }
        if (a.getVersion() != null) {
            return "v" + a.getVersion();
        }
        Constraint.TypedSet s = Constraint.TypedSet.of(a);
        return s == null ? "(no value)" : s.elements().toString();
    }

    /** For an allocated claim: the devices a request got and why they came first in the search order. */
    static List<String> chosen(Search search, Funnel funnel, List<DeviceRequestAllocationResult> results) {
        List<String> out = new ArrayList<>();
        DeviceInfo[] candidates = search.candidates();
        for (DeviceRequestAllocationResult r : results) {
            if (!funnel.request().fullName().equals(r.getRequest())) {
                continue;
            }
            int position = -1;
            for (int i = 0; i < candidates.length; i++) {
                DeviceInfo d = candidates[i];
                if (d.id.driver().equals(r.getDriver())
                        && d.id.pool().equals(r.getPool())
                        && d.id.device().equals(r.getDevice())) {
                    position = i;
                    break;
                }
            }
            int skipped = 0;
            for (int i = 0; i < position; i++) {
                if (!funnel.survivors().contains(candidates[i])) {
                    skipped++;
                }
            }
            out.add(r.getDriver() + "/" + r.getPool() + "/" + r.getDevice() + ": candidate " + (position + 1) + " of "
                    + candidates.length
                    + " in search order (pools by driver and name, slices by name, devices in slice order); "
                    + skipped + " earlier candidate(s) could not serve this request");
        }
        return out;
    }

    /** Builds the public report of one claim. */
    public static Explanation.ClaimReport report(
            Search search, int ci, List<List<Funnel>> funnels, AllocationOutcome outcome) {
        ResourceClaim claim = search.claims.get(ci);
        List<Explanation.RequestReport> requests = new ArrayList<>();
        List<DeviceRequestAllocationResult> results = outcome instanceof AllocationOutcome.Allocated a
                ? a.results().get(ci).getDevices().getResults()
                : List.of();
        for (List<Funnel> alternatives : funnels) {
            for (Funnel f : alternatives) {
                List<Rejection> rejections = new ArrayList<>();
                f.rejections().values().forEach(rejections::addAll);
                requests.add(new Explanation.RequestReport(
                        f.request().fullName(),
                        f.request().allMode() ? -1 : f.request().numDevices,
                        f.stages(),
                        rejections,
                        f.constraintNotes(),
                        chosen(search, f, results),
                        f.shortfall()));
            }
        }
        return new Explanation.ClaimReport(
                claim.getMetadata() == null ? "" : claim.getMetadata().getName(), requests);
    }
}
