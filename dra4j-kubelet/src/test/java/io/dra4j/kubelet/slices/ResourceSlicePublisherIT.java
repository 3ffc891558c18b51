package io.dra4j.kubelet.slices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.kubelet.apiserver.TestApiServer;
import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The publisher against a real kube-apiserver with etcd: server-side validation, generated names, field selectors
 * on {@code spec.driver} and {@code spec.nodeName}, the kubelet's DeleteCollection of a node's slices, an API server
 * restart on the same etcd data, and fields dropped by a gate that is off. Each test has a node of its own.
 */
class ResourceSlicePublisherIT {
    static final String DRIVER = "gpu.example.com";
    final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    ControlPlane plane;
    KubernetesClient client;
    String node;

    @BeforeEach
    void node(TestInfo test) {
        plane = TestApiServer.get();
        client = TestApiServer.impatientClient(plane);
        node = "node-"
                + test.getTestMethod()
                        .orElseThrow()
                        .getName()
                        .toLowerCase()
                        .replaceAll("[^a-z0-9]", "")
                        .substring(0, 20);
        TestApiServer.node(client, node);
    }

    @AfterEach
    void close() {
        client.close();
    }

    private List<ResourceSlice> slices(KubernetesClient c) {
        return c.resources(ResourceSlice.class).withField("spec.nodeName", node).list().getItems().stream()
                .sorted(Comparator.comparing(s -> s.getMetadata().getName()))
                .toList();
    }

    private List<ResourceSlice> slices() {
        return slices(client);
    }

