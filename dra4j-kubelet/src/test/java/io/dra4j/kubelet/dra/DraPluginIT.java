package io.dra4j.kubelet.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.kubelet.TestClaims;
import io.dra4j.kubelet.UnixSocketChannel;
import io.dra4j.kubelet.probe.KubeletProbe;
import io.dra4j.kubelet.probe.ProbeOptions;
import io.dra4j.kubelet.probe.ProbeReport;
import io.dra4j.kubelet.proto.health.v1.DRAResourceHealthGrpc;
import io.dra4j.kubelet.proto.health.v1.NodeWatchResourcesRequest;
import io.dra4j.kubelet.proto.health.v1.NodeWatchResourcesResponse;
import io.dra4j.kubelet.proto.registration.InfoRequest;
import io.dra4j.kubelet.proto.registration.RegistrationGrpc;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DRA plugin helper over real Unix sockets, with the probe as the kubelet. */
class DraPluginIT {
    static final String DRIVER = "test.dra4j.io";
    static final String NODE = "node-a";

    @TempDir
    Path tmp;

    private DraPluginOptions options() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        return DraPluginOptions.defaults(DRIVER, NODE, root).withCdiDirectory(tmp.resolve("cdi"));
    }

    private ProbeReport probe(DraPluginOptions o, List<ResourceClaim> claims) {
        return new KubeletProbe(new ProbeOptions(
                        o.registrarDirectory().getParent(),
                        List.of(o.cdiDirectory()),
                        claims,
                        NODE,
                        Duration.ofSeconds(5),
                        true,
                        false))
                .run();
    }

    private static String text(ProbeReport r) {
        StringWriter w = new StringWriter();
        r.print(new PrintWriter(w, true));
        return w.toString();
    }

    @Test
    void probePassesAgainstTheHelperAndSocketsAreOwnerOnly() throws Exception {
        DraPluginOptions o = options();
        ResourceClaim claim = TestClaims.allocated(
                "default",
                "c1",
                "uid-1",
                NODE,
                List.of(
                        TestClaims.result("gpu/big", DRIVER, NODE, "dev-0"),
                        TestClaims.result("other", "other.example.com", NODE, "x-0")));
        Map<String, ResourceClaim> store = Map.of("default/c1", claim);
        RecordingDriver driver = new RecordingDriver(Set.of("dev-0", "dev-1"));
        try (DraPlugin plugin = DraPlugin.start(driver, (ns, n) -> store.get(ns + "/" + n), o)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(o.draSocket())))
                    .isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(o.registrationSocket())))
                    .isEqualTo("rw-------");
            ProbeReport report = probe(o, List.of(claim));
            assertThat(report.failures()).as(text(report)).isEmpty();
            assertThat(report.checks())
                    .extracting(ProbeReport.Check::name)
                    .contains(
                            "NodePrepareResources",
                            "repeated NodePrepareResources gives the same answer",
                            "claim with a wrong UID is refused",
                            "registers again after a kubelet restart");
            assertThat(plugin.registrationStatus().registered()).isTrue();
            // The driver prepared the claim once although the probe asked twice, and unprepared it once.
            assertThat(driver.calls).containsExactly("prepare c1", "unprepare c1");
            assertThat(plugin.preparedClaims()).isEmpty();
        }
        assertThat(Files.exists(o.draSocket())).isFalse();
        assertThat(Files.exists(o.registrationSocket())).isFalse();
    }

    @Test
    void healthIsStreamedOverV1AndTheProbeShowsItPerDevice() throws Exception {
        DraPluginOptions o = options().withHealth(true);
        ResourceClaim claim = TestClaims.allocated(
                "default", "c1", "uid-1", NODE, List.of(TestClaims.result("gpu", DRIVER, NODE, "dev-1")));
        try (DraPlugin plugin = DraPlugin.start(
                new RecordingDriver(Set.of("dev-0", "dev-1")),
                (ns, n) -> "default/c1".equals(ns + "/" + n) ? claim : null,
                o)) {
            Instant at = Instant.ofEpochSecond(1_800_000_000L);
            plugin.reportHealth(List.of(
                    DeviceHealth.of(NODE, "dev-0", true, at, ""), DeviceHealth.of(NODE, "dev-1", false, at, "XID 79")));
            ProbeReport report = probe(o, List.of(claim));
            assertThat(report.failures()).as(text(report)).isEmpty();
            assertThat(report.checks())
                    .filteredOn(c -> c.name().equals("health stream sends an update within 30 s"))
                    .singleElement()
                    .extracting(ProbeReport.Check::detail)
                    .asString()
                    .startsWith("v1.DRAResourceHealth: 2 device(s) after ")
                    .endsWith(": node-a/dev-0 Healthy, node-a/dev-1 Unhealthy (XID 79)");

            // An open stream gets every later report, complete.
            try (UnixSocketChannel ch = UnixSocketChannel.dial(o.draSocket())) {
                Iterator<NodeWatchResourcesResponse> stream = DRAResourceHealthGrpc.newBlockingStub(ch.channel())
                        .withDeadlineAfter(10, TimeUnit.SECONDS)
                        .nodeWatchResources(NodeWatchResourcesRequest.getDefaultInstance());
                assertThat(stream.next().getDevices(1).getMessage()).isEqualTo("XID 79");
                plugin.reportHealth(List.of(
                        DeviceHealth.of(NODE, "dev-0", true, at.plusSeconds(10), ""),
                        DeviceHealth.of(NODE, "dev-1", true, at.plusSeconds(10), "")));
                NodeWatchResourcesResponse next = stream.next();
                assertThat(next.getDevicesList())
                        .extracting(
                                d -> d.getDevice().getDeviceName() + ":" + d.getHealth() + ":" + d.getLastUpdatedTime())
                        .containsExactly("dev-0:HEALTHY:1800000010", "dev-1:HEALTHY:1800000010");
            }
        }
    }

    @Test
    void aStartingPluginHandsTheDriverTheCheckpointedClaimsBeforeTheKubeletCanCall() throws Exception {
        DraPluginOptions o = options();
        ResourceClaim claim = TestClaims.allocated(
                "default", "c1", "uid-1", NODE, List.of(TestClaims.result("gpu", DRIVER, NODE, "dev-1")));
        RecordingDriver first = new RecordingDriver(Set.of("dev-0", "dev-1"));
        try (DraPlugin plugin = DraPlugin.start(first, (ns, n) -> claim, o)) {
            assertThat(first.started).containsExactly("");
            assertThat(plugin.prepare(List.of(new ClaimRef("default", "c1", "uid-1")))
                            .get("uid-1")
                            .error())
                    .isEmpty();
        }
        RecordingDriver restarted = new RecordingDriver(Set.of("dev-0", "dev-1"));
        try (DraPlugin plugin = DraPlugin.start(restarted, (ns, n) -> claim, o)) {
            assertThat(restarted.started).containsExactly("c1: node-a/dev-1");
            assertThat(restarted.calls).isEmpty();
        }
    }

    @Test
    void withHealthV1OffOnlyV1alpha1IsAdvertisedAndServed() throws Exception {
        DraPluginOptions o = options().withHealth(true).withHealthV1(false);
        try (DraPlugin plugin = DraPlugin.start(new RecordingDriver(Set.of("dev-0")), (ns, n) -> null, o)) {
            plugin.reportHealth(
                    List.of(DeviceHealth.of(NODE, "dev-0", false, Instant.ofEpochSecond(1_800_000_000L), "XID 79")));
            assertThat(advertised(o))
                    .containsExactly("v1.DRAPlugin", "v1beta1.DRAPlugin", "v1alpha1.DRAResourceHealth");
            try (UnixSocketChannel ch = UnixSocketChannel.dial(o.draSocket())) {
                assertThat(v1alpha1Stream(ch).next().getDevices(0).getMessage()).isEqualTo("XID 79");
                assertThatThrownBy(() -> v1Stream(ch).next())
                        .isInstanceOf(StatusRuntimeException.class)
                        .extracting(
                                e -> ((StatusRuntimeException) e).getStatus().getCode())
                        .isEqualTo(Status.Code.UNIMPLEMENTED);
            }
            ProbeReport report = probe(o, List.of());
            assertThat(report.checks())
                    .filteredOn(c -> c.name().equals("health stream sends an update within 30 s"))
                    .singleElement()
                    .extracting(ProbeReport.Check::detail)
                    .asString()
                    .startsWith("v1alpha1.DRAResourceHealth: 1 device(s) after ");
        }
    }

    @Test
    void withHealthV1alpha1OffOnlyV1IsAdvertisedAndServed() throws Exception {
        DraPluginOptions o = options().withHealth(true).withHealthV1alpha1(false);
        try (DraPlugin plugin = DraPlugin.start(new RecordingDriver(Set.of("dev-0")), (ns, n) -> null, o)) {
            plugin.reportHealth(
                    List.of(DeviceHealth.of(NODE, "dev-0", true, Instant.ofEpochSecond(1_800_000_000L), "")));
            assertThat(advertised(o)).containsExactly("v1.DRAPlugin", "v1beta1.DRAPlugin", "v1.DRAResourceHealth");
            try (UnixSocketChannel ch = UnixSocketChannel.dial(o.draSocket())) {
                assertThat(v1Stream(ch).next().getDevices(0).getDevice().getDeviceName())
                        .isEqualTo("dev-0");
                assertThatThrownBy(() -> v1alpha1Stream(ch).next())
                        .isInstanceOf(StatusRuntimeException.class)
                        .extracting(
                                e -> ((StatusRuntimeException) e).getStatus().getCode())
                        .isEqualTo(Status.Code.UNIMPLEMENTED);
            }
        }
    }

    @Test
    void withBothHealthVersionsOffNoHealthServiceIsAdvertised() throws Exception {
        DraPluginOptions o = options().withHealth(true).withHealthV1(false).withHealthV1alpha1(false);
        try (DraPlugin plugin = DraPlugin.start(new RecordingDriver(Set.of("dev-0")), (ns, n) -> null, o)) {
            assertThat(advertised(o)).containsExactly("v1.DRAPlugin", "v1beta1.DRAPlugin");
        }
    }

    private static List<String> advertised(DraPluginOptions o) throws Exception {
        try (UnixSocketChannel ch = UnixSocketChannel.dial(o.registrationSocket())) {
            return RegistrationGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(5, TimeUnit.SECONDS)
                    .getInfo(InfoRequest.getDefaultInstance())
                    .getSupportedVersionsList();
        }
    }

    private static Iterator<NodeWatchResourcesResponse> v1Stream(UnixSocketChannel ch) {
        return DRAResourceHealthGrpc.newBlockingStub(ch.channel())
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .nodeWatchResources(NodeWatchResourcesRequest.getDefaultInstance());
    }

    private static Iterator<io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesResponse> v1alpha1Stream(
            UnixSocketChannel ch) {
        return io.dra4j.kubelet.proto.health.v1alpha1.DRAResourceHealthGrpc.newBlockingStub(ch.channel())
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .nodeWatchResources(
                        io.dra4j.kubelet.proto.health.v1alpha1.NodeWatchResourcesRequest.getDefaultInstance());
    }

    @Test
    void answersStripSubrequestsAndNameCdiDevicesByClaimUid() throws Exception {
        DraPluginOptions o = options();
        ResourceClaim claim = TestClaims.allocated(
                "ns", "c1", "6f1c-uid", NODE, List.of(TestClaims.result("gpu/big", DRIVER, NODE, "dev-0")));
        RecordingDriver driver = new RecordingDriver(Set.of("dev-0"));
        try (DraPlugin plugin = DraPlugin.start(driver, (ns, n) -> claim, o)) {
            ClaimPrepared p = plugin.prepare(List.of(new ClaimRef("ns", "c1", "6f1c-uid")))
                    .get("6f1c-uid");
            assertThat(p.error()).isEmpty();
            assertThat(p.devices()).singleElement().satisfies(d -> {
                assertThat(d.requestNames()).containsExactly("gpu");
                assertThat(d.cdiDeviceIds()).containsExactly("k8s.test.dra4j.io/claim=6f1c-uid-dev-0");
            });
            Path spec = o.cdiDirectory().resolve("k8s.test.dra4j.io-claim_6f1c-uid.json");
            String json = Files.readString(spec);
            // A device name starting with a digit needs CDI 0.5.0, and nothing here needs more.
            assertThat(json).contains("\"cdiVersion\" : \"0.5.0\"").contains("DEVICE_DEV_0=dev-0");
        }
    }

    @Test
    void refusesClaimsOfOtherNodesOtherDriversAndReplacedClaims() throws Exception {
        DraPluginOptions o = options();
        Map<String, ResourceClaim> store = new ConcurrentHashMap<>();
        store.put(
                "ns/elsewhere",
                TestClaims.allocated(
                        "ns",
                        "elsewhere",
                        "u1",
                        "node-b",
                        List.of(TestClaims.result("gpu", DRIVER, "node-b", "dev-0"))));
        store.put(
                "ns/foreign",
                TestClaims.allocated(
                        "ns",
                        "foreign",
                        "u2",
                        NODE,
                        List.of(TestClaims.result("gpu", "other.example.com", NODE, "dev-0"))));
        store.put(
                "ns/replaced",
                TestClaims.allocated(
                        "ns", "replaced", "u3-new", NODE, List.of(TestClaims.result("gpu", DRIVER, NODE, "dev-0"))));
        RecordingDriver driver = new RecordingDriver(Set.of("dev-0"));
        try (DraPlugin plugin = DraPlugin.start(driver, (ns, n) -> store.get(ns + "/" + n), o)) {
            Map<String, ClaimPrepared> r = plugin.prepare(List.of(
                    new ClaimRef("ns", "elsewhere", "u1"),
                    new ClaimRef("ns", "foreign", "u2"),
                    new ClaimRef("ns", "replaced", "u3-old"),
                    new ClaimRef("ns", "missing", "u4")));
            assertThat(r.get("u1").error())
                    .isEqualTo("claim ns/elsewhere is allocated for another node: its node "
                            + "selector does not select node node-a");
            assertThat(r.get("u2").error())
                    .isEqualTo("claim ns/foreign: its allocation has no device of driver " + DRIVER);
            assertThat(r.get("u3-old").error()).startsWith("claim ns/replaced got replaced");
            assertThat(r.get("u4").error())
                    .isEqualTo("retrieve claim ns/missing: resourceclaims.resource.k8s.io " + "\"missing\" not found");
            assertThat(driver.calls).isEmpty();
        }
    }

    @Test
    void refusesADeviceAlreadyPreparedForAnotherClaim() throws Exception {
        DraPluginOptions o = options();
        Map<String, ResourceClaim> store = Map.of(
                "ns/a",
                        TestClaims.allocated(
                                "ns", "a", "ua", NODE, List.of(TestClaims.result("gpu", DRIVER, NODE, "dev-0"))),
                "ns/b",
                        TestClaims.allocated(
                                "ns", "b", "ub", NODE, List.of(TestClaims.result("gpu", DRIVER, NODE, "dev-0"))));
        try (DraPlugin plugin =
                DraPlugin.start(new RecordingDriver(Set.of("dev-0")), (ns, n) -> store.get(ns + "/" + n), o)) {
            assertThat(plugin.prepare(List.of(new ClaimRef("ns", "a", "ua")))
                            .get("ua")
                            .error())
                    .isEmpty();
            assertThat(plugin.prepare(List.of(new ClaimRef("ns", "b", "ub")))
                            .get("ub")
                            .error())
                    .isEqualTo("claim ns/b: device node-a/dev-0 is already prepared for claim ns/a (uid ua)");
        }
    }
}
