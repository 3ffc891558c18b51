package io.dra4j.kubelet.probe;

import io.dra4j.kubelet.UnixSocketChannel;
import io.dra4j.kubelet.proto.health.v1.DRAResourceHealthGrpc;
import io.dra4j.kubelet.proto.health.v1.DeviceHealth;
import io.dra4j.kubelet.proto.health.v1.HealthStatus;
import io.dra4j.kubelet.proto.health.v1.NodeWatchResourcesRequest;
import io.dra4j.kubelet.proto.health.v1.NodeWatchResourcesResponse;
import io.dra4j.kubelet.registration.PluginInfo;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The DRA resource health stream of a driver that advertises it, read as the kubelet reads it: over the newest
 * version both sides know ({@code v1.DRAResourceHealth}, else {@code v1alpha1.DRAResourceHealth}, as
 * {@code pkg/kubelet/cm/dra/plugin} pickHealthService; v1alpha1 messages read as v1, field for field), and as
 * ({@code pkg/kubelet/cm/dra/manager.go} HandleWatchResourcesStream and buildDeviceHealth,
 * {@code healthinfo.go} updateHealthInfo): the first update must come within the kubelet's default health timeout
 * (30 s; later, devices not reported decay to Unknown), and every entry must be something the kubelet takes as
 * meant: a pool and device name, each device once, a status it knows (anything but HEALTHY and UNHEALTHY reads as
 * Unknown), a timeout that is not negative (ignored), a message of at most 1024 bytes (cut), no more than 16384
 * devices (the rest ignored). Given the node's ResourceSlices, the devices must be ones the driver publishes, and
 * all of them (a report is meant to be the complete list). Watched longer, the stream feeds the kubelet's health
 * cache ({@link KubeletHealthCache}) and the prepared claims' devices get the health their pods' status would show,
 * Unknown included once a report timed out or the stream ended.
 */
final class HealthStreamProbe {
    /** The versions the kubelet knows, the one it prefers first ({@code healthServicesSupportedByKubelet}). */
    static final List<String> SERVICES = List.of(PluginInfo.HEALTH_V1, PluginInfo.HEALTH_V1ALPHA1);
    /** {@code DefaultHealthTimeout}. */
    static final long FIRST_UPDATE_TIMEOUT_MS = 30_000;
    /** {@code v1.ResourceHealthMessageMaxLength}. */
    static final int MAX_MESSAGE_BYTES = 1024;
    /** {@code maxDevicesPerDriver}. */
    static final int MAX_DEVICES = 16384;

    private HealthStreamProbe() {}

    /**
     * A device of a prepared claim as the kubelet keeps it for the claim's pods: the claim, the device and the
     * {@code ResourceID} it has in a pod's {@code allocatedResourcesStatus} (its first CDI device ID, else
     * driver/pool/device, as buildResourceHealth).
     */
    record PreparedDevice(String claim, String pool, String device, String resourceId) {}

    /** What the stream delivered: an update with when it arrived, or its end (status OK for a clean end). */
    private sealed interface Event permits Update, End {}

    private record Update(NodeWatchResourcesResponse response, Instant received) implements Event {}

    private record End(Status status) implements Event {}

    /** One NodeWatchResources call, its messages queued as they arrive; closing cancels it. */
    private static final class Stream implements AutoCloseable {
        final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        volatile ClientCallStreamObserver<?> call;

        <Q, R> ClientResponseObserver<Q, R> observer(Function<R, NodeWatchResourcesResponse> read) {
            return new ClientResponseObserver<>() {
                @Override
                public void beforeStart(ClientCallStreamObserver<Q> requests) {
                    call = requests;
                }

                @Override
                public void onNext(R value) {
                    events.add(new Update(read.apply(value), Instant.now()));
                }

                @Override
                public void onError(Throwable t) {
                    events.add(new End(Status.fromThrowable(t)));
                }

                @Override
                public void onCompleted() {
                    events.add(new End(Status.OK));
                }
            };
        }

        Event poll(long millis) throws InterruptedException {
            return events.poll(Math.max(0, millis), TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            ClientCallStreamObserver<?> c = call;
            if (c != null) {
                c.cancel("kubelet-probe is done with the stream", null);
            }
        }
    }

