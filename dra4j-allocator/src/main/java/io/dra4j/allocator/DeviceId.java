package io.dra4j.allocator;

import java.util.Objects;

/** A device, identified by driver, pool and device name. Its string form is {@code driver/pool/device}. */
public record DeviceId(String driver, String pool, String device) {
    public DeviceId {
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(device, "device");
    }

    @Override
    public String toString() {
        return driver + "/" + pool + "/" + device;
    }
}
