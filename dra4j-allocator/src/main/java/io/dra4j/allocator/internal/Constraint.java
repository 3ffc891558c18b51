package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A claim constraint (matchAttribute or distinctAttribute) with the mutable state of one search. {@link #add} and
 * {@link #remove} come in strict LIFO pairs, so each constraint keeps a stack and every remove restores exactly the
 * state before the matching add. With DRAListTypeAttributes on, values compare as typed sets (upstream's
 * experimental variant); otherwise as scalars of the same type.
 */
abstract sealed class Constraint permits Constraint.Match, Constraint.Distinct {
    final Set<String> requestNames;
    final String attributeName;
    final boolean setSemantics;
    /** Per candidate position, the device's value of the attribute ({@link #lookup}), or null. */
    final DeviceAttribute[] column;
    /** Per candidate position, the value's interned scalar id ({@link AttributeColumn}). */
    final int[] scalarIds;

    Constraint(List<String> requestNames, String attributeName, boolean setSemantics, AttributeColumn column) {
        this.requestNames = requestNames == null ? Set.of() : Set.copyOf(requestNames);
        this.attributeName = attributeName;
        this.setSemantics = setSemantics;
        this.column = column.values;
        this.scalarIds = column.scalarIds;
    }

    /** Whether the constraint covers devices of this request (or subrequest). */
    final boolean appliesTo(RequestData request) {
        if (requestNames.isEmpty()) {
            return true;
        }
        if (request.parentName == null) {
            return requestNames.contains(request.name);
        }
        return requestNames.contains(request.parentName) || requestNames.contains(request.fullName());
    }

    /** Adds the device at a candidate position; false when the constraint would no longer hold. */
    abstract boolean add(RequestData request, int pos, DeviceInfo device);

    abstract void remove(RequestData request, DeviceInfo device);

    /** The attribute by its fully qualified name; a bare name in the device's own driver domain also counts. */
    static DeviceAttribute lookup(DeviceInfo device, String fullyQualifiedName) {
        DeviceAttribute a = device.attributes.get(fullyQualifiedName);
        if (a != null) {
            return a;
        }
        int slash = fullyQualifiedName.indexOf('/');
        if (slash < 0 || !fullyQualifiedName.substring(0, slash).equals(device.id.driver())) {
            return null;
        }
        return device.attributes.get(fullyQualifiedName.substring(slash + 1));
    }

    /**
     * matchAttribute: every device of the covered requests has the same value. With set semantics the values are
     * the call's interned ids ({@link ValueIndex}): the stack holds the intersection after each added device (ids
     * ascending), and for each entry, once asked, the positions whose devices share a value with it, so that a device
     * that cannot match is rejected with one bit test and the search can skip such devices altogether.
     */
    static final class Match extends Constraint {
        private final Search search;
        private DeviceAttribute reference;
        private int referenceId;
        private ValueIndex index;
        private int[][] intersections = new int[8][];
        private long[][] compatible = new long[8][];
        private int numDevices;

        Match(List<String> requestNames, String attributeName, boolean setSemantics, Search search) {
            super(requestNames, attributeName, setSemantics, search.attributeColumn(attributeName));
            this.search = search;
        }

        @Override
        boolean add(RequestData request, int pos, DeviceInfo device) {
            if (!appliesTo(request)) {
                return true;
            }
            if (setSemantics) {
                int[] ids = index().ids(pos);
                if (ids == null) {
                    return false;
                }
                if (numDevices > 0) {
                    if (!Bits.get(compatible(), pos)) {
                        return false;
                    }
                    ids = index.intersect(intersections[numDevices - 1], pos);
                }
                if (numDevices == intersections.length) {
                    intersections = Arrays.copyOf(intersections, numDevices * 2);
                    compatible = Arrays.copyOf(compatible, numDevices * 2);
                }
                intersections[numDevices] = ids;
                compatible[numDevices] = null;
                numDevices++;
                return true;
            }
            // Two values that are each exactly one scalar are equal exactly when their interned ids are; any other
            // value is compared field by field, as upstream does.
            int id = scalarIds[pos];
            if (id == AttributeColumn.ABSENT) {
                return false;
            }
            if (numDevices == 0) {
                reference = column[pos];
                referenceId = id;
            } else if (id >= 0 && referenceId >= 0 ? id != referenceId : !sameScalar(column[pos], reference)) {
                return false;
            }
            numDevices++;
            return true;
        }

        @Override
        void remove(RequestData request, DeviceInfo device) {
            if (!appliesTo(request)) {
                return;
            }
            numDevices--;
            if (setSemantics) {
                intersections[numDevices] = null;
                compatible[numDevices] = null;
            }
        }

        /**
         * The positions that {@link #add} may accept for a covered request (set semantics): those with values before
         * the first covered device, then those sharing a value with the intersection.
         */
        long[] acceptable() {
            return numDevices == 0 ? index().withValues() : compatible();
        }

        /** The current intersection's value ids (set semantics), or null before the first covered device. */
        int[] intersection() {
            return numDevices == 0 ? null : intersections[numDevices - 1];
        }

        ValueIndex index() {
            if (index == null) {
                index = search.valueIndex(attributeName);
            }
            return index;
        }

        private long[] compatible() {
            long[] c = compatible[numDevices - 1];
            if (c == null) {
                c = index.positionsWithAny(intersections[numDevices - 1]);
                compatible[numDevices - 1] = c;
            }
            return c;
        }

        /** Compared by the kind of the new value; a list or unknown value never matches. */
        private static boolean sameScalar(DeviceAttribute a, DeviceAttribute ref) {
            if (a.getString() != null) {
                return ref.getString() != null && a.getString().equals(ref.getString());
            }
            if (a.getInt() != null) {
                return ref.getInt() != null && a.getInt().equals(ref.getInt());
            }
            if (a.getBool() != null) {
                return ref.getBool() != null && a.getBool().equals(ref.getBool());
            }
            if (a.getVersion() != null) {
                return ref.getVersion() != null && a.getVersion().equals(ref.getVersion());
            }
            return false;
        }
    }

    /**
     * The identity under which {@link Distinct} compares a scalar value (its type and value); null for a value that
     * is not exactly one scalar (a list, or none or several fields set), whose comparisons are not an equality.
     */
    static String scalarKey(DeviceAttribute a) {
        char kind = scalarKind(a);
        return kind == 0 ? null : kind + ":" + scalar(a);
    }

    /**
     * The type of a value that is exactly one scalar: 's', 'i', 'b' or 'v' (string, int, bool, version); 0 for a
     * list, or none or several fields set.
     */
    static char scalarKind(DeviceAttribute a) {
        int set = (a.getString() != null ? 1 : 0)
                + (a.getInt() != null ? 1 : 0)
                + (a.getBool() != null ? 1 : 0)
                + (a.getVersion() != null ? 1 : 0);
        boolean lists = (a.getStrings() != null && !a.getStrings().isEmpty())
                || (a.getInts() != null && !a.getInts().isEmpty())
                || (a.getBools() != null && !a.getBools().isEmpty())
                || (a.getVersions() != null && !a.getVersions().isEmpty());
        if (set != 1 || lists) {
            return 0;
        }
        if (a.getString() != null) {
            return 's';
        }
        if (a.getInt() != null) {
            return 'i';
        }
        return a.getBool() != null ? 'b' : 'v';
    }

    /** The one scalar of a value whose {@link #scalarKind} is not 0. */
    static Object scalar(DeviceAttribute a) {
        if (a.getString() != null) {
            return a.getString();
        }
        if (a.getInt() != null) {
            return a.getInt();
        }
        return a.getBool() != null ? a.getBool() : a.getVersion();
    }

    /**
     * distinctAttribute: no two devices of the covered requests share a value. With set semantics the values are the
     * call's interned ids ({@link ValueIndex}): the devices taken so far hold pairwise disjoint sets, so their union
     * as a bit set tells with one test per id whether a device shares a value, and removing a device clears exactly
     * its own ids.
     */
    static final class Distinct extends Constraint {
        private final Search search;
        /** Scalar semantics: the values taken so far. */
        private final List<DeviceAttribute> values = new ArrayList<>();
        /** Set semantics: the ids of each device taken so far, and their union. */
        private final List<int[]> takenIds = new ArrayList<>();

        private final java.util.BitSet taken = new java.util.BitSet();
        private ValueIndex index;

        Distinct(List<String> requestNames, String attributeName, boolean setSemantics, Search search) {
            super(requestNames, attributeName, setSemantics, search.attributeColumn(attributeName));
            this.search = search;
        }

        /** The scalar keys of the values taken so far, or null when one of them is not a plain scalar. */
        List<String> usedKeys() {
            List<String> keys = new ArrayList<>(values.size());
            for (DeviceAttribute a : values) {
                String k = scalarKey(a);
                if (k == null) {
                    return null;
                }
                keys.add(k);
            }
            return keys;
        }

        @Override
        boolean add(RequestData request, int pos, DeviceInfo device) {
            if (!appliesTo(request)) {
                return true;
            }
            DeviceAttribute attribute = column[pos];
            if (attribute == null) {
                return false;
            }
            if (setSemantics) {
                if (index == null) {
                    index = search.valueIndex(attributeName);
                }
                int[] ids = index.ids(pos);
                if (ids == null) {
                    return false;
                }
                for (int id : ids) {
                    if (taken.get(id)) {
                        return false;
                    }
                }
                for (int id : ids) {
                    taken.set(id);
                }
                takenIds.add(ids);
                return true;
            }
            if (!distinctFromAll(attribute)) {
                return false;
            }
            values.add(attribute);
            return true;
        }

        @Override
        void remove(RequestData request, DeviceInfo device) {
            if (!appliesTo(request)) {
                return;
            }
            if (setSemantics) {
                for (int id : takenIds.remove(takenIds.size() - 1)) {
                    taken.clear(id);
                }
            } else {
                values.remove(values.size() - 1);
            }
        }

        private boolean distinctFromAll(DeviceAttribute attribute) {
            for (DeviceAttribute existing : values) {
                if (attribute.getString() != null) {
                    if (attribute.getString().equals(existing.getString())) {
                        return false;
                    }
                } else if (attribute.getInt() != null) {
                    if (attribute.getInt().equals(existing.getInt())) {
                        return false;
                    }
                } else if (attribute.getBool() != null) {
                    if (attribute.getBool().equals(existing.getBool())) {
                        return false;
                    }
                } else if (attribute.getVersion() != null) {
                    if (attribute.getVersion().equals(existing.getVersion())) {
                        return false;
                    }
                } else {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * An attribute value as a set of one element type; list values take precedence over scalars. Two sets of
     * different element types never intersect (interned, {@link AttributeValues}, they never share an id).
     */
    record TypedSet(char kind, Set<Object> elements) {
        static TypedSet of(DeviceAttribute a) {
            Elements e = Elements.of(a);
            return e == null ? null : new TypedSet(e.kind, new HashSet<>(e.values));
        }
    }

    /** The element type and elements (possibly repeated) of a {@link TypedSet}, before they become a set. */
    record Elements(char kind, List<?> values) {
        static Elements of(DeviceAttribute a) {
            if (a.getInts() != null && !a.getInts().isEmpty()) {
                return new Elements('i', a.getInts());
            }
            if (a.getBools() != null && !a.getBools().isEmpty()) {
                return new Elements('b', a.getBools());
            }
            if (a.getStrings() != null && !a.getStrings().isEmpty()) {
                return new Elements('s', a.getStrings());
            }
            if (a.getVersions() != null && !a.getVersions().isEmpty()) {
                return new Elements('v', a.getVersions());
            }
            if (a.getInt() != null) {
                return new Elements('i', List.of(a.getInt()));
            }
            if (a.getBool() != null) {
                return new Elements('b', List.of(a.getBool()));
            }
            if (a.getString() != null) {
                return new Elements('s', List.of(a.getString()));
            }
            if (a.getVersion() != null) {
                return new Elements('v', List.of(a.getVersion()));
            }
            return null;
        }
    }
}
