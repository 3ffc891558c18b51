package io.dra4j.allocator.internal;

import io.dra4j.allocator.AllocatedState;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Groups devices that no part of the search can tell apart: same driver and pool, same node scope, and the same
 * attributes, capacities, counter consumption, taints, binding conditions and allocation flags, and the same
 * persisted allocation state. CEL selectors cannot see a device's name, so such devices match the same selectors
 * and constrain the same way. When one of them fails in a search slot, every other one fails there too, and the
 * search skips it without changing which solution is found first.
 */
final class SymmetryClasses {
    private final Map<List<Object>, Integer> ids = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();
    private final AllocatedState state;

    SymmetryClasses(AllocatedState state) {
        this.state = state;
    }

    int classOf(DeviceInfo d) {
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
        key.add(state.allocatedDevices().contains(d.id));
        key.add(String.valueOf(state.aggregatedCapacity().get(d.id)));
        boolean shared = false;
        for (AllocatedState.SharedDevice sd : state.sharedDevices()) {
            if (sd.device().equals(d.id)) {
                shared = true;
                break;
            }
        }
        key.add(shared);
        return ids.computeIfAbsent(key, k -> next.getAndIncrement());
    }
}