    private static List<Device> devices(int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> new DeviceBuilder().withName("gpu-" + i).build())
                .toList();
    }

    private ResourceSlicePublisher publisher(KubernetesClient c, long syncDelayMillis) {
        return new ResourceSlicePublisher(c, DRIVER, node, (m, e) -> errors.add(m), syncDelayMillis, true);
    }

    private ResourceSlicePublisher publisherWithCauses(KubernetesClient c, long syncDelayMillis) {
        return new ResourceSlicePublisher(
                c,
                DRIVER,
                node,
                (m, e) -> errors.add(m + (e == null ? "" : ": " + e.getMessage())),
                syncDelayMillis,
                true);
    }

    private static void await(String what, Duration timeout, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(50);
        }
    }

    @Test
    void aNodeCreatedAgainOwnsTheSlicesOfTheNextSync() {
        try (ResourceSlicePublisher p = publisher(client, 60_000)) {
            p.publish(devices(3), List.of());
            String before = client.nodes().withName(node).get().getMetadata().getUid();
            // No garbage collector runs here, so the slices outlive their Node: the sync must hand them to the new one.
            client.nodes().withName(node).delete();
            await(
                    "node " + node + " is gone",
                    Duration.ofSeconds(10),
                    () -> client.nodes().withName(node).get() == null);
            TestApiServer.node(client, node);
            String after = client.nodes().withName(node).get().getMetadata().getUid();
            assertThat(after).isNotEqualTo(before);
            assertThat(slices())
                    .allSatisfy(sl -> assertThat(
                                    sl.getMetadata().getOwnerReferences().get(0).getUid())
                            .isEqualTo(before));
            p.sync();
            assertThat(slices()).singleElement().satisfies(sl -> {
                assertThat(sl.getMetadata().getOwnerReferences())
                        .singleElement()
                        .satisfies(o -> assertThat(o.getUid()).isEqualTo(after));
                assertThat(sl.getSpec().getDevices()).hasSize(3);
            });
            // Unchanged afterwards: the next sync writes nothing.
            String version = slices().get(0).getMetadata().getResourceVersion();
            p.sync();
            assertThat(slices().get(0).getMetadata().getResourceVersion()).isEqualTo(version);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void publishesOnePoolOwnedByTheNodeAndBumpsTheGenerationOnlyWhenNeeded() {
        try (ResourceSlicePublisher p = publisher(client, 60_000)) {
            p.publish(devices(130), List.of());
            List<ResourceSlice> slices = slices();
            String nodeUid = client.nodes().withName(node).get().getMetadata().getUid();
            assertThat(slices).hasSize(2);
            assertThat(slices).allSatisfy(s -> {
                assertThat(s.getSpec().getDriver()).isEqualTo(DRIVER);
                assertThat(s.getSpec().getPool().getName()).isEqualTo(node);
                assertThat(s.getSpec().getPool().getGeneration()).isEqualTo(1L);
                assertThat(s.getSpec().getPool().getResourceSliceCount()).isEqualTo(2L);
                assertThat(s.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
                    assertThat(o.getKind()).isEqualTo("Node");
                    assertThat(o.getUid()).isEqualTo(nodeUid);
                    assertThat(o.getController()).isTrue();
                });
            });
            assertThat(slices.get(0).getMetadata().getName()).startsWith("00000-" + DRIVER + "-" + node + "-");
            assertThat(slices.get(0).getSpec().getDevices()).hasSize(128);
            assertThat(slices.get(1).getSpec().getDevices()).hasSize(2);

            // Nothing changed: nothing written, generation kept.
            String rv = slices.get(0).getMetadata().getResourceVersion();
            p.sync();
            assertThat(slices().get(0).getMetadata().getResourceVersion()).isEqualTo(rv);

            // One slice changed: updated in place, generation kept.
            List<Device> fewer = new ArrayList<>(devices(130));
            fewer.remove(129);
            p.publish(fewer, List.of());
            assertThat(slices())
                    .extracting(s -> s.getSpec().getPool().getGeneration())
                    .containsOnly(1L);
            assertThat(slices())
                    .extracting(s -> s.getSpec().getDevices().size())
                    .containsExactly(128, 1);

            // The pool shrinks to one slice: the obsolete one goes and the generation goes up.
            p.publish(devices(3), List.of());
            assertThat(slices()).singleElement().satisfies(s -> {
                assertThat(s.getSpec().getPool().getGeneration()).isEqualTo(2L);
                assertThat(s.getSpec().getPool().getResourceSliceCount()).isEqualTo(1L);
                assertThat(s.getSpec().getDevices()).hasSize(3);
            });
        }
        assertThat(errors).isEmpty();
    }

    @Test
    void sharedCountersGoInASliceOfTheirOwnThatTheServerAccepts() {
        CounterSet set = new CounterSetBuilder()
                .withName("gpu-0-counter-set")
                .withCounters(Map.of(
                        "memory",
                        new CounterBuilder().withValue(new Quantity("80Gi")).build()))
                .build();
        Device half = new DeviceBuilder()
                .withName("gpu-0-half")
                .addNewConsumesCounter()
                .withCounterSet("gpu-0-counter-set")
                .withCounters(Map.of(
                        "memory",
                        new CounterBuilder().withValue(new Quantity("40Gi")).build()))
                .endConsumesCounter()
                .build();
        try (ResourceSlicePublisher p = publisher(client, 60_000)) {
            p.publish(List.of(half), List.of(set));
        }
        assertThat(errors).isEmpty();
        assertThat(slices())
                .hasSize(2)
                .satisfiesExactly(
                        s -> assertThat(s.getSpec().getSharedCounters())
                                .extracting(CounterSet::getName)
                                .containsExactly("gpu-0-counter-set"),
                        s -> assertThat(s.getSpec().getDevices())
                                .extracting(Device::getName)
                                .containsExactly("gpu-0-half"));
    }

    @Test
    void recreatesSlicesTheKubeletDeletesBehindItsBack() throws Exception {
        try (ResourceSlicePublisher p = publisher(client, 200)) {
            p.publish(devices(4), List.of());
            assertThat(slices()).hasSize(1);
            // What a starting kubelet does to its node's slices (DeleteCollection by field selector).
            client.resources(ResourceSlice.class)
                    .withField("spec.nodeName", node)
                    .withField("spec.driver", DRIVER)
                    .delete();
            await("the slices are re-created", Duration.ofSeconds(20), () -> !slices().isEmpty());
            assertThat(slices()).singleElement().satisfies(s -> {
                assertThat(s.getSpec().getDevices()).hasSize(4);
                assertThat(s.getSpec().getPool().getGeneration()).isEqualTo(1L);
            });
        }
    }

    @Test
    void invalidContentIsReportedAndNotPublished() {
        try (ResourceSlicePublisher p = publisher(client, 60_000)) {
            p.publish(List.of(devices(1).get(0), devices(1).get(0)), List.of());
        }
        assertThat(slices()).isEmpty();
        assertThat(errors)
                .containsExactly("ResourceSlices of driver gpu.example.com on node " + node
                        + " not published: device gpu-0 is defined twice in the pool");
    }

    @Test
    void recoversWhenTheApiServerRestarts() throws Exception {
        try (ResourceSlicePublisher p = publisher(client, 300)) {
            p.publish(devices(2), List.of());
            assertThat(slices())
                    .singleElement()
                    .satisfies(s -> assertThat(s.getSpec().getDevices()).hasSize(2));

            plane.stopApiServer();
            try {
                // The devices change while the API server is down: the sync fails and is retried.
                p.publish(devices(5), List.of());
                assertThat(errors)
                        .anySatisfy(m -> assertThat(m)
                                .startsWith("sync of ResourceSlices of driver " + DRIVER + " on node " + node));
            } finally {
                plane.startApiServer();
            }
            await(
                    "the changed devices are published",
                    Duration.ofSeconds(60),
                    () -> slices().size() == 1
                            && slices().get(0).getSpec().getDevices().size() == 5);
            // The watch came back too: a deletion behind the publisher's back is still repaired.
            client.resources(ResourceSlice.class)
                    .withField("spec.nodeName", node)
                    .delete();
            await("the deleted slice is re-created", Duration.ofSeconds(60), () -> !slices().isEmpty());
            assertThat(slices())
                    .singleElement()
                    .satisfies(s -> assertThat(s.getSpec().getDevices()).hasSize(5));
        }
    }

    @Test
    void fieldsDroppedByAGateThatIsOffAreAClearErrorAndNotRewrittenForever() throws Exception {
        try (ControlPlane gated = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly()
                        .withFeatureGate("DRADeviceTaints", false)
                        .withFeatureGate("DRADeviceTaintRules", false));
                KubernetesClient c = gated.newClient()) {
            TestApiServer.node(c, node);
            Device tainted = new DeviceBuilder()
                    .withName("gpu-0")
                    .withTaints(new DeviceTaintBuilder()
                            .withKey("example.com/unhealthy")
                            .withValue("xid-79")
                            .withEffect("NoSchedule")
                            .build())
                    .build();
            try (ResourceSlicePublisher p = publisher(c, 60_000)) {
                p.publish(List.of(tainted), List.of());
                List<ResourceSlice> stored = slices(c);
                assertThat(stored)
                        .singleElement()
                        .satisfies(
                                s -> assertThat(s.getSpec().getDevices().get(0).getTaints())
                                        .isNullOrEmpty());
                assertThat(errors)
                        .singleElement()
                        .asString()
                        .startsWith("the API server dropped fields of ResourceSlice "
                                + stored.get(0).getMetadata().getName() + ": spec.devices[0].taints (is a DRA feature"
                                + " gate off on the API server? taints need DRADeviceTaints");
                String rv = stored.get(0).getMetadata().getResourceVersion();
                p.sync();
                assertThat(slices(c).get(0).getMetadata().getResourceVersion()).isEqualTo(rv);
                assertThat(errors).hasSize(1);
            }
        }
    }

    @Test
    void aSliceTheServerRejectsIsAnErrorWithItsMessage() {
        Device bad = new DeviceBuilder()
                .withName("gpu-0")
                .withTaints(new DeviceTaintBuilder()
                        .withKey("example.com/unhealthy")
                        .withEffect("Sometimes")
                        .build())
                .build();
        try (ResourceSlicePublisher p = publisherWithCauses(client, 60_000)) {
            p.publish(List.of(bad), List.of());
            assertThatThrownBy(p::sync)
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining("Unsupported value: \"Sometimes\"");
        }
        assertThat(slices()).isEmpty();
        assertThat(errors)
                .singleElement()
                .asString()
                .startsWith("sync of ResourceSlices of driver " + DRIVER + " on node " + node + " failed: ")
                .contains("spec.devices[0].taints[0].effect: Unsupported value: \"Sometimes\"");
    }
}