    /**
     * Runs the checks when {@code supportedVersions} advertises the service; does nothing otherwise. With a
     * {@code watch} longer than zero and prepared devices, the stream is then read for that long while the claims
     * stay prepared, through the kubelet's health cache ({@link KubeletHealthCache}), as the kubelet keeps their
     * pods' {@code allocatedResourcesStatus}.
     */
    static void run(
            ProbeReport report,
            String suite,
            UnixSocketChannel ch,
            List<String> supportedVersions,
            String driver,
            String nodeName,
            List<ResourceSlice> slices,
            List<PreparedDevice> prepared,
            Duration watch) {
        String service = SERVICES.stream()
                .filter(supportedVersions::contains)
                .findFirst()
                .orElse(null);
        if (service == null) {
            return;
        }
        long t0 = System.nanoTime();
        try (Stream stream = open(ch, service)) {
            Event event = stream.poll(FIRST_UPDATE_TIMEOUT_MS);
            if (!(event instanceof Update first)) {
                firstUpdateMissing(report, suite, (End) event);
                return;
            }
            NodeWatchResourcesResponse update = first.response();
            record(
                    report,
                    suite,
                    "health stream sends an update within 30 s",
                    true,
                    service + ": " + update.getDevicesCount() + " device(s) after " + millisSince(t0) + " ms: "
                            + String.join(", ", shown(update)));
            checkFirst(report, suite, update, driver, nodeName, slices);
            if (!watch.isZero() && !watch.isNegative() && !prepared.isEmpty()) {
                watch(report, suite, stream, first, driver, prepared, watch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            record(report, suite, "health stream sends an update within 30 s", false, "interrupted");
        }
    }

    private static void firstUpdateMissing(ProbeReport report, String suite, End end) {
        String name = "health stream sends an update within 30 s";
        if (end == null) {
            record(
                    report,
                    suite,
                    name,
                    false,
                    "no update within 30 s: the kubelet shows the driver's devices as Unknown");
        } else if (end.status().isOk()) {
            record(
                    report,
                    suite,
                    name,
                    false,
                    "the stream ended without an update; the kubelet clears the driver's health when it ends");
        } else if (end.status().getCode() == Status.Code.UNIMPLEMENTED) {
            record(
                    report,
                    suite,
                    name,
                    true,
                    "Unimplemented: the driver does not report health, the kubelet stops watching");
        } else {
            record(report, suite, name, false, end.status().toString());
        }
    }

    private static void checkFirst(
            ProbeReport report,
            String suite,
            NodeWatchResourcesResponse first,
            String driver,
            String nodeName,
            List<ResourceSlice> slices) {
        List<String> malformed = malformed(first);
        record(report, suite, "health update is well-formed", malformed.isEmpty(), String.join("; ", malformed));
        List<String> rejected = notAsMeant(first);
        record(
                report,
                suite,
                "health values are taken by the kubelet as sent",
                rejected.isEmpty(),
                String.join("; ", rejected));
        Set<String> published = published(driver, nodeName, slices);
        if (!slices.isEmpty()) {
            Set<String> reported = new LinkedHashSet<>();
            first.getDevicesList().forEach(d -> reported.add(key(d)));
            Set<String> unknown = new TreeSet<>(reported);
            unknown.removeAll(published);
            record(
                    report,
                    suite,
                    "health update names only published devices",
                    unknown.isEmpty(),
                    unknown.isEmpty() ? "" : "not in the node's ResourceSlices of " + driver + ": " + unknown);
            Set<String> missing = new TreeSet<>(published);
            missing.removeAll(reported);
            record(
                    report,
                    suite,
                    "health update covers every published device",
                    missing.isEmpty(),
                    missing.isEmpty() ? "" : "missing (they decay to Unknown after 30 s): " + missing);
        }
    }

    /**
     * Reads the stream for {@code watch} as the kubelet does while the prepared claims' pods run: each update goes
     * through the health cache, its changes are announced to the claims whose devices changed, the end of the
     * stream clears the driver. Then each prepared device has the health a pod's status shows; the check fails
     * when one the driver had reported as Healthy or Unhealthy decayed to Unknown (its report timed out, or the
     * stream ended).
     */
    private static void watch(
            ProbeReport report,
            String suite,
            Stream stream,
            Update first,
            String driver,
            List<PreparedDevice> prepared,
            Duration watch)
            throws InterruptedException {
        KubeletHealthCache cache = new KubeletHealthCache();
        Map<String, KubeletHealthCache.Health> lastReported = new LinkedHashMap<>();
        List<String> announced = new ArrayList<>();
        long t0 = System.nanoTime();
        announce(
                announced,
                cache.update(first.response().getDevicesList(), first.received()),
                prepared,
                lastReported,
                first.response(),
                0);
        String ended = null;
        long deadline = t0 + watch.toNanos();
        while (System.nanoTime() < deadline) {
            Event event = stream.poll((deadline - System.nanoTime()) / 1_000_000);
            if (event instanceof Update u) {
                announce(
                        announced,
                        cache.update(u.response().getDevicesList(), u.received()),
                        prepared,
                        lastReported,
                        u.response(),
                        millisSince(t0));
            } else if (event instanceof End end) {
                cache.clear();
                ended = "the stream ended after " + millisSince(t0) + " ms ("
                        + (end.status().isOk() ? "EOF" : end.status().getCode()) + "): the kubelet clears "
                        + driver + "'s health";
                break;
            }
        }
        Instant now = Instant.now();
        List<String> shown = new ArrayList<>();
        List<String> decayed = new ArrayList<>();
        for (PreparedDevice d : prepared) {
            KubeletHealthCache.Entry e = cache.get(d.pool(), d.device(), now);
            shown.add(d.claim() + " " + d.resourceId() + " " + e.health()
                    + (e.message().isEmpty() ? "" : " (" + e.message() + ")"));
            KubeletHealthCache.Health before = lastReported.get(d.pool() + "/" + d.device());
            if (e.health() == KubeletHealthCache.Health.Unknown
                    && before != null
                    && before != KubeletHealthCache.Health.Unknown) {
                decayed.add(d.pool() + "/" + d.device() + " (last reported " + before + ")");
            }
        }
        List<String> detail = new ArrayList<>();
        detail.add("pod status after " + watch.toMillis() + " ms: " + String.join(", ", shown));
        if (!announced.isEmpty()) {
            detail.add("announced to pods: " + String.join(", ", announced));
        }
        if (ended != null) {
            detail.add(ended);
        }
        if (!decayed.isEmpty()) {
            detail.add("decayed to Unknown: " + String.join(", ", decayed)
                    + (ended == null ? "; a report holds for its health_check_timeout_seconds (else 30 s)" : ""));
        }
        record(
                report,
                suite,
                "prepared devices keep a known health while their pods run",
                decayed.isEmpty(),
                String.join("; ", detail));
    }

    /** Records the changes the kubelet announces to the pods of the prepared claims using the changed devices. */
    private static void announce(
            List<String> announced,
            List<KubeletHealthCache.Entry> changed,
            List<PreparedDevice> prepared,
            Map<String, KubeletHealthCache.Health> lastReported,
            NodeWatchResourcesResponse update,
            long afterMillis) {
        for (DeviceHealth d : update.getDevicesList()) {
            lastReported.put(key(d), KubeletHealthCache.entry(d, Instant.EPOCH).health());
        }
        for (KubeletHealthCache.Entry e : changed) {
            for (PreparedDevice d : prepared) {
                if (d.pool().equals(e.pool()) && d.device().equals(e.device())) {
                    announced.add(d.claim() + " " + e.key() + " " + e.health() + " after " + afterMillis + " ms");
                }
            }
        }
    }

    private static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** The stream over {@code service}; v1alpha1 messages come back as the v1 messages with the same bytes. */
    private static Stream open(UnixSocketChannel ch, String service) {
        Stream stream = new Stream();
        if (service.equals(PluginInfo.HEALTH_V1)) {
            DRAResourceHealthGrpc.newStub(ch.channel())
                    .nodeWatchResources(
                            NodeWatchResourcesRequest.getDefaultInstance(),
                            stream.<NodeWatchResourcesRequest, NodeWatchResourcesResponse>observer(r -> r));
            return stream;
        }
        io.dra4j.kubelet.proto.health.v1alpha1.DRAResourceHealthGrpc.newStub(ch.channel())
                .nodeWatchResources(
                        io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesRequest.getDefaultInstance(),
                        stream
                                .<io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesRequest,
                                        io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesResponse>
                                        observer(HealthStreamProbe::asV1));
        return stream;
    }

    private static NodeWatchResourcesResponse asV1(
            io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesResponse alpha) {
        try {
            return NodeWatchResourcesResponse.parseFrom(alpha.toByteString());
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalStateException("v1 and v1alpha1 health messages differ", e);
        }
    }

    /**
     * Each device's health as the kubelet shows it in a pod's {@code allocatedResourcesStatus}
     * ({@code toResourceHealthStatus}: Healthy, Unhealthy, anything else Unknown), with the message.
     */
    static List<String> shown(NodeWatchResourcesResponse r) {
        List<String> out = new ArrayList<>();
        for (DeviceHealth d : r.getDevicesList()) {
            String health = switch (d.getHealth()) {
                case HEALTHY -> "Healthy";
                case UNHEALTHY -> "Unhealthy";
                default -> "Unknown";
            };
            out.add(key(d) + " " + health + (d.getMessage().isEmpty() ? "" : " (" + d.getMessage() + ")"));
        }
        return out;
    }

    /** Entries without a pool or device name, and devices named twice. */
    static List<String> malformed(NodeWatchResourcesResponse r) {
        List<String> problems = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < r.getDevicesCount(); i++) {
            DeviceHealth d = r.getDevices(i);
            if (!d.hasDevice() || d.getDevice().getPoolName().isEmpty()) {
                problems.add("devices[" + i + "].device.pool_name: empty");
            }
            if (!d.hasDevice() || d.getDevice().getDeviceName().isEmpty()) {
                problems.add("devices[" + i + "].device.device_name: empty");
            }
            if (d.hasDevice() && !seen.add(key(d))) {
                problems.add("devices[" + i + "]: " + key(d) + " reported twice");
            }
        }
        return problems;
    }

    /** Values the kubelet reads other than as sent. */
    static List<String> notAsMeant(NodeWatchResourcesResponse r) {
        List<String> problems = new ArrayList<>();
        if (r.getDevicesCount() > MAX_DEVICES) {
            problems.add(r.getDevicesCount() + " devices: the kubelet keeps at most " + MAX_DEVICES + " per driver");
        }
        for (int i = 0; i < r.getDevicesCount(); i++) {
            DeviceHealth d = r.getDevices(i);
            String at = "devices[" + i + "] (" + key(d) + ")";
            if (d.getHealth() != HealthStatus.HEALTHY
                    && d.getHealth() != HealthStatus.UNHEALTHY
                    && d.getHealth() != HealthStatus.UNKNOWN) {
                problems.add(
                        at + ".health: " + d.getHealthValue() + " is not a HealthStatus, the kubelet reads Unknown");
            }
            if (d.getHealthCheckTimeoutSeconds() < 0) {
                problems.add(at + ".health_check_timeout_seconds: " + d.getHealthCheckTimeoutSeconds()
                        + " is negative, the kubelet ignores it and uses 30 s");
            }
            int bytes = d.getMessage().getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_MESSAGE_BYTES) {
                problems.add(at + ".message: " + bytes + " bytes, the kubelet cuts it to " + MAX_MESSAGE_BYTES);
            }
        }
        return problems;
    }

    private static Set<String> published(String driver, String nodeName, List<ResourceSlice> slices) {
        Set<String> keys = new LinkedHashSet<>();
        for (ResourceSlice s : slices) {
            var spec = s.getSpec();
            if (spec == null
                    || !driver.equals(spec.getDriver())
                    || spec.getPool() == null
                    || spec.getDevices() == null
                    || (nodeName != null && !nodeName.equals(spec.getNodeName()))) {
                continue;
            }
            spec.getDevices().forEach(d -> keys.add(spec.getPool().getName() + "/" + d.getName()));
        }
        return keys;
    }

    private static String key(DeviceHealth d) {
        return d.getDevice().getPoolName() + "/" + d.getDevice().getDeviceName();
    }

    private static void record(ProbeReport report, String suite, String name, boolean passed, String detail) {
        report.add(new ProbeReport.Check(suite, name, passed, detail, 0));
    }
}
