package io.dra4j.sim.compare;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node-local devices of a cluster as both sides of the comparison see the hardware: per device its node, type
 * (a whole GPU, or a MIG partition with its parent's UUID and profile), product, interconnect domain, memory, whether
 * a NoSchedule or NoExecute taint (in its slice or a DeviceTaintRule naming it) marks it failed, the counters it
 * draws and the counter sets of its pool.
 */
record Inventory(List<Dev> devices, Map<String, Map<String, BigDecimal>> counterSets) {
    /** One device; {@code key} is driver/pool/device as allocation results name it. */
    record Dev(
            String key,
            String node,
            String driver,
            String pool,
            String name,
            String type,
            String uuid,
            String parentUuid,
            String profile,
            String product,
            String domain,
            BigDecimal memory,
            boolean failed,
            Map<String, Map<String, BigDecimal>> consumes) {
        boolean gpu() {
            return !"mig".equals(type);
        }
    }

    static Inventory of(List<ResourceSlice> slices, List<DeviceTaintRule> rules, String domainAttribute) {
        List<Dev> out = new ArrayList<>();
        Map<String, Map<String, BigDecimal>> sets = new LinkedHashMap<>();
        for (ResourceSlice s : slices) {
            String driver = s.getSpec().getDriver();
            String pool = s.getSpec().getPool().getName();
            for (CounterSet cs : list(s.getSpec().getSharedCounters())) {
                sets.put(driver + "/" + pool + "/" + cs.getName(), amounts(cs.getCounters()));
            }
            String node = s.getSpec().getNodeName();
            if (node == null) {
                continue;
            }
            for (Device d : list(s.getSpec().getDevices())) {
                boolean failed = list(d.getTaints()).stream().anyMatch(t -> !"None".equals(t.getEffect()));
                failed |= rules.stream()
                        .anyMatch(r -> r.getSpec().getDeviceSelector() != null
                                && matches(r.getSpec().getDeviceSelector().getDriver(), driver)
                                && matches(r.getSpec().getDeviceSelector().getPool(), pool)
                                && matches(r.getSpec().getDeviceSelector().getDevice(), d.getName())
                                && !"None".equals(r.getSpec().getTaint().getEffect()));
                Map<String, Map<String, BigDecimal>> consumes = new LinkedHashMap<>();
                for (DeviceCounterConsumption c : list(d.getConsumesCounters())) {
                    consumes.put(driver + "/" + pool + "/" + c.getCounterSet(), amounts(c.getCounters()));
                }
                Quantity memory = d.getCapacity() == null || d.getCapacity().get("memory") == null
                        ? null
                        : d.getCapacity().get("memory").getValue();
                out.add(new Dev(
                        driver + "/" + pool + "/" + d.getName(),
                        node,
                        driver,
                        pool,
                        d.getName(),
                        attr(d, driver, "type"),
                        attr(d, driver, "uuid"),
                        attr(d, driver, "parentUUID"),
                        attr(d, driver, "profile"),
                        attr(d, driver, "productName"),
                        attr(d, driver, domainAttribute),
                        memory == null ? BigDecimal.ZERO : Quantity.getAmountInBytes(memory),
                        failed,
                        consumes));
            }
        }
        return new Inventory(List.copyOf(out), sets);
    }

    /** Devices by key. */
    Map<String, Dev> byKey() {
        Map<String, Dev> m = new HashMap<>();
        devices.forEach(d -> m.put(d.key(), d));
        return m;
    }

    /** The whole GPUs that have MIG partitions announced (by UUID). */
    java.util.Set<String> partitionable() {
        java.util.Set<String> s = new java.util.HashSet<>();
        devices.stream().filter(d -> !d.gpu() && d.parentUuid() != null).forEach(d -> s.add(d.parentUuid()));
        return s;
    }

    private static boolean matches(String want, String have) {
        return want == null || want.equals(have);
    }

    private static Map<String, BigDecimal> amounts(Map<String, Counter> counters) {
        Map<String, BigDecimal> m = new LinkedHashMap<>();
        if (counters != null) {
            counters.forEach((k, v) -> m.put(k, Quantity.getAmountInBytes(v.getValue())));
        }
        return m;
    }

    /** An attribute as a string, by its short name (the driver's domain) or qualified {@code domain/name}. */
    static String attr(Device d, String driver, String name) {
        if (d.getAttributes() == null) {
            return null;
        }
        DeviceAttribute a = d.getAttributes().get(name);
        if (a == null && name.contains("/") && name.startsWith(driver + "/")) {
            a = d.getAttributes().get(name.substring(driver.length() + 1));
        }
        if (a == null && !name.contains("/")) {
            a = d.getAttributes().get(driver + "/" + name);
        }
        if (a == null) {
            return null;
        }
        if (a.getString() != null) {
            return a.getString();
        }
        if (a.getInt() != null) {
            return a.getInt().toString();
        }
        if (a.getBool() != null) {
            return a.getBool().toString();
        }
        return a.getVersion();
    }

    static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
