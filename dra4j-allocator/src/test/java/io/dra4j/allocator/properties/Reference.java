package io.dra4j.allocator.properties;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.DraFeature;
import io.dra4j.cel.CelDevice;
import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.EvalResult;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An independent, deliberately plain model of upstream's allocation rules (allocator-semantics.md §3) for the
 * generated scenarios: which devices a node can use, what a request selects, what a device consumes, and whether
 * a set of chosen devices respects exclusivity, counters, capacity, taints and constraints. It shares no code with
 * the allocator apart from the CEL environment, which it uses only to evaluate selectors.
 */
final class Reference {
    private static final DeviceSelectorEnvironment CEL = DeviceSelectorEnvironment.create(new CelFeatures(true, false));

    final Inputs in;
    final boolean taints;
    final boolean partitionable;
    final boolean consumable;
    private final Map<DeviceId, Inputs.PublishedDevice> byId = new LinkedHashMap<>();
    private final Map<String, DeviceClass> classes = new HashMap<>();
    private final Map<DeviceId, CelDevice> celDevices = new HashMap<>();

    /** A request or the subrequest of a firstAvailable request, as results name it ({@code r} or {@code r/s}). */
    record Effective(
            String name,
            String parent,
            String className,
            List<DeviceSelector> selectors,
            List<DeviceToleration> tolerations,
            boolean all,
            long count,
            boolean admin,
            Map<String, Quantity> capacity) {}

    /** One chosen device: claim index, the request it serves, the device. */
    record Choice(int claim, Effective request, Inputs.PublishedDevice device) {}

    Reference(Inputs in) {
        this.in = in;
        this.taints = in.gates().isEnabled(DraFeature.DRADeviceTaints);
        this.partitionable = in.gates().isEnabled(DraFeature.DRAPartitionableDevices);
        this.consumable = in.gates().isEnabled(DraFeature.DRAConsumableCapacity);
        for (Inputs.PublishedDevice d : in.devices()) {
            byId.put(d.id(), d);
        }
        for (DeviceClass c : in.classes()) {
            classes.put(c.getMetadata().getName(), c);
        }
    }

    Inputs.PublishedDevice device(DeviceId id) {
        return byId.get(id);
    }

    // ---- Visibility --------------------------------------------------------------------------------------------

    /** A slice is seen from the node when it names the node or all nodes. */
    static boolean targetsNode(ResourceSlice s) {
        return Menus.NODE.equals(s.getSpec().getNodeName())
                || Boolean.TRUE.equals(s.getSpec().getAllNodes());
    }

    /** All slices of the pool are published (all generated slices of a pool share one generation). */
    boolean poolComplete(String pool) {
        long published = 0;
        long declared = -1;
        for (ResourceSlice s : in.slices()) {
            if (s.getSpec().getPool().getName().equals(pool)) {
                published++;
                declared = s.getSpec().getPool().getResourceSliceCount();
            }
        }
        return published == declared;
    }

    /** Devices the allocator may consider on the node: in a device slice it sees, of a complete pool. */
    List<Inputs.PublishedDevice> candidates() {
        List<Inputs.PublishedDevice> out = new ArrayList<>();
        for (Inputs.PublishedDevice d : in.devices()) {
            if (targetsNode(d.slice()) && poolComplete(d.id().pool())) {
                out.add(d);
            }
        }
        return out;
    }

    boolean multi(Inputs.PublishedDevice d) {
        return consumable && Boolean.TRUE.equals(d.device().getAllowMultipleAllocations());
    }

    // ---- Requests ----------------------------------------------------------------------------------------------

