package io.dra4j.cel.internal;

import java.util.List;
import java.util.Map;

/**
 * The sizes DRA's environment declares for what is reachable through {@code device} (dynamic-resource-allocation
 * {@code cel/compile.go}: the declared types' {@code MaxElements}, read by its {@code sizeEstimator}): the driver name
 * at most 63 characters, attribute and capacity maps at most 32 entries per level, domains 63 and IDs 32 characters,
 * attribute values 64 (the longer of a string value's 64 characters and a list's 48 values),
 * {@code allowMultipleAllocations} 1, quantities and the device itself 0.
 */
final class DeviceSizes {

    /** Upstream's DeviceMaxDomainLength, DeviceMaxIDLength, DriverNameMaxLength. */
    private static final long DOMAIN_LENGTH = 63;

    private static final long ID_LENGTH = 32;
    private static final long DRIVER_LENGTH = 63;
    /** ResourceSliceMaxAttributesAndCapacitiesPerDevice. */
    private static final long ENTRIES = 32;
    /** max(DeviceAttributeMaxValueLength, ResourceSliceMaxAttributeValuesPerDevice). */
    private static final long ATTRIBUTE_VALUE = Math.max(64, 48);

    /** One declared type: its maximum size, key and element types of a map, fields of an object. */
    private record Decl(long maxElements, Decl key, Decl elem, Map<String, Decl> fields) {
        static Decl simple(long maxElements) {
            return new Decl(maxElements, null, null, Map.of());
        }

        static Decl map(Decl key, Decl elem) {
            return new Decl(ENTRIES, key, elem, Map.of());
        }
    }

    private static final Decl DOMAIN = Decl.simple(DOMAIN_LENGTH);
    private static final Decl ID = Decl.simple(ID_LENGTH);
    private static final Decl ATTRIBUTE = Decl.simple(ATTRIBUTE_VALUE);
    private static final Decl DEVICE = new Decl(
            0,
            null,
            null,
            Map.of(
                    DeviceViews.DRIVER, Decl.simple(DRIVER_LENGTH),
                    DeviceViews.ALLOW_MULTIPLE_ALLOCATIONS, Decl.simple(1),
                    DeviceViews.ATTRIBUTES, Decl.map(DOMAIN, Decl.map(ID, ATTRIBUTE)),
                    DeviceViews.CAPACITY, Decl.map(DOMAIN, Decl.map(ID, Decl.simple(0)))));

    private DeviceSizes() {}

    /**
     * The size upstream's estimator declares for a field path ({@code device}, then field names, {@code @items},
     * {@code @values}, {@code @keys}), or null. Any name below an attribute map leads to an attribute value.
     */
    static Uint64Range estimate(List<String> path) {
        if (path == null || path.isEmpty() || !path.get(0).equals(DeviceType.VARIABLE)) {
            return null;
        }
        Decl node = DEVICE;
        for (String name : path.subList(1, path.size())) {
            switch (name) {
                case "@items", "@values" -> {
                    if (node.elem() == null) {
                        return null;
                    }
                    node = node.elem();
                }
                case "@keys" -> {
                    if (node.key() == null) {
                        return null;
                    }
                    node = node.key();
                }
                default -> {
                    Decl field = node.fields().get(name);
                    if (field == null) {
                        if (node.elem() == ATTRIBUTE) {
                            node = ATTRIBUTE;
                            continue;
                        }
                        return null;
                    }
                    node = field;
                }
            }
        }
        return new Uint64Range(0, node.maxElements());
    }
}
