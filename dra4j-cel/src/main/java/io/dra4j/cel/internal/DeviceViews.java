package io.dra4j.cel.internal;

import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.Semver;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Builds the {@link DeviceView} of a device the way upstream's {@code DeviceMatches} builds its input maps. */
public final class DeviceViews {

    public static final String DRIVER = "driver";
    public static final String ALLOW_MULTIPLE_ALLOCATIONS = "allowMultipleAllocations";
    public static final String ATTRIBUTES = "attributes";
    public static final String CAPACITY = "capacity";

    private DeviceViews() {}

    public static DeviceView of(String driver, Device device) {
        String driverName = driver == null ? "" : driver;
        SizeTracker sizes = new SizeTracker();
        sizes.string(driverName);

        // Attributes: converted in name order so that the reported error is deterministic when several are broken
        // (upstream reports whichever its map iteration meets first).
        Map<String, Map<String, Object>> attributes = new HashMap<>();
        Map<String, Boolean> qualified = new HashMap<>();
        Optional<String> invalid = Optional.empty();
        Map<String, DeviceAttribute> rawAttributes =
                device.getAttributes() == null ? Map.of() : new TreeMap<>(device.getAttributes());
        for (Map.Entry<String, DeviceAttribute> entry : rawAttributes.entrySet()) {
            Object value;
            try {
                value = attributeValue(entry.getValue(), sizes);
            } catch (IllegalArgumentException e) {
                if (invalid.isEmpty()) {
                    invalid = Optional.of("attribute " + entry.getKey() + ": " + e.getMessage());
                }
                continue;
            }
            put(attributes, qualified, entry.getKey(), driverName, value, sizes);
        }

        Map<String, Map<String, Object>> capacity = new HashMap<>();
        Map<String, Boolean> capacityQualified = new HashMap<>();
        Map<String, DeviceCapacity> rawCapacity =
                device.getCapacity() == null ? Map.of() : new TreeMap<>(device.getCapacity());
        for (Map.Entry<String, DeviceCapacity> entry : rawCapacity.entrySet()) {
            Quantity quantity =
                    entry.getValue() == null ? null : entry.getValue().getValue();
            Object value = quantity == null ? KubeQuantity.parse("0") : KubeQuantity.fromFabric8(quantity);
            put(capacity, capacityQualified, entry.getKey(), driverName, value, sizes);
        }

        Map<String, Object> variable = Map.of(
                DRIVER,
                driverName,
                ALLOW_MULTIPLE_ALLOCATIONS,
                Boolean.TRUE.equals(device.getAllowMultipleAllocations()),
                ATTRIBUTES,
                new DomainMap(attributes),
                CAPACITY,
                new DomainMap(capacity));
        sizes.size(attributes.size());
        sizes.size(capacity.size());
        return new DeviceView(variable, sizes.max, invalid);
    }

    /**
     * Files a value under (domain, id). A name splits at its first '/'; without one the driver is the domain. When a
     * short name and a fully qualified name land on the same key, the fully qualified entry wins (upstream leaves this
     * to map order).
     */
    private static void put(
            Map<String, Map<String, Object>> target,
            Map<String, Boolean> qualified,
            String name,
            String driver,
            Object value,
            SizeTracker sizes) {
        int slash = name.indexOf('/');
        String domain = slash < 0 ? driver : name.substring(0, slash);
        String id = slash < 0 ? name : name.substring(slash + 1);
        String key = domain + "/" + id;
        boolean isQualified = slash >= 0;
        Boolean existingQualified = qualified.get(key);
        if (existingQualified != null && existingQualified && !isQualified) {
            return;
        }
        qualified.put(key, isQualified);
        Map<String, Object> ids = target.computeIfAbsent(domain, d -> new HashMap<>());
        ids.put(id, value);
        sizes.string(domain);
        sizes.string(id);
        sizes.size(ids.size());
    }

    /** The CEL value of an attribute; list forms take precedence as in upstream's getAttributeValue. */
    private static Object attributeValue(DeviceAttribute attribute, SizeTracker sizes) {
        if (attribute == null) {
            throw new IllegalArgumentException("unsupported attribute value");
        }
        if (isSet(attribute.getInts())) {
            sizes.size(attribute.getInts().size());
            return List.copyOf(attribute.getInts());
        }
        if (isSet(attribute.getBools())) {
            sizes.size(attribute.getBools().size());
            return List.copyOf(attribute.getBools());
        }
        if (isSet(attribute.getStrings())) {
            sizes.size(attribute.getStrings().size());
            attribute.getStrings().forEach(sizes::string);
            return List.copyOf(attribute.getStrings());
        }
        if (isSet(attribute.getVersions())) {
            sizes.size(attribute.getVersions().size());
            List<Semver> versions = new ArrayList<>(attribute.getVersions().size());
            for (String version : attribute.getVersions()) {
                versions.add(parseVersion(version));
            }
            return List.copyOf(versions);
        }
        if (attribute.getInt() != null) {
            return attribute.getInt();
        }
        if (attribute.getBool() != null) {
            return attribute.getBool();
        }
        if (attribute.getString() != null) {
            sizes.string(attribute.getString());
            return attribute.getString();
        }
        if (attribute.getVersion() != null) {
            return parseVersion(attribute.getVersion());
        }
        throw new IllegalArgumentException("unsupported attribute value");
    }

    private static boolean isSet(List<?> values) {
        // fabric8 cannot tell an absent list from an empty one; validation forbids empty lists.
        return values != null && !values.isEmpty();
    }

    private static Semver parseVersion(String version) {
        try {
            return Semver.parse(version);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("parse semantic version: " + e.getMessage(), e);
        }
    }

    /** Tracks the largest value size seen, in the units cel-go's cost functions use (code points, elements). */
    private static final class SizeTracker {
        long max;

        void string(String s) {
            size(s.codePointCount(0, s.length()));
        }

        void size(long size) {
            max = Math.max(max, size);
        }
    }
}
