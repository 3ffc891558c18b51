package io.dra4j.drivers.nvidia;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.kubelet.slices.ResourceSlicePublisher;
import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dynamic MIG slices on a real kube-apiserver 1.37 (default gates, DRAPartitionableDevices on): what the driver
 * publishes from the recorded nvidia-smi outputs (counter sets in their own slice, partitions consuming them) is
 * accepted as is, nothing is dropped, and the slices read back hold exactly the published devices and counter sets.
 */
class NvidiaDynamicMigPublishIT {
    private static List<ResourceSlice> slices(KubernetesClient client, String node) {
        return client.resources(ResourceSlice.class).withField("spec.nodeName", node).list().getItems().stream()
                .sorted(Comparator.comparing(s -> s.getMetadata().getName()))
                .toList();
    }

    @Test
    void partitionsAndCounterSetsAreAcceptedAndReadBackEqual() throws Exception {
        try (ControlPlane plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly())) {
            KubernetesClient client = plane.client();
            for (String fixture : List.of("a100-80gb-mig", "a100-mig", "h100-sxm-mig")) {
                String node = "node-" + fixture;
                client.nodes()
                        .resource(new NodeBuilder()
                                .withNewMetadata()
                                .withName(node)
                                .endMetadata()
                                .build())
                        .create();
                NvidiaDevices.Published published = NvidiaDevices.of(MigFixtures.gpus(fixture), true);
                NvidiaDevices.Published before = NvidiaDevices.of(MigFixtures.gpus(fixture), true);
                List<String> errors = Collections.synchronizedList(new ArrayList<>());
                try (ResourceSlicePublisher p = new ResourceSlicePublisher(
                        client,
                        NvidiaDevices.DRIVER,
                        node,
                        (m, e) -> errors.add(m + (e == null ? "" : ": " + e.getMessage())),
                        60_000,
                        true)) {
                    p.publish(published.devices(), published.counterSets());
                    List<ResourceSlice> read = slices(client, node);
                    assertThat(errors).as(fixture).isEmpty();
                    assertThat(read).as(fixture).isNotEmpty().allSatisfy(s -> {
                        assertThat(s.getSpec().getDriver()).isEqualTo(NvidiaDevices.DRIVER);
                        assertThat(s.getSpec().getPool().getResourceSliceCount())
                                .isEqualTo((long) read.size());
                    });
                    List<Device> devices = new ArrayList<>();
                    List<CounterSet> sets = new ArrayList<>();
                    for (ResourceSlice s : read) {
                        devices.addAll(s.getSpec().getDevices());
                        sets.addAll(s.getSpec().getSharedCounters());
                    }
                    assertThat(sets).as(fixture).containsExactlyInAnyOrderElementsOf(published.counterSets());
                    assertThat(devices).as(fixture).containsExactlyInAnyOrderElementsOf(published.devices());
                    assertThat(devices)
                            .as(fixture)
                            .anySatisfy(d -> assertThat(d.getConsumesCounters()).isNotEmpty());
                }
                assertThat(published).as("input unchanged").isEqualTo(before);
            }
        }
    }
}
