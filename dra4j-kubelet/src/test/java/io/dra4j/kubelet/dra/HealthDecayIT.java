package io.dra4j.kubelet.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.kubelet.TestClaims;
import io.dra4j.kubelet.probe.KubeletProbe;
import io.dra4j.kubelet.probe.ProbeOptions;
import io.dra4j.kubelet.probe.ProbeReport;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubelet-probe watching the health stream of the DRA plugin helper over real Unix sockets while a claim is
 * prepared, as the kubelet keeps the claim's pod's device health: reports that are not renewed within their
 * timeout decay to Unknown, so does everything when the stream ends, and renewed ones keep their health with the
 * changes announced to the pod.
 */
class HealthDecayIT {
    static final String DRIVER = "gpu.example.com";
    static final String NODE = "node-a";
    static final String CHECK = "prepared devices keep a known health while their pods run";

    @TempDir
    Path tmp;

    private final ResourceClaim claim = TestClaims.allocated(
            "default",
            "c1",
            "uid-1",
            NODE,
            List.of(TestClaims.result("gpu", DRIVER, NODE, "dev-0"), TestClaims.result("gpu", DRIVER, NODE, "dev-1")));

    private DraPluginOptions options() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        return DraPluginOptions.defaults(DRIVER, NODE, root)
                .withCdiDirectory(tmp.resolve("cdi"))
                .withHealth(true);
    }

    private DraPlugin start(DraPluginOptions o) throws Exception {
        return DraPlugin.start(
                new RecordingDriver(Set.of("dev-0", "dev-1")),
                (ns, n) -> "default/c1".equals(ns + "/" + n) ? claim : null,
                o);
    }

    private ProbeReport probe(DraPluginOptions o, Duration watch) {
        return new KubeletProbe(new ProbeOptions(
                        o.registrarDirectory().getParent(),
                        List.of(o.cdiDirectory()),
                        List.of(claim),
                        NODE,
                        Duration.ofSeconds(5),
                        true,
                        false,
                        List.of(),
                        watch))
                .run();
    }

    private static ProbeReport.Check check(ProbeReport r) {
        StringWriter w = new StringWriter();
        r.print(new PrintWriter(w, true));
        assertThat(r.checks())
                .as(w.toString())
                .filteredOn(c -> c.name().equals(CHECK))
                .hasSize(1);
        return r.checks().stream()
                .filter(c -> c.name().equals(CHECK))
                .findFirst()
                .orElseThrow();
    }

    private static DeviceHealth health(String device, DeviceHealth.Status status, Duration timeout, String message) {
        return new DeviceHealth(NODE, device, status, Instant.now(), timeout, message);
    }

    @Test
    void aReportNotRenewedWithinItsTimeoutDecaysToUnknown() throws Exception {
        DraPluginOptions o = options();
        try (DraPlugin plugin = start(o)) {
            // dev-1's report holds 1 s and is never renewed; dev-0's holds the default 30 s.
            plugin.reportHealth(List.of(
                    health("dev-0", DeviceHealth.Status.HEALTHY, null, ""),
                    health("dev-1", DeviceHealth.Status.UNHEALTHY, Duration.ofSeconds(1), "XID 79")));
            ProbeReport report = probe(o, Duration.ofSeconds(3));
            ProbeReport.Check c = check(report);
            assertThat(c.passed()).isFalse();
            assertThat(c.detail())
                    .containsPattern("pod status after 3000 ms: default/c1 \\S+ Healthy, default/c1 \\S+ Unknown;")
                    .contains("announced to pods: default/c1 node-a/dev-0 Healthy after 0 ms, "
                            + "default/c1 node-a/dev-1 Unhealthy after 0 ms")
                    .contains("decayed to Unknown: node-a/dev-1 (last reported Unhealthy)");
            // Unprepared after the watch, as the kubelet would once the pod is gone.
            assertThat(plugin.preparedClaims()).isEmpty();
        }
    }

    @Test
    void reportsRenewedInTimeKeepTheirHealthAndChangesAreAnnounced() throws Exception {
        DraPluginOptions o = options();
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor();
        try (DraPlugin plugin = start(o)) {
            AtomicInteger round = new AtomicInteger();
            Runnable report = () -> {
                boolean failed = round.getAndIncrement() >= 4;
                plugin.reportHealth(List.of(
                        health("dev-0", DeviceHealth.Status.HEALTHY, Duration.ofSeconds(10), ""),
                        health(
                                "dev-1",
                                failed ? DeviceHealth.Status.UNHEALTHY : DeviceHealth.Status.HEALTHY,
                                Duration.ofSeconds(10),
                                failed ? "XID 79" : "")));
            };
            report.run();
            reporter.scheduleWithFixedDelay(report, 200, 200, TimeUnit.MILLISECONDS);
            ProbeReport r = probe(o, Duration.ofSeconds(3));
            ProbeReport.Check c = check(r);
            assertThat(c.passed()).as(c.detail()).isTrue();
            assertThat(c.detail())
                    .containsPattern(
                            "pod status after 3000 ms: default/c1 \\S+ Healthy, default/c1 \\S+ Unhealthy \\(XID 79\\)")
                    .containsPattern("default/c1 node-a/dev-1 Unhealthy after \\d+ ms")
                    .doesNotContain("decayed");
        } finally {
            reporter.shutdownNow();
        }
    }

    @Test
    void theEndOfTheStreamClearsTheDriversHealth() throws Exception {
        DraPluginOptions o = options();
        DraPlugin plugin = start(o);
        ScheduledExecutorService stopper = Executors.newSingleThreadScheduledExecutor();
        try {
            plugin.reportHealth(List.of(
                    health("dev-0", DeviceHealth.Status.HEALTHY, null, ""),
                    health("dev-1", DeviceHealth.Status.HEALTHY, null, "")));
            stopper.schedule(plugin::close, 1, TimeUnit.SECONDS);
            ProbeReport.Check c = check(probe(o, Duration.ofSeconds(4)));
            assertThat(c.passed()).isFalse();
            assertThat(c.detail())
                    .containsPattern("default/c1 \\S+ Unknown, default/c1 \\S+ Unknown;")
                    .containsPattern(
                            "the stream ended after \\d+ ms \\(\\w+\\): the kubelet clears gpu.example.com's health")
                    .contains(
                            "decayed to Unknown: node-a/dev-0 (last reported Healthy), node-a/dev-1 (last reported Healthy)");
        } finally {
            stopper.shutdownNow();
            plugin.close();
        }
    }
}
