package io.dra4j.allocator.internal;

import io.dra4j.allocator.DeviceId;
import io.dra4j.cel.CelDevice;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.EvalResult;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.Semver;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A device compiled once per slice object: identity, parsed counters and capacities, effective taints (its own plus
 * those of DeviceTaintRules), and a cache of selector results that is shared by every allocation on every node and
 * every version of the cluster state in which the slice is unchanged, because a selector's result depends only on
 * the device and the expression. Devices in use are not part of it: they are looked up in the state's version.
 */
public final class DeviceInfo {
    final DeviceId id;
    final SliceInfo slice;
    final Device device;
    final String name;
    final Map<String, DeviceAttribute> attributes;
    final List<DeviceTaint> taints;
    final boolean allowMultipleAllocations;
    final boolean hasBindingConditions;
    final List<CounterConsumption> consumesCounters;
    /**
     * Whether upstream can build this device's CEL view: every attribute has a value and its versions parse. When it
     * cannot, every selector evaluation on the device fails, so no selector may be decided without CEL.
     */
    private volatile Boolean celViewBuildable;

    final Map<String, CapacityInfo> capacity;
    /** See {@link SymmetryKey}; computed on first use. */
    private volatile SymmetryKey symmetryKey;
    /** This device's CEL view and selector results, built on first use and dropped with the compiled slice. */
    private volatile CelDevice celView;

    private final Map<CompiledExpression, EvalResult> selectorResults = new ConcurrentHashMap<>();
    /**
     * Whether the device's capacities admit one allocation without capacity requests next to nothing else, per
     * fractional-range flag (bits 0/1: known/fits without it, bits 2/3 with it); computed on first use.
     */
    private volatile int fitsAlone;

    /** What a device draws from one counter set, with the format each amount was written in (for explanations). */
    record CounterConsumption(
            String counterSet, Map<String, BigDecimal> counters, Map<String, KubeQuantity.Format> formats) {}

    /** One capacity of a device with its request policy, quantities parsed. */
    record CapacityInfo(
            String name,
            KubeQuantity value,
            KubeQuantity defaultValue,
            KubeQuantity min,
            KubeQuantity max,
            KubeQuantity step,
            List<KubeQuantity> validValues,
            boolean hasPolicy,
            boolean hasValidRange) {}

    DeviceInfo(SliceInfo slice, Device device, TaintRules taintRules) {
        this.slice = slice;
        this.device = device;
        this.name = device.getName() == null ? "" : device.getName();
        this.id = new DeviceId(slice.driver, slice.poolName, name);
        this.attributes = device.getAttributes() == null ? Map.of() : device.getAttributes();
        List<DeviceTaint> t = new ArrayList<>();
        if (device.getTaints() != null) {
            t.addAll(device.getTaints());
        }
        t.addAll(taintRules.taintsFor(id));
        this.taints = List.copyOf(t);
        this.allowMultipleAllocations = Boolean.TRUE.equals(device.getAllowMultipleAllocations());
        this.hasBindingConditions = device.getBindingConditions() != null
                && !device.getBindingConditions().isEmpty();
        Supplier<String> where = () -> "ResourceSlice " + slice.name + ", device " + name;

        List<CounterConsumption> cc = new ArrayList<>();
        if (device.getConsumesCounters() != null) {
            for (DeviceCounterConsumption c : device.getConsumesCounters()) {
                Map<String, BigDecimal> values = new LinkedHashMap<>();
                Map<String, KubeQuantity.Format> formats = new LinkedHashMap<>();
                if (c.getCounters() != null) {
                    c.getCounters().forEach((k, v) -> {
                        KubeQuantity q = slice.quantities.parse(
                                v == null ? null : v.getValue(),
                                () -> where.get() + ", consumesCounters " + c.getCounterSet() + ", counter " + k);
                        values.put(k, q.value());
                        formats.put(k, q.format());
                    });
                }
                cc.add(new CounterConsumption(
                        c.getCounterSet() == null ? "" : c.getCounterSet(),
                        Collections.unmodifiableMap(values),
                        Collections.unmodifiableMap(formats)));
            }
        }
        this.consumesCounters = List.copyOf(cc);

        Map<String, CapacityInfo> caps = new LinkedHashMap<>();
        if (device.getCapacity() != null) {
            for (Map.Entry<String, DeviceCapacity> e : device.getCapacity().entrySet()) {
                caps.put(
                        e.getKey(),
                        capacityInfo(
                                slice.quantities,
                                e.getKey(),
                                e.getValue(),
                                () -> where.get() + ", capacity " + e.getKey()));
            }
        }
        this.capacity = Collections.unmodifiableMap(caps);
    }

