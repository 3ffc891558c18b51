package io.dra4j.kubelet.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.kubelet.UnixSocketChannel;
import io.dra4j.kubelet.apiserver.TestApiServer;
import io.dra4j.kubelet.probe.KubeletProbe;
import io.dra4j.kubelet.probe.ProbeOptions;
import io.dra4j.kubelet.probe.ProbeReport;
import io.dra4j.kubelet.proto.dra.v1.Claim;
import io.dra4j.kubelet.proto.dra.v1.DRAPluginGrpc;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourceResponse;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourcesRequest;
import io.dra4j.kubelet.proto.dra.v1.NodeUnprepareResourcesRequest;
import io.dra4j.kubelet.slices.ResourceSlicePublisher;
import io.dra4j.testkit.controlplane.ControlPlane;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DRA plugin helper with claims read from a real kube-apiserver (etcd behind it) and its devices published
 * there, driven over real Unix sockets by the probe as the kubelet, or by direct kubelet calls where a test needs a
 * particular order (rolling update, a deleted or replaced claim, the API server restarting). Each test has its own
 * namespace and node.
 */
class DraPluginApiServerIT {
    static final String DRIVER = "test.dra4j.io";

    @TempDir
    Path tmp;

    ControlPlane plane;
    KubernetesClient client;
    String node;
    String namespace;
    final List<String> publishErrors = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void setUp(TestInfo test) {
        plane = TestApiServer.get();
        client = TestApiServer.impatientClient(plane);
        String id = test.getTestMethod()
                .orElseThrow()
                .getName()
                .toLowerCase()
                .replaceAll("[^a-z0-9]", "")
                .substring(0, 16);
        node = "node-" + id;
        namespace = "ns-" + id;
        TestApiServer.node(client, node);
        if (client.namespaces().withName(namespace).get() == null) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(namespace)
                            .endMetadata()
                            .build())
                    .create();
        }
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    private DraPluginOptions options() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        return DraPluginOptions.defaults(DRIVER, node, root).withCdiDirectory(tmp.resolve("cdi"));
    }

    /**
     * Creates a claim whose request {@code gpu} has the subrequests {@code big} and {@code small}, then allocates
     * {@code devices} of this node to {@code gpu/big} through the status subresource, as the scheduler would.
     */
    private ResourceClaim allocatedClaim(String name, String... devices) {
        ResourceClaim created = client.resource(new ResourceClaimBuilder()
                        .withNewMetadata()
                        .withNamespace(namespace)
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .withNewDevices()
                        .addNewRequest()
                        .withName("gpu")
                        .addNewFirstAvailable()
                        .withName("big")
                        .withDeviceClassName("gpu.example.com")
                        .endFirstAvailable()
                        .addNewFirstAvailable()
                        .withName("small")
                        .withDeviceClassName("gpu.example.com")
                        .endFirstAvailable()
                        .endRequest()
                        .endDevices()
                        .endSpec()
                        .build())
                .create();
        ResourceClaimBuilder allocated = new ResourceClaimBuilder(created)
                .withNewStatus()
                .withNewAllocation()
                .withNodeSelector(new NodeSelectorBuilder()
                        .addNewNodeSelectorTerm()
                        .addNewMatchField()
                        .withKey("metadata.name")
                        .withOperator("In")
                        .withValues(node)
                        .endMatchField()
                        .endNodeSelectorTerm()
                        .build())
                .withNewDevices()
                .endDevices()
                .endAllocation()
                .endStatus();
        ResourceClaim claim = allocated.build();
        for (String d : devices) {
            claim.getStatus()
                    .getAllocation()
                    .getDevices()
                    .getResults()
                    .add(new DeviceRequestAllocationResultBuilder()
                            .withRequest("gpu/big")
                            .withDriver(DRIVER)
                            .withPool(node)
                            .withDevice(d)
                            .build());
        }
        return client.resource(claim).updateStatus();
    }

    private List<ResourceClaim> claimsOfThisTest() {
        return client.resources(ResourceClaim.class)
                .inNamespace(namespace)
                .list()
                .getItems();
    }

    private ResourceSlicePublisher publish(String... devices) {
        ResourceSlicePublisher p =
                new ResourceSlicePublisher(client, DRIVER, node, (m, e) -> publishErrors.add(m), 500, true);
        p.publish(
                java.util.Arrays.stream(devices)
                        .map(d -> new DeviceBuilder().withName(d).build())
                        .toList(),
                List.of());
        return p;
    }

    private ProbeReport probe(DraPluginOptions o) {
        return new KubeletProbe(new ProbeOptions(
                        o.registrarDirectory().getParent(),
                        List.of(o.cdiDirectory()),
                        claimsOfThisTest(),
                        node,
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

    private static Claim ref(ResourceClaim c) {
        return Claim.newBuilder()
                .setNamespace(c.getMetadata().getNamespace())
                .setName(c.getMetadata().getName())
                .setUid(c.getMetadata().getUid())
                .build();
    }

    /** NodePrepareResources as the kubelet calls it (v1, 45 s deadline). */
    private static Map<String, NodePrepareResourceResponse> prepare(Path socket, Claim... claims) {
        try (UnixSocketChannel ch = UnixSocketChannel.dial(socket)) {
            return DRAPluginGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(45, TimeUnit.SECONDS)
                    .nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
                            .addAllClaims(List.of(claims))
                            .build())
                    .getClaimsMap();
        }
    }

    private static Map<String, String> unprepare(Path socket, Claim... claims) {
        try (UnixSocketChannel ch = UnixSocketChannel.dial(socket)) {
            Map<String, String> out = new java.util.LinkedHashMap<>();
            DRAPluginGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(45, TimeUnit.SECONDS)
                    .nodeUnprepareResources(NodeUnprepareResourcesRequest.newBuilder()
                            .addAllClaims(List.of(claims))
                            .build())
                    .getClaimsMap()
                    .forEach((uid, r) -> out.put(uid, r.getError()));
            return out;
        }
    }

    @Test
    void publishesPreparesAndUnpreparesWithTheProbeAsTheKubelet() throws Exception {
        DraPluginOptions o = options();
        ResourceClaim claim = allocatedClaim("train", "dev-0", "dev-1");
        RecordingDriver driver = new RecordingDriver(Set.of("dev-0", "dev-1", "dev-2"));
        try (DraPlugin plugin = DraPlugin.start(driver, ClaimLookup.of(client), o);
                ResourceSlicePublisher ignored = publish("dev-0", "dev-1", "dev-2")) {
            assertThat(client.resources(ResourceSlice.class)
                            .withField("spec.nodeName", node)
                            .list()
                            .getItems())
                    .singleElement()
                    .satisfies(s -> assertThat(s.getSpec().getDevices()).hasSize(3));
            ProbeReport report = probe(o);
            assertThat(report.failures()).as(text(report)).isEmpty();
            assertThat(report.checks())
                    .extracting(ProbeReport.Check::name)
                    .contains(
                            "NodePrepareResources",
                            "repeated NodePrepareResources gives the same answer",
                            "claim with a wrong UID is refused",
                            "NodeUnprepareResources",
                            "registers again after a kubelet restart");
            assertThat(plugin.registrationStatus().registered()).isTrue();
            assertThat(driver.calls).containsExactly("prepare train", "unprepare train");
            assertThat(plugin.preparedClaims()).isEmpty();
        }
        assertThat(publishErrors).isEmpty();
        assertThat(claim.getMetadata().getUid()).isNotEmpty();
    }

    @Test
    void rollingUpdateHandsPreparedClaimsToTheNewInstanceWhichUnpreparesThemAfterTheClaimIsGone() throws Exception {
        DraPluginOptions base = options();
        ResourceClaim claim = allocatedClaim("serve", "dev-0");
        RecordingDriver oldDriver = new RecordingDriver(Set.of("dev-0", "dev-1"));
        RecordingDriver newDriver = new RecordingDriver(Set.of("dev-0", "dev-1"));
        DraPlugin old = DraPlugin.start(oldDriver, ClaimLookup.of(client), base.withRollingUpdate("pod-old"));
        NodePrepareResourceResponse first;
        try {
            first = prepare(old.options().draSocket(), ref(claim))
                    .get(claim.getMetadata().getUid());
            assertThat(first.getError()).isEmpty();
            assertThat(first.getDevices(0).getRequestNamesList()).containsExactly("gpu");
        } catch (RuntimeException | AssertionError e) {
            old.close();
            throw e;
        }
        try (DraPlugin next = DraPlugin.start(newDriver, ClaimLookup.of(client), base.withRollingUpdate("pod-new"))) {
            // Both serve side by side; the new one answers from the shared checkpoint without preparing again.
            assertThat(prepare(next.options().draSocket(), ref(claim))
                            .get(claim.getMetadata().getUid()))
                    .isEqualTo(first);
            old.close();
            assertThat(old.options().registrationSocket()).doesNotExist();
            client.resource(claim).delete();
            client.resources(ResourceClaim.class)
                    .inNamespace(namespace)
                    .withName("serve")
                    .waitUntilCondition(c -> c == null, 30, TimeUnit.SECONDS);
            assertThat(unprepare(next.options().draSocket(), ref(claim)))
                    .containsEntry(claim.getMetadata().getUid(), "");
            assertThat(next.preparedClaims()).isEmpty();

            // The new instance alone passes the probe as the kubelet.
            allocatedClaim("after", "dev-1");
            ProbeReport report = probe(next.options());
            assertThat(report.failures()).as(text(report)).isEmpty();
        }
        assertThat(oldDriver.calls).containsExactly("prepare serve");
        assertThat(newDriver.calls).containsExactly("unprepare serve", "prepare after", "unprepare after");
    }

    @Test
    void aClaimReplacedUnderTheSameNameIsRefusedAndADeletedOneIsNotFound() throws Exception {
        DraPluginOptions o = options();
        ResourceClaim before = allocatedClaim("c1", "dev-0");
        ResourceClaim gone = allocatedClaim("c2", "dev-1");
        client.resource(before).delete();
        client.resource(gone).delete();
        client.resources(ResourceClaim.class)
                .inNamespace(namespace)
                .withName("c1")
                .waitUntilCondition(c -> c == null, 30, TimeUnit.SECONDS);
        ResourceClaim after = allocatedClaim("c1", "dev-0");
        RecordingDriver driver = new RecordingDriver(Set.of("dev-0", "dev-1"));
        try (DraPlugin plugin = DraPlugin.start(driver, ClaimLookup.of(client), o)) {
            Map<String, NodePrepareResourceResponse> r = prepare(o.draSocket(), ref(before), ref(gone));
            assertThat(r.get(before.getMetadata().getUid()).getError())
                    .isEqualTo("claim " + namespace + "/c1 got "
                            + "replaced: the kubelet asked for UID "
                            + before.getMetadata().getUid() + ", the API server has "
                            + after.getMetadata().getUid());
            assertThat(r.get(gone.getMetadata().getUid()).getError())
                    .isEqualTo("retrieve claim " + namespace + "/c2: resourceclaims.resource.k8s.io \"c2\" not found");
            assertThat(driver.calls).isEmpty();
            assertThat(plugin.preparedClaims()).isEmpty();
        }
    }

    @Test
    void whileTheApiServerIsDownPrepareFailsPerClaimAndWorksAgainOnceItIsBack() throws Exception {
        DraPluginOptions o = options();
        ResourceClaim prepared = allocatedClaim("early", "dev-0");
        ResourceClaim waiting = allocatedClaim("late", "dev-1");
        RecordingDriver driver = new RecordingDriver(Set.of("dev-0", "dev-1"));
        try (DraPlugin plugin = DraPlugin.start(driver, ClaimLookup.of(client), o)) {
            assertThat(prepare(o.draSocket(), ref(prepared))
                            .get(prepared.getMetadata().getUid())
                            .getError())
                    .isEmpty();
            plane.stopApiServer();
            try {
                Map<String, NodePrepareResourceResponse> down = prepare(o.draSocket(), ref(prepared), ref(waiting));
                // A prepared claim needs no read; the other one fails with the cause and the kubelet retries it.
                assertThat(down.get(prepared.getMetadata().getUid()).getError()).isEmpty();
                assertThat(down.get(waiting.getMetadata().getUid()).getError())
                        .startsWith("retrieve claim " + namespace + "/late: ");
                // Unprepare works from the checkpoint alone.
                assertThat(unprepare(o.draSocket(), ref(prepared)))
                        .containsEntry(prepared.getMetadata().getUid(), "");
            } finally {
                plane.startApiServer();
            }
            assertThat(prepare(o.draSocket(), ref(waiting))
                            .get(waiting.getMetadata().getUid())
                            .getError())
                    .isEmpty();
            assertThat(plugin.preparedClaims())
                    .extracting(c -> c.claim().name())
                    .containsExactly("late");
        }
        assertThat(driver.calls).containsExactly("prepare early", "unprepare early", "prepare late");
    }
}
