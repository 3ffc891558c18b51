package io.dra4j.bench;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.Objects;

/**
 * A device already in use before the measured allocation: exclusively, or (for devices that allow multiple
 * allocations) as one share that consumes some of the device's capacity.
 *
 * @param consumedCapacity capacity the share consumes; empty for an exclusive allocation
 */
public record AllocatedDevice(
        String driver, String pool, String device, boolean shared, Map<String, Quantity> consumedCapacity) {
    public AllocatedDevice {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(device, "device");
        consumedCapacity = Map.copyOf(consumedCapacity);
    }

    static AllocatedDevice exclusive(String driver, String pool, String device) {
        return new AllocatedDevice(driver, pool, device, false, Map.of());
    }

    static AllocatedDevice share(String driver, String pool, String device, Map<String, Quantity> consumed) {
        return new AllocatedDevice(driver, pool, device, true, consumed);
    }
}