    private static CapacityInfo capacityInfo(
            QuantityCache quantities, String name, DeviceCapacity c, Supplier<String> where) {
        KubeQuantity value = quantities.parse(c == null ? null : c.getValue(), where);
        CapacityRequestPolicy p = c.getRequestPolicy();
        if (p == null) {
            return new CapacityInfo(name, value, null, null, null, null, List.of(), false, false);
        }
        KubeQuantity def = p.getDefault() == null
                ? null
                : quantities.parse(p.getDefault(), () -> where.get() + ", requestPolicy.default");
        KubeQuantity min = null, max = null, step = null;
        boolean hasRange = p.getValidRange() != null;
        if (hasRange) {
            var r = p.getValidRange();
            min = r.getMin() == null
                    ? null
                    : quantities.parse(r.getMin(), () -> where.get() + ", requestPolicy.validRange.min");
            max = r.getMax() == null
                    ? null
                    : quantities.parse(r.getMax(), () -> where.get() + ", requestPolicy.validRange.max");
            step = r.getStep() == null
                    ? null
                    : quantities.parse(r.getStep(), () -> where.get() + ", requestPolicy.validRange.step");
        }
        List<KubeQuantity> valid = new ArrayList<>();
        if (p.getValidValues() != null) {
            for (int i = 0; i < p.getValidValues().size(); i++) {
                int index = i;
                valid.add(quantities.parse(
                        p.getValidValues().get(i), () -> where.get() + ", requestPolicy.validValues[" + index + "]"));
            }
        }
        return new CapacityInfo(name, value, def, min, max, step, List.copyOf(valid), true, hasRange);
    }

    /** Computed on first use: only a selector decided without CEL needs it, and parsing versions is not free. */
    boolean celViewBuildable() {
        Boolean b = celViewBuildable;
        if (b == null) {
            boolean all = true;
            for (DeviceAttribute a : attributes.values()) {
                if (!presentable(a)) {
                    all = false;
                    break;
                }
            }
            b = all;
            celViewBuildable = b;
        }
        return b;
    }

    private static boolean presentable(DeviceAttribute a) {
        if (a == null) {
            return false;
        }
        if (nonEmpty(a.getInts()) || nonEmpty(a.getBools()) || nonEmpty(a.getStrings())) {
            return true;
        }
        if (nonEmpty(a.getVersions())) {
            return a.getVersions().stream().allMatch(v -> v != null && Semver.isValid(v));
        }
        if (a.getInt() != null || a.getBool() != null || a.getString() != null) {
            return true;
        }
        return a.getVersion() != null && Semver.isValid(a.getVersion());
    }

    private static boolean nonEmpty(List<?> l) {
        return l != null && !l.isEmpty();
    }

    /**
     * Evaluates a compiled selector on this device, once per expression: the result depends only on the device, its
     * driver and the expression, and this compiled device lives exactly as long as its slice object is unchanged.
     */
    EvalResult evaluate(CompiledExpression expression, DeviceSelectorEnvironment env) {
        return evaluate(expression, env, null);
    }

    /**
     * Like {@link #evaluate(CompiledExpression, DeviceSelectorEnvironment)}, deciding the expression with its fast
     * form where that is certain (see {@link FastSelector}) instead of building the CEL view and interpreting.
     */
    EvalResult evaluate(CompiledExpression expression, DeviceSelectorEnvironment env, FastSelector fast) {
        EvalResult r = selectorResults.get(expression);
        if (r == null && fast != null && celViewBuildable()) {
            Boolean decided = fast.decide(this);
            if (decided != null) {
                r = new EvalResult.Matched(decided);
                selectorResults.put(expression, r);
            }
        }
        if (r == null) {
            CelDevice view = celView;
            if (view == null) {
                view = env.device(slice.driver, device);
                celView = view;
            }
            r = expression.evaluate(view);
            selectorResults.put(expression, r);
        }
        return r;
    }

    /**
     * {@link ConsumableCapacity#fits} for a request without capacity requests on this device with nothing consumed:
     * it depends only on the device, and every search probes it for every candidate. A computation that fails is
     * not remembered, so its error is raised again.
     */
    boolean fitsAlone(boolean fractional) throws ConsumableCapacity.CapacityException {
        int shift = fractional ? 2 : 0;
        int known = fitsAlone >>> shift;
        if ((known & 1) != 0) {
            return (known & 2) != 0;
        }
        boolean fits = ConsumableCapacity.compare(null, null, this, null, fractional);
        synchronized (this) {
            fitsAlone |= (fits ? 3 : 1) << shift;
        }
        return fits;
    }

    SymmetryKey symmetryKey() {
        SymmetryKey k = symmetryKey;
        if (k == null) {
            k = SymmetryKey.of(this);
            symmetryKey = k;
        }
        return k;
    }

    boolean consumesCounters() {
        return !consumesCounters.isEmpty();
    }
}
