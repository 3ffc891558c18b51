package io.dra4j.kubelet.slices;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a node's devices and shared counters are cut into ResourceSlices within the API's limits: shared counters in
 * slices of their own (since 1.35 a slice holds devices or shared counters, not both), at most 8 counter sets per
 * slice; devices in order, at most 128 per slice, or 64 once a slice holds a device with taints, counter consumption
 * or list-valued attributes. Also the client-side validation the API server would otherwise do later.
 */
public final class SliceLayout {
    public static final int MAX_DEVICES = 128;
    public static final int MAX_DEVICES_WITH_ADVANCED_FEATURES = 64;
    public static final int MAX_COUNTER_SETS = 8;

    /** One slice's content: shared counters or devices. */
    public record Slice(List<CounterSet> sharedCounters, List<Device> devices) {
        public Slice {
            sharedCounters = List.copyOf(sharedCounters);
            devices = List.copyOf(devices);
        }
    }

    private SliceLayout() {}

    /** The slices, counters first; an empty node still gets one (empty) slice: an empty pool is not no pool. */
    public static List<Slice> split(List<Device> devices, List<CounterSet> counters) {
        List<Slice> out = new ArrayList<>();
        for (int i = 0; i < counters.size(); i += MAX_COUNTER_SETS) {
            out.add(new Slice(counters.subList(i, Math.min(counters.size(), i + MAX_COUNTER_SETS)), List.of()));
        }
        List<Device> current = new ArrayList<>();
        boolean advanced = false;
        for (Device d : devices) {
            boolean next = advanced || usesAdvancedFeatures(d);
            int limit = next ? MAX_DEVICES_WITH_ADVANCED_FEATURES : MAX_DEVICES;
            if (current.size() + 1 > limit) {
                out.add(new Slice(List.of(), current));
                current = new ArrayList<>();
                next = usesAdvancedFeatures(d);
            }
            current.add(d);
            advanced = next;
        }
        if (!current.isEmpty() || out.isEmpty()) {
            out.add(new Slice(List.of(), current));
        }
        return out;
    }

    static boolean usesAdvancedFeatures(Device d) {
        if (!d.getTaints().isEmpty() || !d.getConsumesCounters().isEmpty()) {
            return true;
        }
        for (DeviceAttribute a : d.getAttributes().values()) {
            if (!a.getBools().isEmpty()
                    || !a.getInts().isEmpty()
                    || !a.getStrings().isEmpty()
                    || !a.getVersions().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** What is wrong with a pool's content (unique names, counter references); empty when it is fine. */
    public static List<String> validate(List<Device> devices, List<CounterSet> counters) {
        List<String> problems = new ArrayList<>();
        Map<String, Set<String>> sets = new HashMap<>();
        for (CounterSet cs : counters) {
            if (sets.put(cs.getName(), cs.getCounters().keySet()) != null) {
                problems.add("counter set " + cs.getName() + " is defined twice in the pool");
            }
        }
        Set<String> names = new HashSet<>();
        for (Device d : devices) {
            if (!names.add(d.getName())) {
                problems.add("device " + d.getName() + " is defined twice in the pool");
            }
            for (DeviceCounterConsumption c : d.getConsumesCounters()) {
                Set<String> known = sets.get(c.getCounterSet());
                if (known == null) {
                    problems.add("device " + d.getName() + " consumes counters of counter set " + c.getCounterSet()
                            + ", which the pool does not define");
                    continue;
                }
                for (String counter : c.getCounters().keySet()) {
                    if (!known.contains(counter)) {
                        problems.add("device " + d.getName() + " consumes counter " + counter + " of counter set "
                                + c.getCounterSet() + ", which has no such counter");
                    }
                }
            }
        }
        return problems;
    }
}
