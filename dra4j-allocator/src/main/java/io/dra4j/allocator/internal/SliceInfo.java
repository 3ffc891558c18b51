package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A ResourceSlice compiled for search: typed node scope, compiled devices, parsed counter sets. */
public final class SliceInfo {
    final ResourceSlice slice;
    final String name;
    final String driver;
    final String poolName;
    final long generation;
    final long resourceSliceCount;
    final String nodeName;
    final boolean allNodes;
    final NodeSelector nodeSelector;
    /** Upstream distinguishes "unset" from "false" for this field. */
    final Boolean perDeviceNodeSelection;

    final List<CounterSetInfo> sharedCounters;
    final boolean usesCompatibilityGroups;
    final List<String> skipNodeOperations;
    private final TaintRules taintRules;
    /** Where this slice's and its devices' quantities are parsed. */
    final QuantityCache quantities;
    /** Compiled on first use: most slices of a large cluster are never looked at from a given node. */
    private volatile List<DeviceInfo> devices;
    /** Interned constraint attribute values of the devices, by attribute name; computed on first use. */
    private final Map<String, AttributeValues> attributeValues = new ConcurrentHashMap<>();

    /** A counter set with exact values, and the format each was written in (for explanations). */
    record CounterSetInfo(String name, Map<String, BigDecimal> counters, Map<String, KubeQuantity.Format> formats) {}

    SliceInfo(ResourceSlice slice, TaintRules taintRules) {
        this(slice, taintRules, new QuantityCache());
    }

    SliceInfo(ResourceSlice slice, TaintRules taintRules, QuantityCache quantities) {
        this.quantities = quantities;
        this.slice = slice;
        ResourceSliceSpec spec = slice.getSpec();
        String where = "ResourceSlice "
                + (slice.getMetadata() == null ? "" : slice.getMetadata().getName());
        if (spec == null) {
            throw new IllegalArgumentException(where + ": spec: Required value");
        }
        if (spec.getPool() == null) {
            throw new IllegalArgumentException(where + ": spec.pool: Required value");
        }
        this.name = slice.getMetadata() == null || slice.getMetadata().getName() == null
                ? ""
                : slice.getMetadata().getName();
        this.driver = nz(spec.getDriver());
        this.poolName = nz(spec.getPool().getName());
        this.generation =
                spec.getPool().getGeneration() == null ? 0 : spec.getPool().getGeneration();
        this.resourceSliceCount = spec.getPool().getResourceSliceCount() == null
                ? 0
                : spec.getPool().getResourceSliceCount();
        this.nodeName = spec.getNodeName();
        this.allNodes = Boolean.TRUE.equals(spec.getAllNodes());
        this.nodeSelector = spec.getNodeSelector();
        this.perDeviceNodeSelection = spec.getPerDeviceNodeSelection();
        this.skipNodeOperations =
                spec.getSkipNodeOperations() == null ? List.of() : List.copyOf(spec.getSkipNodeOperations());

        List<CounterSetInfo> sets = new ArrayList<>();
        if (spec.getSharedCounters() != null) {
            for (CounterSet cs : spec.getSharedCounters()) {
                Map<String, BigDecimal> values = new LinkedHashMap<>();
                Map<String, KubeQuantity.Format> formats = new LinkedHashMap<>();
                if (cs.getCounters() != null) {
                    cs.getCounters().forEach((k, v) -> {
                        KubeQuantity q = quantities.parse(
                                v == null ? null : v.getValue(),
                                () -> where + ", counter set " + cs.getName() + ", counter " + k);
                        values.put(k, q.value());
                        formats.put(k, q.format());
                    });
                }
                sets.add(new CounterSetInfo(
                        nz(cs.getName()), Collections.unmodifiableMap(values), Collections.unmodifiableMap(formats)));
            }
        }
        this.sharedCounters = List.copyOf(sets);

        this.taintRules = taintRules;
        boolean compat = false;
        for (Device d : apiDevices()) {
            if (d.getConsumesCounters() != null) {
                for (DeviceCounterConsumption c : d.getConsumesCounters()) {
                    if (c.getCompatibilityGroups() != null
                            && !c.getCompatibilityGroups().isEmpty()) {
                        compat = true;
                    }
                }
            }
        }
        this.usesCompatibilityGroups = compat;
    }

    List<Device> apiDevices() {
        return slice.getSpec().getDevices() == null
                ? List.of()
                : slice.getSpec().getDevices();
    }

    int deviceCount() {
        return apiDevices().size();
    }

    /** The compiled devices, in slice order. */
    List<DeviceInfo> devices() {
        List<DeviceInfo> d = devices;
        if (d == null) {
            synchronized (this) {
                d = devices;
                if (d == null) {
                    List<Device> api = apiDevices();
                    List<DeviceInfo> out = new ArrayList<>(api.size());
                    for (int i = 0; i < api.size(); i++) {
                        out.add(new DeviceInfo(this, api.get(i), taintRules));
                    }
                    d = List.copyOf(out);
                    devices = d;
                }
            }
        }
        return d;
    }

    /** The devices' values of one constraint attribute, interned (see {@link AttributeValues}). */
    AttributeValues attributeValues(String attribute) {
        AttributeValues v = attributeValues.get(attribute);
        if (v == null) {
            v = attributeValues.computeIfAbsent(attribute, a -> AttributeValues.of(devices(), a));
        }
        return v;
    }

    boolean hasSharedCounters() {
        return !sharedCounters.isEmpty();
    }

    PoolId poolId() {
        return new PoolId(driver, poolName);
    }

    static KubeQuantity quantity(io.fabric8.kubernetes.api.model.Quantity q, String where) {
        if (q == null) {
            throw new IllegalArgumentException(where + ": value: Required value");
        }
        try {
            return KubeQuantity.fromFabric8(q);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /** A pool is identified by driver and pool name. */
    public record PoolId(String driver, String pool) implements Comparable<PoolId> {
        @Override
        public int compareTo(PoolId o) {
            int c = driver.compareTo(o.driver);
            return c != 0 ? c : pool.compareTo(o.pool);
        }

        @Override
        public String toString() {
            return driver + "/" + pool;
        }
    }
}
