package io.dra4j.allocator.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The interned values of one constraint attribute over one call's candidates (see {@link AttributeValues}): per
 * position its value ids and their bit set, per value id the positions that carry it. When the candidates are the
 * devices of a single slice, as on most nodes, the slice's arrays serve directly and building costs nothing;
 * otherwise the slices' ids are mapped onto ids of this call.
 */
final class ValueIndex {
    private final int[][] ids;
    private final long[][] bits;
    private final long[][] positionsWith;
    private final int[] maxCarriers;
    final int positionWords;
    /** The positions whose devices have a value; computed on first use. */
    private long[] withValues;

    private ValueIndex(int[][] ids, long[][] bits, long[][] positionsWith, int[] maxCarriers, int positions) {
        this.ids = ids;
        this.bits = bits;
        this.positionsWith = positionsWith;
        this.maxCarriers = maxCarriers;
        this.positionWords = Bits.words(positions);
    }

    /** How many positions carry the most common value of the device at pos: a bound on any of its values' support. */
    int maxCarriers(int pos) {
        return maxCarriers[pos];
    }

    long[] withValues() {
        long[] w = withValues;
        if (w == null) {
            w = new long[positionWords];
            for (int pos = 0; pos < ids.length; pos++) {
                if (ids[pos] != null) {
                    Bits.set(w, pos);
                }
            }
            withValues = w;
        }
        return w;
    }

    /** The value ids of the device at a position, ascending; null when it has no value of a known type. */
    int[] ids(int pos) {
        return ids[pos];
    }

    /** The positions whose devices carry the value. */
    long[] positionsWith(int id) {
        return positionsWith[id];
    }

    /** The ids of {@code current} that the device at pos also carries (current ascending, so is the result). */
    int[] intersect(int[] current, int pos) {
        long[] mine = bits[pos];
        int[] out = new int[current.length];
        int n = 0;
        for (int id : current) {
            if (Bits.get(mine, id)) {
                out[n++] = id;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** The positions whose devices carry at least one of the values. */
    long[] positionsWithAny(int[] values) {
        long[] out = new long[positionWords];
        for (int id : values) {
            long[] p = positionsWith[id];
            for (int w = 0; w < out.length; w++) {
                out[w] |= p[w];
            }
        }
        return out;
    }

    static ValueIndex of(DeviceInfo[] candidates, String attribute) {
        if (candidates.length > 0 && isWholeSlice(candidates)) {
            AttributeValues v = candidates[0].slice.attributeValues(attribute);
            return new ValueIndex(v.deviceIds, v.deviceBits, v.valueDevices, v.maxCarriers, candidates.length);
        }
        Map<AttributeValues.Key, Integer> callIds = new HashMap<>();
        List<AttributeValues.Key> keys = new ArrayList<>();
        int[][] ids = new int[candidates.length][];
        int runStart = 0;
        for (int pos = 0; pos < candidates.length; pos++) {
            SliceInfo slice = candidates[pos].slice;
            if (pos == 0 || slice != candidates[pos - 1].slice) {
                runStart = pos;
            }
            int inSlice = pos - runStart;
            List<DeviceInfo> sliceDevices = slice.devices();
            AttributeValues.Key[] local;
            int[] localIds;
            if (inSlice < sliceDevices.size() && sliceDevices.get(inSlice) == candidates[pos]) {
                AttributeValues v = slice.attributeValues(attribute);
                local = v.keys;
                localIds = v.deviceIds[inSlice];
            } else {
                AttributeValues v = AttributeValues.of(List.of(candidates[pos]), attribute);
                local = v.keys;
                localIds = v.deviceIds[0];
            }
            if (localIds == null) {
                continue;
            }
            int[] mine = new int[localIds.length];
            for (int i = 0; i < localIds.length; i++) {
                AttributeValues.Key key = local[localIds[i]];
                Integer id = callIds.get(key);
                if (id == null) {
                    id = keys.size();
                    callIds.put(key, id);
                    keys.add(key);
                }
                mine[i] = id;
            }
            Arrays.sort(mine);
            ids[pos] = mine;
        }
        long[][] bits = new long[candidates.length][];
        long[][] positionsWith = new long[keys.size()][Bits.words(candidates.length)];
        for (int pos = 0; pos < candidates.length; pos++) {
            if (ids[pos] == null) {
                continue;
            }
            bits[pos] = new long[Bits.words(keys.size())];
            for (int id : ids[pos]) {
                Bits.set(bits[pos], id);
                Bits.set(positionsWith[id], pos);
            }
        }
        return new ValueIndex(
                ids, bits, positionsWith, AttributeValues.maxCarriers(ids, positionsWith), candidates.length);
    }

    private static boolean isWholeSlice(DeviceInfo[] candidates) {
        List<DeviceInfo> devices = candidates[0].slice.devices();
        if (devices.size() != candidates.length) {
            return false;
        }
        for (int i = 0; i < candidates.length; i++) {
            if (devices.get(i) != candidates[i]) {
                return false;
            }
        }
        return true;
    }
}
