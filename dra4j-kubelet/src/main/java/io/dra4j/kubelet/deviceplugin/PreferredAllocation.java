package io.dra4j.kubelet.deviceplugin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The default answer to GetPreferredAllocation: all devices that must be included, then devices that share their
 * interconnect domain (or, without one, their first NUMA node); with nothing to include, the smallest group that
 * holds the whole request on its own, so that larger groups stay free for larger requests. Groups are ordered by
 * key and devices by ID, so the answer is deterministic. It is only a hint; the kubelet may allocate otherwise.
 */
public final class PreferredAllocation {
    private PreferredAllocation() {}

    public static List<String> choose(
            List<PluginDevice> known, List<String> available, List<String> mustInclude, int size) {
        Map<String, PluginDevice> byId = new LinkedHashMap<>();
        known.forEach(d -> byId.put(d.id(), d));
        Set<String> chosen = new LinkedHashSet<>(mustInclude);
        if (chosen.size() >= size) {
            return List.copyOf(chosen);
        }
        Map<String, List<String>> groups = new LinkedHashMap<>();
        available.stream()
                .filter(id -> !chosen.contains(id))
                .sorted()
                .forEach(id -> groups.computeIfAbsent(groupOf(byId.get(id)), k -> new ArrayList<>())
                        .add(id));
        List<String> order = new ArrayList<>(groups.keySet());
        order.sort(Comparator.naturalOrder());
        int need = size - chosen.size();
        if (!chosen.isEmpty()) {
            Set<String> preferred = new LinkedHashSet<>();
            chosen.forEach(id -> preferred.add(groupOf(byId.get(id))));
            order.sort(Comparator.comparing((String g) -> !preferred.contains(g))
                    .thenComparing(g -> -groups.get(g).size())
                    .thenComparing(Comparator.naturalOrder()));
        } else {
            String fit = order.stream()
                    .filter(g -> groups.get(g).size() >= need)
                    .min(Comparator.comparing((String g) -> groups.get(g).size())
                            .thenComparing(Comparator.naturalOrder()))
                    .orElse(null);
            order.sort(Comparator.comparing((String g) -> !g.equals(fit))
                    .thenComparing(g -> -groups.get(g).size())
                    .thenComparing(Comparator.naturalOrder()));
        }
        for (String g : order) {
            for (String id : groups.get(g)) {
                if (chosen.size() == size) {
                    return List.copyOf(chosen);
                }
                chosen.add(id);
            }
        }
        return List.copyOf(chosen);
    }

    private static String groupOf(PluginDevice d) {
        if (d == null) {
            return "~unknown";
        }
        if (d.interconnectDomain() != null) {
            return "domain " + d.interconnectDomain();
        }
        return d.numaNodes().isEmpty() ? "~no-numa" : "numa " + d.numaNodes().get(0);
    }
}
