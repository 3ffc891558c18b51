package io.dra4j.kubelet.slices;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The slices a driver publishes are collected with their Node by the real garbage collector: kube-apiserver and
 * kube-controller-manager's {@code garbage-collector-controller}. The publisher sets the ownerReference upstream's
 * helper sets (the Node, {@code controller: true}, the Node's UID), so deleting the Node deletes the node's slices
 * and no others, and the publisher, still running, does not write them again.
 */
class ResourceSliceGarbageCollectionIT {
    static final String DRIVER = "gpu.example.com";

    private static void await(String what, Duration timeout, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(100);
        }
    }

    private static List<ResourceSlice> slices(KubernetesClient client, String node) {
        return client.resources(ResourceSlice.class)
                .withField("spec.nodeName", node)
                .list()
                .getItems();
    }

    private static List<Device> devices(int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> new DeviceBuilder().withName("gpu-" + i).build())
                .toList();
    }

    @Test
    void deletingTheNodeDeletesItsSlicesThroughTheGarbageCollector() throws Exception {
        try (ControlPlane plane = ControlPlaneAssumptions.startOrSkip(
                ControlPlaneOptions.apiServerOnly().withControllers(List.of("garbage-collector-controller")))) {
            KubernetesClient client = plane.client();
            Node gone = client.resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("gc-node")
                            .endMetadata()
                            .build())
                    .create();
            client.resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("gc-other")
                            .endMetadata()
                            .build())
                    .create();
            List<String> errors = Collections.synchronizedList(new ArrayList<>());
            try (ResourceSlicePublisher publisher = new ResourceSlicePublisher(
                            client,
                            DRIVER,
                            "gc-node",
                            (m, e) -> errors.add(m + (e == null ? "" : ": " + e.getMessage())),
                            200,
                            true);
                    ResourceSlicePublisher other = new ResourceSlicePublisher(
                            client, DRIVER, "gc-other", (m, e) -> errors.add(m), 200, true)) {
                // 130 devices: two slices, both owned by the Node.
                publisher.publish(devices(130), List.of());
                other.publish(devices(2), List.of());
                List<ResourceSlice> published = slices(client, "gc-node");
                assertThat(published).hasSize(2);
                for (ResourceSlice s : published) {
                    List<OwnerReference> owners = s.getMetadata().getOwnerReferences();
                    assertThat(owners).singleElement().satisfies(o -> {
                        assertThat(o.getApiVersion()).isEqualTo("v1");
                        assertThat(o.getKind()).isEqualTo("Node");
                        assertThat(o.getName()).isEqualTo("gc-node");
                        assertThat(o.getUid()).isEqualTo(gone.getMetadata().getUid());
                        assertThat(o.getController()).isTrue();
                    });
                }

                client.nodes().withName("gc-node").delete();
                await(
                        "the garbage collector deleted the slices of gc-node",
                        Duration.ofSeconds(60),
                        () -> slices(client, "gc-node").isEmpty());
                // The publisher sees the deletions and syncs again: without its Node it writes nothing.
                Thread.sleep(1500);
                assertThat(slices(client, "gc-node")).isEmpty();
                assertThat(errors).anyMatch(m -> m.contains("node gc-node not found: slices are owned by their Node"));
                assertThat(slices(client, "gc-other")).hasSize(1);
            }
        }
    }
}
