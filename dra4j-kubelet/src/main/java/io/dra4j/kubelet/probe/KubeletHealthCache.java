package io.dra4j.kubelet.probe;

import io.dra4j.kubelet.proto.health.v1.DeviceHealth;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One driver's part of the kubelet's device health cache, with its rules ({@code pkg/kubelet/cm/dra/healthinfo.go}
 * updateHealthInfo and getHealthInfo, {@code manager.go} buildDeviceHealth and HandleWatchResourcesStream's
 * clearDriver): an entry is stamped with the time the kubelet received it (not the driver's
 * {@code last_updated_time}) and reads as Unknown without a message once older than its timeout
 * ({@code health_check_timeout_seconds} when positive, else 30 s); a device missing from a report is, once timed out,
 * announced as changed to Unknown (unless it already was) and dropped; an absent device reads as Unknown; the end of
 * the stream clears the driver. Changes (new device, other health, message or timeout) are what the kubelet announces
 * to the pods that use the devices. Times are passed in, so that the rules are tested without waiting. Not
 * thread-safe: one stream's reader owns it.
 */
final class KubeletHealthCache {
    /** {@code DefaultHealthTimeout}. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    /** How a device shows in a pod's {@code allocatedResourcesStatus} ({@code v1.ResourceHealthStatus}). */
    enum Health {
        Healthy,
        Unhealthy,
        Unknown
    }

    /** A cached entry: what was reported, when the kubelet received it and how long it holds. */
    record Entry(String pool, String device, Health health, String message, Instant lastUpdated, Duration timeout) {
        String key() {
            return pool + "/" + device;
        }

        boolean expiredAt(Instant now) {
            return Duration.between(lastUpdated, now).compareTo(timeout) > 0;
        }
    }

    private final Map<String, Entry> devices = new LinkedHashMap<>();

    /** The entry the kubelet makes of a reported device received at {@code now} (buildDeviceHealth). */
    static Entry entry(DeviceHealth d, Instant now) {
        Health health = switch (d.getHealth()) {
            case HEALTHY -> Health.Healthy;
            case UNHEALTHY -> Health.Unhealthy;
            default -> Health.Unknown;
        };
        long seconds = d.getHealthCheckTimeoutSeconds();
        Duration timeout = seconds > 0 ? Duration.ofSeconds(seconds) : DEFAULT_TIMEOUT;
        return new Entry(
                d.getDevice().getPoolName(),
                d.getDevice().getDeviceName(),
                health,
                truncate(d.getMessage()),
                now,
                timeout);
    }

    /**
     * Reconciles the cache with one report received at {@code now}; returns the devices whose health changed, in
     * the kubelet's order (reported devices first, then timed-out absent ones).
     */
    List<Entry> update(List<DeviceHealth> report, Instant now) {
        // Phase 1: the report's devices replace their entries; new ones past the per-driver cap are ignored.
        List<Entry> changed = new ArrayList<>();
        Set<String> reported = new HashSet<>();
        for (DeviceHealth d : report) {
            Entry e = entry(d, now);
            reported.add(e.key());
            Entry old = devices.get(e.key());
            if (old == null && devices.size() >= HealthStreamProbe.MAX_DEVICES) {
                continue;
            }
            if (old == null
                    || old.health() != e.health()
                    || !old.message().equals(e.message())
                    || !old.timeout().equals(e.timeout())) {
                changed.add(e);
            }
            devices.put(e.key(), e);
        }
        // Phase 2: devices the report left out turn Unknown once timed out, and are dropped.
        for (Iterator<Entry> it = devices.values().iterator(); it.hasNext(); ) {
            Entry old = it.next();
            if (reported.contains(old.key()) || !old.expiredAt(now)) {
                continue;
            }
            if (old.health() != Health.Unknown) {
                changed.add(new Entry(old.pool(), old.device(), Health.Unknown, "", now, old.timeout()));
            }
            it.remove();
        }
        return changed;
    }

    /** The health the kubelet puts in a pod's status for the device at {@code now}. */
    Entry get(String pool, String device, Instant now) {
        Entry e = devices.get(pool + "/" + device);
        if (e == null || e.expiredAt(now)) {
            return new Entry(pool, device, Health.Unknown, "", now, DEFAULT_TIMEOUT);
        }
        return e;
    }

    /** The stream ended: every device of the driver reads Unknown. */
    void clear() {
        devices.clear();
    }

    /**
     * truncateHealthMessage: at most 1024 bytes, a longer message cut to its first 1021 bytes and "..." appended. A
     * character cut in half leaves bytes that are not UTF-8; the API server's JSON writes each as U+FFFD, and so
     * does this.
     */
    static String truncate(String message) {
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= HealthStreamProbe.MAX_MESSAGE_BYTES) {
            return message;
        }
        int cut = HealthStreamProbe.MAX_MESSAGE_BYTES - 3;
        int lead = cut - 1;
        while (lead > 0 && (bytes[lead] & 0xC0) == 0x80 && cut - lead < 4) {
            lead--;
        }
        int b = bytes[lead] & 0xFF;
        int length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
        int whole = lead + length <= cut ? cut : lead;
        return new String(bytes, 0, whole, StandardCharsets.UTF_8) + "\uFFFD".repeat(cut - whole) + "...";
    }
}
