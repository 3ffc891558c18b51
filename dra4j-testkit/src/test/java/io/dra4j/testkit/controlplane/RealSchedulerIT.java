package io.dra4j.testkit.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The real kube-scheduler allocates devices and binds pods through {@link RealScheduler}. */
class RealSchedulerIT {
    private static final Duration POD_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void bindsPodsWithClaimsFromTemplatesAndReportsTheOneThatDoesNotFit() {
        try (ControlPlane plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.scheduling())) {
            RealScheduler scheduler = new RealScheduler(plane);
            scheduler.apply(List.of(
                    template("one-gpu", 1),
                    template("two-gpus", 2),
                    new DeviceClassBuilder()
                            .withNewMetadata()
                            .withName("gpu")
                            .endMetadata()
                            .withNewSpec()
                            .addNewSelector()
                            .withNewCel()
                            .withExpression("device.driver == \"gpu.example.com\"")
                            .endCel()
                            .endSelector()
                            .endSpec()
                            .build(),
                    new ResourceSliceBuilder()
                            .withNewMetadata()
                            .withName("node-a-gpus")
                            .endMetadata()
                            .withNewSpec()
                            .withDriver("gpu.example.com")
                            .withNodeName("node-a")
                            .withNewPool()
                            .withName("node-a")
                            .withGeneration(1L)
                            .withResourceSliceCount(1L)
                            .endPool()
                            .addNewDevice()
                            .withName("gpu-0")
                            .endDevice()
                            .addNewDevice()
                            .withName("gpu-1")
                            .endDevice()
                            .endSpec()
                            .build(),
                    node("node-a"),
                    node("node-b")));

            List<PodPlacement> placements = scheduler.schedule(
                    List.of(pod("first", "one-gpu"), pod("pair", "two-gpus"), pod("second", "one-gpu")), POD_TIMEOUT);

            // node-b has no devices; node-a has two, so the first pod takes one, the pair cannot have both.
            PodPlacement first = placements.get(0);
            assertThat(first.node()).hasValue("node-a");
            assertThat(devices(first.claims().get("gpu"))).containsExactly("node-a/gpu-0");
            PodPlacement pair = placements.get(1);
            assertThat(pair.bound()).isFalse();
            assertThat(pair.reason()).isEqualTo("Unschedulable");
            assertThat(pair.message()).contains("0/2 nodes are available").contains("cannot allocate all claims");
            assertThat(pair.claims().get("gpu").getStatus().getAllocation()).isNull();
            PodPlacement second = placements.get(2);
            assertThat(second.node()).hasValue("node-a");
            assertThat(devices(second.claims().get("gpu"))).containsExactly("node-a/gpu-1");

            // The claim was made from the template by the real claim controller, owned by the pod.
            ResourceClaim claim = first.claims().get("gpu");
            assertThat(claim.getMetadata().getName()).startsWith("first-gpu-");
            assertThat(claim.getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(owner -> assertThat(owner.getName()).isEqualTo("first"));
            assertThat(claim.getStatus().getReservedFor())
                    .singleElement()
                    .satisfies(ref -> assertThat(ref.getName()).isEqualTo("first"));
        }
    }

    private static List<String> devices(ResourceClaim claim) {
        return claim.getStatus().getAllocation().getDevices().getResults().stream()
                .map((DeviceRequestAllocationResult r) -> r.getPool() + "/" + r.getDevice())
                .toList();
    }

    private static HasMetadata template(String name, long count) {
        return new ResourceClaimTemplateBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ml")
                .endMetadata()
                .withNewSpec()
                .withNewSpec()
                .withNewDevices()
                .addNewRequest()
                .withName("gpus")
                .withNewExactly()
                .withDeviceClassName("gpu")
                .withCount(count)
                .endExactly()
                .endRequest()
                .endDevices()
                .endSpec()
                .endSpec()
                .build();
    }

    private static HasMetadata node(String name) {
        Map<String, Quantity> resources =
                Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("110"));
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .addToCapacity(resources)
                .addToAllocatable(resources)
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();
    }

    private static Pod pod(String name, String template) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ml")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("registry.k8s.io/pause:3.10")
                .withNewResources()
                .addNewClaim()
                .withName("gpu")
                .endClaim()
                .endResources()
                .endContainer()
                .addNewResourceClaim()
                .withName("gpu")
                .withResourceClaimTemplateName(template)
                .endResourceClaim()
                .endSpec()
                .build();
    }
}