    /** The request or subrequest a result names, from the claim spec. */
    static Effective effective(ResourceClaim claim, String resultName) {
        int slash = resultName.indexOf('/');
        String requestName = slash < 0 ? resultName : resultName.substring(0, slash);
        for (DeviceRequest r : claim.getSpec().getDevices().getRequests()) {
            if (!r.getName().equals(requestName)) {
                continue;
            }
            if (slash < 0) {
                ExactDeviceRequest e = r.getExactly();
                return new Effective(
                        resultName,
                        null,
                        e.getDeviceClassName(),
                        nz(e.getSelectors()),
                        nz(e.getTolerations()),
                        "All".equals(e.getAllocationMode()),
                        e.getCount() == null ? 1 : e.getCount(),
                        Boolean.TRUE.equals(e.getAdminAccess()),
                        e.getCapacity() == null ? null : e.getCapacity().getRequests());
            }
            for (DeviceSubRequest s : r.getFirstAvailable()) {
                if (s.getName().equals(resultName.substring(slash + 1))) {
                    return new Effective(
                            resultName,
                            requestName,
                            s.getDeviceClassName(),
                            nz(s.getSelectors()),
                            nz(s.getTolerations()),
                            "All".equals(s.getAllocationMode()),
                            s.getCount() == null ? 1 : s.getCount(),
                            false,
                            s.getCapacity() == null ? null : s.getCapacity().getRequests());
                }
            }
        }
        return null;
    }

    /** The requests of a claim, or for a firstAvailable request its subrequests in order. */
    static List<List<Effective>> requests(ResourceClaim claim) {
        List<List<Effective>> out = new ArrayList<>();
        for (DeviceRequest r : claim.getSpec().getDevices().getRequests()) {
            List<Effective> alternatives = new ArrayList<>();
            if (r.getFirstAvailable() == null || r.getFirstAvailable().isEmpty()) {
                alternatives.add(effective(claim, r.getName()));
            } else {
                for (DeviceSubRequest s : r.getFirstAvailable()) {
                    alternatives.add(effective(claim, r.getName() + "/" + s.getName()));
                }
            }
            out.add(alternatives);
        }
        return out;
    }

    /** Class selectors and request selectors, evaluated with the CEL environment; an evaluation error throws. */
    boolean selects(Effective r, Inputs.PublishedDevice d) {
        DeviceClass c = classes.get(r.className());
        List<DeviceSelector> all = new ArrayList<>(nz(c.getSpec().getSelectors()));
        all.addAll(r.selectors());
        CelDevice device = celDevices.computeIfAbsent(d.id(), id -> CEL.device(id.driver(), d.device()));
        for (DeviceSelector s : all) {
            EvalResult result = CEL.compile(s.getCel().getExpression()).evaluate(device);
            if (result instanceof EvalResult.Failed f) {
                throw new IllegalStateException(
                        "selector " + s.getCel().getExpression() + " fails on " + d.id() + ": " + f.message());
            }
            if (!((EvalResult.Matched) result).value()) {
                return false;
            }
        }
        return true;
    }

    /** The device's own taints and, with DRADeviceTaintRules on, those of the DeviceTaintRules that select it. */
    List<DeviceTaint> taints(Inputs.PublishedDevice d) {
        List<DeviceTaint> out = new ArrayList<>(nz(d.device().getTaints()));
        if (in.gates().isEnabled(DraFeature.DRADeviceTaintRules)) {
            for (DeviceTaintRule rule : in.taintRules()) {
                DeviceTaintSelector s = rule.getSpec().getDeviceSelector();
                if ((s.getDriver() == null || s.getDriver().equals(d.id().driver()))
                        && (s.getPool() == null || s.getPool().equals(d.id().pool()))
                        && (s.getDevice() == null || s.getDevice().equals(d.id().device()))) {
                    out.add(rule.getSpec().getTaint());
                }
            }
        }
        return out;
    }

    /** Every NoSchedule/NoExecute taint is tolerated, or taints are off. */
    boolean taintsTolerated(Effective r, Inputs.PublishedDevice d) {
        if (!taints) {
            return true;
        }
        for (DeviceTaint t : taints(d)) {
            if (!"NoSchedule".equals(t.getEffect()) && !"NoExecute".equals(t.getEffect())) {
                continue;
            }
            boolean tolerated = false;
            for (DeviceToleration tol : r.tolerations()) {
                boolean effect = tol.getEffect() == null || tol.getEffect().equals(t.getEffect());
                boolean key = tol.getKey() == null || tol.getKey().equals(t.getKey());
                boolean value = "Exists".equals(tol.getOperator())
                        || (("Equal".equals(tol.getOperator()) || tol.getOperator() == null)
                                && Objects.equals(nz(tol.getValue()), nz(t.getValue())));
                tolerated |= effect && key && value;
            }
            if (!tolerated) {
                return false;
            }
        }
        return true;
    }

