package io.dra4j.kubelet.deviceplugin;

import java.util.List;

/**
 * A device as a device plugin advertises it: an ID of at most 63 characters, its health, the NUMA nodes it is
 * attached to and, for {@link PreferredAllocation}, the interconnect domain it shares with its peers (an NVLink
 * clique, for example; null when it has none).
 */
public record PluginDevice(String id, boolean healthy, List<Long> numaNodes, String interconnectDomain) {
    public static final String HEALTHY = "Healthy";
    public static final String UNHEALTHY = "Unhealthy";

    public PluginDevice {
        numaNodes = List.copyOf(numaNodes);
        if (id == null || id.isEmpty() || id.length() > 63) {
            throw new IllegalArgumentException("device plugin device ID " + id + " must have 1 to 63 characters");
        }
    }

    public PluginDevice withHealth(boolean h) {
        return new PluginDevice(id, h, numaNodes, interconnectDomain);
    }
}
