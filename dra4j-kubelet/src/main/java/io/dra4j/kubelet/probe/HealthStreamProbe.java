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
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

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
 * all of them (a report is meant to be the complete list).
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

    /** Runs the checks when {@code supportedVersions} advertises the service; does nothing otherwise. */
    static void run(
            ProbeReport report,
            String suite,
            UnixSocketChannel ch,
            List<String> supportedVersions,
            String driver,
            String nodeName,
            List<ResourceSlice> slices) {
        String service = SERVICES.stream()
                .filter(supportedVersions::contains)
                .findFirst()
                .orElse(null);
        if (service == null) {
            return;
        }
        NodeWatchResourcesResponse first;
        long t0 = System.nanoTime();
        try {
            Iterator<NodeWatchResourcesResponse> stream = open(ch, service);
            if (!stream.hasNext()) {
                record(
                        report,
                        suite,
                        "health stream sends an update within 30 s",
                        false,
                        "the stream ended without an update; the kubelet clears the driver's health when it ends");
                return;
            }
            first = stream.next();
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
                record(
                        report,
                        suite,
                        "health stream sends an update within 30 s",
                        true,
                        "Unimplemented: the driver does not report health, the kubelet stops watching");
                return;
            }
            record(
                    report,
                    suite,
                    "health stream sends an update within 30 s",
                    false,
                    e.getStatus().toString());
            return;
        }
        record(
                report,
                suite,
                "health stream sends an update within 30 s",
                true,
                service + ": " + first.getDevicesCount() + " device(s) after " + (System.nanoTime() - t0) / 1_000_000
                        + " ms: " + String.join(", ", shown(first)));
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

    /** The stream over {@code service}; v1alpha1 messages come back as the v1 messages with the same bytes. */
    private static Iterator<NodeWatchResourcesResponse> open(UnixSocketChannel ch, String service) {
        if (service.equals(PluginInfo.HEALTH_V1)) {
            return DRAResourceHealthGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(FIRST_UPDATE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .nodeWatchResources(NodeWatchResourcesRequest.getDefaultInstance());
        }
        Iterator<io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesResponse> alpha =
                io.dra4j.kubelet.proto.health.v1alpha1.DRAResourceHealthGrpc.newBlockingStub(ch.channel())
                        .withDeadlineAfter(FIRST_UPDATE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .nodeWatchResources(
                                io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesRequest.getDefaultInstance());
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return alpha.hasNext();
            }

            @Override
            public NodeWatchResourcesResponse next() {
                try {
                    return NodeWatchResourcesResponse.parseFrom(alpha.next().toByteString());
                } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                    throw new IllegalStateException("v1 and v1alpha1 health messages differ", e);
                }
            }
        };
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