    // ---- Capacity ----------------------------------------------------------------------------------------------

    static BigDecimal amount(Quantity q) {
        return Quantity.getAmountInBytes(q);
    }

    /**
     * What serving request r on device d consumes of each capacity (upstream's rules for an unrequested capacity,
     * the default or the whole value; for a requested one, rounded up by the policy), or null when the request
     * names a capacity the device lacks or the amount breaks the device's request policy.
     */
    static Map<String, BigDecimal> consumption(Effective r, Device d) {
        Map<String, DeviceCapacity> caps = d.getCapacity() == null ? Map.of() : d.getCapacity();
        if (r.capacity() != null && !caps.keySet().containsAll(r.capacity().keySet())) {
            return null;
        }
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        for (Map.Entry<String, DeviceCapacity> e : caps.entrySet()) {
            CapacityRequestPolicy p = e.getValue().getRequestPolicy();
            Quantity requested = r.capacity() == null ? null : r.capacity().get(e.getKey());
            BigDecimal consumed;
            if (requested == null) {
                consumed = amount(
                        p != null && p.getDefault() != null
                                ? p.getDefault()
                                : e.getValue().getValue());
            } else if (p == null) {
                consumed = amount(requested);
            } else if (p.getValidRange() != null) {
                BigDecimal q = amount(requested);
                BigDecimal min = amount(p.getValidRange().getMin());
                BigDecimal step = amount(p.getValidRange().getStep());
                if (q.compareTo(min) <= 0) {
                    consumed = min;
                } else {
                    BigDecimal steps = q.subtract(min).divide(step, 0, java.math.RoundingMode.CEILING);
                    consumed = min.add(step.multiply(steps));
                }
                if (p.getValidRange().getMax() != null
                        && consumed.compareTo(amount(p.getValidRange().getMax())) > 0) {
                    return null;
                }
            } else {
                BigDecimal q = amount(requested);
                consumed = null;
                for (Quantity v : p.getValidValues()) {
                    if (q.compareTo(amount(v)) <= 0) {
                        consumed = amount(v);
                        break;
                    }
                }
                if (consumed == null) {
                    return null;
                }
            }
            out.put(e.getKey(), consumed);
        }
        return out;
    }

