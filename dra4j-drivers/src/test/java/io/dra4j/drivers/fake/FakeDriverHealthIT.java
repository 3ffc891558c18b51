package io.dra4j.drivers.fake;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.kubelet.dra.DeviceHealth;
import io.dra4j.kubelet.slices.ResourceSlicePublisher;
import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Device taints from health, published to a real kube-apiserver: a failing device is republished with the
 * driver's NoExecute taint, dated when it failed, and the taint goes when it recovers; an unchanged pool is not
 * rewritten. The same health goes to the kubelet's health stream.
 */
class FakeDriverHealthIT {
    static final String DRIVER = "gpu.fake.dra4j.io";
    static final String NODE = "health-node";

    private static FakeConfig config(boolean gpu0Healthy, boolean gpu1Healthy) {
        return new FakeConfig(
                DRIVER,
                "fake.dra4j.io/gpu",
                List.of(device("gpu-0", gpu0Healthy), device("gpu-1", gpu1Healthy)),
                List.of());
    }

    private static FakeConfig.FakeDevice device(String name, boolean healthy) {
        return new FakeConfig.FakeDevice(new DeviceBuilder().withName(name).build(), healthy, Map.of(), List.of());
    }

    private static Map<String, List<DeviceTaint>> taints(KubernetesClient client) {
        ResourceSlice s = client.resources(ResourceSlice.class)
                .withField("spec.nodeName", NODE)
                .list()
                .getItems()
                .get(0);
        Map<String, List<DeviceTaint>> out = new java.util.TreeMap<>();
        for (Device d : s.getSpec().getDevices()) {
            out.put(d.getName(), d.getTaints() == null ? List.of() : d.getTaints());
        }
        return out;
    }

    private static String resourceVersion(KubernetesClient client) {
        return client.resources(ResourceSlice.class)
                .withField("spec.nodeName", NODE)
                .list()
                .getItems()
                .get(0)
                .getMetadata()
                .getResourceVersion();
    }

    @Test
    void aFailingDeviceIsTaintedUntilItRecovers() {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T10:00:00.250Z"));
        Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        try (ControlPlane plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly())) {
            KubernetesClient client = plane.client();
            client.resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(NODE)
                            .endMetadata()
                            .build())
                    .create();
            FakeDriver driver = new FakeDriver(config(true, false), m -> {}, clock);
            try (ResourceSlicePublisher publisher =
                    new ResourceSlicePublisher(client, DRIVER, NODE, (m, e) -> errors.add(m), 60_000, true)) {
                publisher.publish(driver.devices(), List.of());
                assertThat(taints(client).get("gpu-0")).isEmpty();
                assertThat(taints(client).get("gpu-1")).singleElement().satisfies(t -> {
                    assertThat(t.getKey()).isEqualTo(DRIVER + "/unhealthy");
                    assertThat(t.getEffect()).isEqualTo("NoExecute");
                    assertThat(t.getTimeAdded()).isEqualTo("2026-12-01T10:00:00Z");
                });
                assertThat(driver.health(NODE))
                        .extracting(h -> h.device() + ":" + h.status())
                        .containsExactly("gpu-0:HEALTHY", "gpu-1:UNHEALTHY");

                // Still failing a minute later: the same taint, nothing written.
                now.set(now.get().plusSeconds(60));
                String rv = resourceVersion(client);
                driver.update(config(true, false));
                publisher.publish(driver.devices(), List.of());
                assertThat(resourceVersion(client)).isEqualTo(rv);

                // gpu-1 recovers and gpu-0 fails: the taints follow.
                driver.update(config(false, true));
                publisher.publish(driver.devices(), List.of());
                assertThat(taints(client).get("gpu-1")).isEmpty();
                assertThat(taints(client).get("gpu-0"))
                        .singleElement()
                        .satisfies(t -> assertThat(t.getTimeAdded()).isEqualTo("2026-12-01T10:01:00Z"));
                assertThat(driver.health(NODE))
                        .extracting(DeviceHealth::status)
                        .containsExactly(DeviceHealth.Status.UNHEALTHY, DeviceHealth.Status.HEALTHY);
            }
        }
        assertThat(errors).isEmpty();
    }
}
