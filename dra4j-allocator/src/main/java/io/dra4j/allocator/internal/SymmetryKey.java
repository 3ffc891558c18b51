package io.dra4j.allocator.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * What the search can see of a device apart from its name: driver and pool, node scope, attributes, capacities,
 * counter consumption, taints, binding conditions and allocation flags. CEL selectors cannot see a device's name, so
 * devices with equal keys and the same allocation state match the same selectors and constrain the same way: when
 * one of them fails in a search slot, every other one fails there too, and the search skips it without changing
 * which solution is found first. Allocation state is compared per call ({@link Search}), not kept here.
 */
final class SymmetryKey {
    private final List<Object> parts;
    private final int hash;

    private SymmetryKey(List<Object> parts) {
        this.parts = parts;
        this.hash = parts.hashCode();
    }

    static SymmetryKey of(DeviceInfo d) {
        List<Object> key = new ArrayList<>();
        SliceInfo s = d.slice;
        key.add(s.driver);
        key.add(s.poolName);
        key.add(s.generation);
        key.add(s.nodeName);
        key.add(s.allNodes);
        key.add(String.valueOf(s.nodeSelector));
        key.add(s.perDeviceNodeSelection);
        key.add(s.skipNodeOperations);
        key.add(String.valueOf(new TreeMap<>(d.attributes)));
        key.add(String.valueOf(d.device.getCapacity() == null ? null : new TreeMap<>(d.device.getCapacity())));
        key.add(String.valueOf(d.device.getConsumesCounters()));
        key.add(String.valueOf(d.taints));
        key.add(d.device.getBindingConditions());
        key.add(d.device.getBindingFailureConditions());
        key.add(d.device.getBindsToNode());
        key.add(d.device.getAllowMultipleAllocations());
        key.add(d.device.getNodeName());
        key.add(d.device.getAllNodes());
        key.add(String.valueOf(d.device.getNodeSelector()));
        return new SymmetryKey(
                List.copyOf(key.stream().map(o -> o == null ? "\u0000null" : o).toList()));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SymmetryKey k && k.hash == hash && k.parts.equals(parts);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
