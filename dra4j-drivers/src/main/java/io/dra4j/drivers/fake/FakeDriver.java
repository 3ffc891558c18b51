package io.dra4j.drivers.fake;

import io.dra4j.kubelet.cdi.ContainerEdits;
import io.dra4j.kubelet.dra.DeviceHealth;
import io.dra4j.kubelet.dra.DraDriver;
import io.dra4j.kubelet.dra.PrepareResult;
import io.dra4j.kubelet.dra.PreparedClaim;
import io.dra4j.kubelet.dra.PreparedDevice;
import io.dra4j.kubelet.slices.HealthTaints;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A DRA driver for devices that exist only in a file: prepare checks that each allocated device exists and is
 * healthy and gives the container environment variables naming it (plus the device's own); unhealthy devices are
 * published with a NoExecute taint {@code <driver>/unhealthy}, dated when the device was first seen unhealthy (so
 * that republishing an unchanged pool writes nothing) and gone once it recovers, and reported to the kubelet as
 * Unhealthy through {@link #health}. The configuration can be replaced at run time (health changes).
 */
public final class FakeDriver implements DraDriver {
    private final AtomicReference<FakeConfig> config;
    private final Consumer<String> log;
    private final Clock clock;
    private final Map<String, Instant> unhealthySince = new ConcurrentHashMap<>();

    public FakeDriver(FakeConfig config, Consumer<String> log) {
        this(config, log, Clock.systemUTC());
    }

    public FakeDriver(FakeConfig config, Consumer<String> log, Clock clock) {
        this.config = new AtomicReference<>(config);
        this.log = log;
        this.clock = clock;
        noteHealth(config);
    }

    public FakeConfig config() {
        return config.get();
    }

    public void update(FakeConfig next) {
        noteHealth(next);
        config.set(next);
    }

    /** Remembers when each unhealthy device turned unhealthy, and forgets devices that are healthy again. */
    private void noteHealth(FakeConfig c) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Set<String> unhealthy = c.devices().stream()
                .filter(d -> !d.healthy())
                .map(FakeConfig.FakeDevice::name)
                .collect(Collectors.toSet());
        unhealthySince.keySet().retainAll(unhealthy);
        unhealthy.forEach(d -> unhealthySince.putIfAbsent(d, now));
    }

    public String driverName() {
        return config.get().driverName();
    }

    /** The devices to publish, tainted where unhealthy. */
    public List<Device> devices() {
        FakeConfig c = config.get();
        Map<String, Instant> since = Map.copyOf(unhealthySince);
        return HealthTaints.apply(
                c.devices().stream().map(FakeConfig.FakeDevice::device).toList(),
                since,
                c.driverName() + "/unhealthy",
                "NoExecute");
    }

    /** The health of every device in pool {@code pool}, as of now, for the kubelet's health stream. */
    public List<DeviceHealth> health(String pool) {
        Instant now = clock.instant();
        return config.get().devices().stream()
                .map(d -> DeviceHealth.of(
                        pool, d.name(), d.healthy(), now, d.healthy() ? "" : "marked unhealthy in the devices file"))
                .toList();
    }

    @Override
    public PrepareResult prepare(ResourceClaim claim, List<DeviceRequestAllocationResult> results) {
        FakeConfig c = config.get();
        List<PreparedDevice> out = new ArrayList<>();
        for (DeviceRequestAllocationResult r : results) {
            FakeConfig.FakeDevice d = c.device(r.getDevice()).orElse(null);
            if (d == null) {
                return PrepareResult.failed(
                        "device " + r.getPool() + "/" + r.getDevice() + " does not exist on this node");
            }
            if (!d.healthy()) {
                return PrepareResult.failed("device " + r.getPool() + "/" + r.getDevice() + " is unhealthy");
            }
            List<String> env = new ArrayList<>();
            env.add("DRA4J_FAKE_DEVICE_"
                    + r.getDevice().toUpperCase(Locale.ROOT).replace('-', '_') + "=" + r.getPool() + "/"
                    + r.getDevice());
            d.env().forEach((k, v) -> env.add(k + "=" + v));
            out.add(new PreparedDevice(
                    List.of(r.getRequest()), r.getPool(), r.getDevice(), r.getShareID(), ContainerEdits.env(env)));
        }
        log.accept("prepared claim " + claim.getMetadata().getNamespace() + "/"
                + claim.getMetadata().getName() + ": "
                + out.stream().map(PreparedDevice::id).toList());
        return PrepareResult.prepared(out);
    }

    @Override
    public String unprepare(PreparedClaim claim) {
        log.accept("unprepared claim " + claim.claim());
        return null;
    }

    @Override
    public void handleError(String message, Throwable cause, boolean recoverable) {
        log.accept(
                (recoverable ? "warning: " : "error: ") + message + (cause == null ? "" : ": " + cause.getMessage()));
    }
}
