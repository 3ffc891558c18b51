package io.dra4j.kubelet.slices;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The publisher against the fabric8 mock API server in CRUD mode (a client double: it keeps objects, runs watches
 * and generates names, but validates nothing, drops no fields and knows no field selectors for ResourceSlices, so
 * the publisher filters locally here). What needs a real kube-apiserver (dropped fields
 * with a gate off, field-selector semantics, owner-reference garbage collection) is not covered here.
 */
@EnableKubernetesMockClient(crud = true)
class ResourceSlicePublisherIT {
    static KubernetesClient client;
    final List<String> errors = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void node() {
        client.resources(ResourceSlice.class).delete();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a").endMetadata()
                .build()).createOr(r -> r.update());
    }

    private List<ResourceSlice> slices() {
        return client.resources(ResourceSlice.class).list().getItems().stream()
                .sorted(Comparator.comparing(s -> s.getMetadata().getName())).toList();
    }

    private static List<Device> devices(int n) {
        return IntStream.range(0, n).mapToObj(i -> new DeviceBuilder().withName("gpu-" + i).build()).toList();
    }

    @Test
    void publishesOnePoolOwnedByTheNodeAndBumpsTheGenerationOnlyWhenNeeded() {
        try (ResourceSlicePublisher p = new ResourceSlicePublisher(client, "gpu.example.com", "node-a",
                (m, e) -> errors.add(m), 60_000, false)) {
            p.publish(devices(130), List.of());
            List<ResourceSlice> slices = slices();
            String nodeUid = client.nodes().withName("node-a").get().getMetadata().getUid();
            assertThat(slices).hasSize(2);
            assertThat(slices).allSatisfy(s -> {
                assertThat(s.getSpec().getPool().getName()).isEqualTo("node-a");
                assertThat(s.getSpec().getPool().getGeneration()).isEqualTo(1L);
                assertThat(s.getSpec().getPool().getResourceSliceCount()).isEqualTo(2L);
                assertThat(s.getSpec().getNodeName()).isEqualTo("node-a");
                assertThat(s.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
                    assertThat(o.getKind()).isEqualTo("Node");
                    assertThat(o.getUid()).isEqualTo(nodeUid);
                    assertThat(o.getController()).isTrue();
                });
            });
            assertThat(slices.get(0).getMetadata().getName()).startsWith("00000-gpu.example.com-node-a-");
            assertThat(slices.get(1).getSpec().getDevices()).hasSize(2);

            // Nothing changed: nothing written, generation kept.
            String rv = slices.get(0).getMetadata().getResourceVersion();
            p.sync();
            assertThat(slices().get(0).getMetadata().getResourceVersion()).isEqualTo(rv);

            // One slice changed: updated in place, generation kept.
            List<Device> fewer = new ArrayList<>(devices(130));
            fewer.remove(129);
            p.publish(fewer, List.of());
            assertThat(slices()).extracting(s -> s.getSpec().getPool().getGeneration()).containsOnly(1L);
            assertThat(slices()).extracting(s -> s.getMetadata().getName() + ":" + s.getSpec().getDevices().size())
                    .hasSize(2).element(1).asString().endsWith(":1");

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
    void recreatesSlicesDeletedBehindItsBack() throws Exception {
        try (ResourceSlicePublisher p = new ResourceSlicePublisher(client, "gpu.example.com", "node-a",
                (m, e) -> errors.add(m), 200, false)) {
            p.publish(devices(4), List.of());
            assertThat(slices()).hasSize(1);
            // What a starting kubelet does to its node's slices.
            client.resources(ResourceSlice.class).delete();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (slices().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(slices()).singleElement().satisfies(s -> {
                assertThat(s.getSpec().getDevices()).hasSize(4);
                assertThat(s.getSpec().getPool().getGeneration()).isEqualTo(1L);
            });
        }
    }

    @Test
    void invalidContentIsReportedAndNotPublished() {
        try (ResourceSlicePublisher p = new ResourceSlicePublisher(client, "gpu.example.com", "node-a",
                (m, e) -> errors.add(m), 60_000, false)) {
            p.publish(List.of(devices(1).get(0), devices(1).get(0)), List.of());
        }
        assertThat(slices()).isEmpty();
        assertThat(errors).containsExactly("ResourceSlices of driver gpu.example.com on node node-a not published: "
                + "device gpu-0 is defined twice in the pool");
    }
}
