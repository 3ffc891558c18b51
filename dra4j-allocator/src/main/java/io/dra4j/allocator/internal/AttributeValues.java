package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of one constraint attribute over the devices of one slice, interned (not in upstream, which intersects
 * hash sets): a value is its {@link Constraint.TypedSet} kind plus one element, ids are dense per slice, each device
 * holds its value ids (sorted, and as a bit set) and each value the bit set of the slice's devices that carry it.
 * Built once per compiled slice and attribute name and shared, immutable, by every call on every node.
 */
final class AttributeValues {
    /** One interned value: the element type of its set and the element. */
    record Key(char kind, Object element) {}

    private static final String KINDS = "ibsv";

    final Key[] keys;
    /** Per device of the slice: its value ids in ascending order, or null when it has no typed set. */
    final int[][] deviceIds;
    /** Per device of the slice: its value ids as a bit set, or null when it has no typed set. */
    final long[][] deviceBits;
    /** Per value id: the devices of the slice (by index) that carry it. */
    final long[][] valueDevices;
    /** Per device: how many devices of the slice carry its most common value (0 without values). */
    final int[] maxCarriers;

    private AttributeValues(Key[] keys, int[][] deviceIds, long[][] deviceBits, long[][] valueDevices) {
        this.keys = keys;
        this.deviceIds = deviceIds;
        this.deviceBits = deviceBits;
        this.valueDevices = valueDevices;
        this.maxCarriers = maxCarriers(deviceIds, valueDevices);
    }

    static int[] maxCarriers(int[][] ids, long[][] carriers) {
        int[] out = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] != null) {
                for (int id : ids[i]) {
                    out[i] = Math.max(out[i], Bits.count(carriers[id]));
                }
            }
        }
        return out;
    }

    static AttributeValues of(List<DeviceInfo> devices, String attribute) {
        // One map per element type, so that a lookup needs no key object; a list's repeated elements collapse.
        List<Map<Object, Integer>> ids = List.of(new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>());
        List<Key> keys = new ArrayList<>();
        int[][] deviceIds = new int[devices.size()][];
        for (int i = 0; i < devices.size(); i++) {
            DeviceAttribute a = Constraint.lookup(devices.get(i), attribute);
            Constraint.Elements elements = a == null ? null : Constraint.Elements.of(a);
            if (elements == null) {
                continue;
            }
            Map<Object, Integer> ofKind = ids.get(KINDS.indexOf(elements.kind()));
            int[] mine = new int[elements.values().size()];
            int n = 0;
            for (Object element : elements.values()) {
                Integer id = ofKind.get(element);
                if (id == null) {
                    id = keys.size();
                    ofKind.put(element, id);
                    keys.add(new Key(elements.kind(), element));
                }
                mine[n++] = id;
            }
            Arrays.sort(mine);
            int unique = 0;
            for (int j = 0; j < mine.length; j++) {
                if (j == 0 || mine[j] != mine[j - 1]) {
                    mine[unique++] = mine[j];
                }
            }
            deviceIds[i] = unique == mine.length ? mine : Arrays.copyOf(mine, unique);
        }
        long[][] deviceBits = new long[devices.size()][];
        long[][] valueDevices = new long[keys.size()][];
        int valueWords = Bits.words(keys.size());
        int deviceWords = Bits.words(devices.size());
        for (int v = 0; v < valueDevices.length; v++) {
            valueDevices[v] = new long[deviceWords];
        }
        for (int i = 0; i < deviceIds.length; i++) {
            if (deviceIds[i] == null) {
                continue;
            }
            deviceBits[i] = new long[valueWords];
            for (int id : deviceIds[i]) {
                Bits.set(deviceBits[i], id);
                Bits.set(valueDevices[id], i);
            }
        }
        return new AttributeValues(keys.toArray(new Key[0]), deviceIds, deviceBits, valueDevices);
    }
}
