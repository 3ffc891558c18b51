package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.HashMap;
import java.util.Map;

/**
 * Per candidate position of a node view, the device's value of a constraint attribute ({@link Constraint#lookup})
 * and, for a value that is exactly one scalar ({@link Constraint#scalarKind}), a small id interned over the view: two
 * such values are equal exactly when their ids are, so the scalar matchAttribute check compares ints instead of
 * values. Built once per node view and attribute, immutable, shared by every search on the view.
 */
final class AttributeColumn {
    /** The id of a position whose device has no value of the attribute. */
    static final int ABSENT = -1;
    /** The id of a value that is not exactly one scalar (a list, or none or several fields set). */
    static final int NOT_SCALAR = -2;

    final DeviceAttribute[] values;
    final int[] scalarIds;

    private AttributeColumn(DeviceAttribute[] values, int[] scalarIds) {
        this.values = values;
        this.scalarIds = scalarIds;
    }

    static AttributeColumn of(DeviceInfo[] candidates, String attribute) {
        DeviceAttribute[] values = new DeviceAttribute[candidates.length];
        int[] ids = new int[candidates.length];
        // Strings, ints and bools are distinct Java types, so one map keyed on the scalar itself interns them without
        // key objects; versions are strings too and get their own map.
        Map<Object, Integer> interned = new HashMap<>();
        Map<Object, Integer> versions = null;
        for (int pos = 0; pos < candidates.length; pos++) {
            DeviceAttribute a = Constraint.lookup(candidates[pos], attribute);
            values[pos] = a;
            char kind = a == null ? 0 : Constraint.scalarKind(a);
            if (kind == 0) {
                ids[pos] = a == null ? ABSENT : NOT_SCALAR;
                continue;
            }
            Map<Object, Integer> map = interned;
            if (kind == 'v') {
                versions = versions == null ? new HashMap<>() : versions;
                map = versions;
            }
            Object scalar = Constraint.scalar(a);
            Integer id = map.get(scalar);
            if (id == null) {
                id = interned.size() + (versions == null ? 0 : versions.size());
                map.put(scalar, id);
            }
            ids[pos] = id;
        }
        return new AttributeColumn(values, ids);
    }
}