    /** Consumption fits the device when nothing else uses it (used for the device list of All requests). */
    static boolean fitsAlone(Effective r, Device d) {
        Map<String, BigDecimal> c = consumption(r, d);
        if (c == null) {
            return false;
        }
        for (Map.Entry<String, BigDecimal> e : c.entrySet()) {
            if (e.getValue().compareTo(amount(d.getCapacity().get(e.getKey()).getValue())) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Capacity already consumed by persisted shares of the device. */
    Map<String, BigDecimal> persistedCapacity(DeviceId id) {
        Map<String, BigDecimal> out = new HashMap<>();
        var persisted = in.state().aggregatedCapacity().get(id);
        if (persisted != null) {
            persisted.forEach((k, v) -> out.put(k, v.value()));
        }
        return out;
    }

    boolean capacityInUsePersisted(DeviceId id) {
        if (in.state().aggregatedCapacity().containsKey(id)) {
            return true;
        }
        for (AllocatedState.SharedDevice s : in.state().sharedDevices()) {
            if (s.device().equals(id)) {
                return true;
            }
        }
        return false;
    }

    // ---- Counters ----------------------------------------------------------------------------------------------

    static Map<String, Map<String, BigDecimal>> consumesCounters(Device d) {
        Map<String, Map<String, BigDecimal>> out = new LinkedHashMap<>();
        if (d.getConsumesCounters() != null) {
            for (DeviceCounterConsumption c : d.getConsumesCounters()) {
                Map<String, BigDecimal> set = out.computeIfAbsent(c.getCounterSet(), k -> new LinkedHashMap<>());
                c.getCounters().forEach((k, v) -> set.merge(k, amount(v.getValue()), BigDecimal::add));
            }
        }
        return out;
    }

    /** The pool's counter sets minus what the devices already allocated (persisted) consume. */
    Map<String, Map<String, BigDecimal>> availableCounters(String pool) {
        Map<String, Map<String, BigDecimal>> out = new LinkedHashMap<>();
        for (ResourceSlice s : in.slices()) {
            if (!s.getSpec().getPool().getName().equals(pool) || s.getSpec().getSharedCounters() == null) {
                continue;
            }
            for (CounterSet cs : s.getSpec().getSharedCounters()) {
                Map<String, BigDecimal> set = out.computeIfAbsent(cs.getName(), k -> new LinkedHashMap<>());
                for (Map.Entry<String, Counter> c : cs.getCounters().entrySet()) {
                    set.put(c.getKey(), amount(c.getValue().getValue()));
                }
            }
        }
        for (Inputs.PublishedDevice d : in.devices()) {
            if (d.id().pool().equals(pool) && in.state().isAllocated(d.id())) {
                consumesCounters(d.device())
                        .forEach((set, counters) -> counters.forEach((name, v) -> {
                            Map<String, BigDecimal> available = out.get(set);
                            if (available != null && available.containsKey(name)) {
                                available.put(name, available.get(name).subtract(v));
                            }
                        }));
            }
        }
        return out;
    }

    // ---- Whole-assignment checks -------------------------------------------------------------------------------

    /**
     * Violations of the rules that couple several chosen devices: exclusivity, matchAttribute/distinctAttribute,
     * consumable capacity of shared devices, and shared counters. Empty when the choices are consistent.
     */
    List<String> couplingViolations(List<Choice> choices, List<ResourceClaim> claims) {
        List<String> out = new ArrayList<>();
        // Exclusivity, in allocation order (claims in order, each claim's results in order): a device that does not
        // allow multiple allocations cannot be taken by a non-admin request once it is allocated (persisted, or
        // earlier in this call for any claim), and not twice within one claim even with admin access.
        Set<DeviceId> taken = new HashSet<>();
        Set<String> takenInClaim = new HashSet<>();
        for (Choice c : choices) {
            if (multi(c.device())) {
                continue;
            }
            DeviceId id = c.device().id();
            if (!c.request().admin()) {
                if (in.state().allocatedDevices().contains(id)) {
                    out.add("device " + id + " is already allocated");
                }
                if (taken.contains(id)) {
                    out.add("device " + id + " allocated twice");
                }
            } else if (takenInClaim.contains(c.claim() + "|" + id)) {
                out.add("device " + id + " allocated twice within claim " + c.claim());
            }
            taken.add(id);
            takenInClaim.add(c.claim() + "|" + id);
        }

        // Constraints, per claim, over the devices of the requests each one covers.
        for (int ci = 0; ci < claims.size(); ci++) {
            List<DeviceConstraint> constraints =
                    claims.get(ci).getSpec().getDevices().getConstraints();
            if (constraints == null) {
                continue;
            }
            for (DeviceConstraint con : constraints) {
                List<DeviceAttribute> values = new ArrayList<>();
                boolean missing = false;
                for (Choice c : choices) {
                    if (c.claim() != ci || !covers(con, c.request())) {
                        continue;
                    }
                    DeviceAttribute a = attribute(
                            c.device(),
                            con.getMatchAttribute() != null ? con.getMatchAttribute() : con.getDistinctAttribute());
                    if (a == null) {
                        missing = true;
                    } else {
                        values.add(a);
                    }
                }
                if (missing) {
                    out.add("claim " + ci + ": a device lacks the constrained attribute of " + con);
                    continue;
                }
                for (int i = 0; i < values.size(); i++) {
                    for (int j = i + 1; j < values.size(); j++) {
                        boolean equal = sameValue(values.get(i), values.get(j));
                        if (con.getMatchAttribute() != null && !equal) {
                            out.add("claim " + ci + ": matchAttribute " + con.getMatchAttribute() + " violated");
                        }
                        if (con.getDistinctAttribute() != null && equal) {
                            out.add("claim " + ci + ": distinctAttribute " + con.getDistinctAttribute() + " violated");
                        }
                    }
                }
            }
        }

        // Consumable capacity of devices that allow multiple allocations: persisted plus new shares fit.
        if (consumable) {
            Map<DeviceId, Map<String, BigDecimal>> used = new LinkedHashMap<>();
            for (Choice c : choices) {
                if (!multi(c.device())) {
                    continue;
                }
                Map<String, BigDecimal> consumed =
                        consumption(c.request(), c.device().device());
                if (consumed == null) {
                    out.add("device " + c.device().id() + " cannot serve "
                            + c.request().name() + " by its capacity policy");
                    continue;
                }
                Map<String, BigDecimal> sum = used.computeIfAbsent(c.device().id(), this::persistedCapacity);
                consumed.forEach((k, v) -> sum.merge(k, v, BigDecimal::add));
            }
            used.forEach((id, sum) -> sum.forEach((name, v) -> {
                BigDecimal cap =
                        amount(device(id).device().getCapacity().get(name).getValue());
                if (v.compareTo(cap) > 0) {
                    out.add("device " + id + ": capacity " + name + " over-consumed, " + v + " > " + cap);
                }
            }));
        }

        // Shared counters, per pool: every allocation of an exclusively allocated device reserves its counters (an
        // admin-access allocation too, even of a device that is already allocated: upstream issue #140729); a shared
        // device reserves them with its first share, unless capacity of it was in use before. When anything is
        // reserved, every counter of the pool must stay within what the persisted allocations left.
        Map<String, List<Inputs.PublishedDevice>> reservations = new LinkedHashMap<>();
        Set<DeviceId> shared = new HashSet<>();
        for (Choice c : choices) {
            if (consumesCounters(c.device().device()).isEmpty()) {
                continue;
            }
            if (!partitionable) {
                out.add("device " + c.device().id() + " consumes counters while DRAPartitionableDevices is off");
                continue;
            }
            if (multi(c.device())
                    && (capacityInUsePersisted(c.device().id())
                            || !shared.add(c.device().id()))) {
                continue;
            }
            reservations
                    .computeIfAbsent(c.device().id().pool(), k -> new ArrayList<>())
                    .add(c.device());
        }
        reservations.forEach((pool, devices) -> {
            Map<String, Map<String, BigDecimal>> available = availableCounters(pool);
            for (Inputs.PublishedDevice d : devices) {
                consumesCounters(d.device())
                        .forEach((set, counters) -> counters.forEach(
                                (name, v) -> available.get(set).merge(name, v.negate(), BigDecimal::add)));
            }
            available.forEach((set, counters) -> counters.forEach((name, v) -> {
                if (v.signum() < 0) {
                    out.add("pool " + pool + ": counter " + set + "/" + name + " over-consumed by " + v.negate());
                }
            }));
        });
        return out;
    }

    /** Whether a constraint covers the devices of this request or subrequest. */
    static boolean covers(DeviceConstraint con, Effective r) {
        List<String> names = con.getRequests();
        if (names == null || names.isEmpty()) {
            return true;
        }
        return names.contains(r.name()) || (r.parent() != null && names.contains(r.parent()));
    }

    /** The attribute by its fully qualified name, or by its bare name in the device's driver domain. */
    static DeviceAttribute attribute(Inputs.PublishedDevice d, String qualified) {
        Map<String, DeviceAttribute> attrs = d.device().getAttributes();
        if (attrs.containsKey(qualified)) {
            return attrs.get(qualified);
        }
        int slash = qualified.indexOf('/');
        if (qualified.substring(0, slash).equals(d.id().driver())) {
            return attrs.get(qualified.substring(slash + 1));
        }
        return null;
    }

    /** Same kind and same value. */
    static boolean sameValue(DeviceAttribute a, DeviceAttribute b) {
        return (a.getString() != null && a.getString().equals(b.getString()))
                || (a.getInt() != null && a.getInt().equals(b.getInt()))
                || (a.getBool() != null && a.getBool().equals(b.getBool()))
                || (a.getVersion() != null && a.getVersion().equals(b.getVersion()));
    }

    private static <T> List<T> nz(List<T> l) {
        return l == null ? List.of() : l;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
