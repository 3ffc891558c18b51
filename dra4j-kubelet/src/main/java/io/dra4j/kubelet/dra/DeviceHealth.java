package io.dra4j.kubelet.dra;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The health of one device as a DRA driver reports it to the kubelet (DRA resource health, KEP-4680). The kubelet
 * shows it in the status of the pods using the device; a report older than {@code healthCheckTimeout} (the
 * kubelet's 30 s when null) turns into {@code Unknown} there, so a driver sends its complete list again well
 * before that.
 *
 * @param healthCheckTimeout how long this report stays valid; null for the kubelet's default
 * @param message            a short explanation for users ("XID 79: GPU fell off the bus"); the kubelet keeps at
 *                           most 1024 characters
 */
public record DeviceHealth(
        String pool, String device, Status status, Instant lastUpdated, Duration healthCheckTimeout, String message) {
    public enum Status {
        UNKNOWN,
        HEALTHY,
        UNHEALTHY
    }

    public DeviceHealth {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(lastUpdated, "lastUpdated");
        message = message == null ? "" : message;
    }

    public static DeviceHealth of(String pool, String device, boolean healthy, Instant at, String message) {
        return new DeviceHealth(pool, device, healthy ? Status.HEALTHY : Status.UNHEALTHY, at, null, message);
    }
}
