package io.dra4j.sim.whatif;

import io.dra4j.sim.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fleet of 8-GPU nodes built as objects (fast at 5,000 nodes): {@code full} nodes whose 8 GPUs are all held by an
 * allocated claim, {@code partial} nodes with 5 held (3 free), {@code tainted} nodes with all 8 free but a node
 * taint {@code xid=79:NoSchedule}, and one pending pod {@code team/train} whose template claim asks for 4 GPUs.
 * dra4j-bench's ExplainPodBenchmark measures {@code explain pod} on it (through this module's test jar).
 */
public final class GpuFleet {
    public static final String DRIVER = "gpu.example.com";
    public static final String NAMESPACE = "team";
    public static final String POD = "train";

    private GpuFleet() {}

    public static ClusterSnapshot of(int full, int partial, int tainted) {
        List<Node> nodes = new ArrayList<>();
        List<ResourceSlice> slices = new ArrayList<>();
        List<ResourceClaim> claims = new ArrayList<>();
        int i = 0;
        for (int k = 0; k < full + partial + tainted; k++, i++) {
            String name = String.format("node-%04d", i);
            NodeBuilder nb = new NodeBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withLabels(Map.of("kubernetes.io/hostname", name, "pool", "gpu"))
                    .endMetadata()
                    .withNewStatus()
                    .withAllocatable(Map.of(
                            "cpu", new Quantity("64"), "memory", new Quantity("512Gi"), "pods", new Quantity("110")))
                    .endStatus();
            if (k >= full + partial) {
                nb.withNewSpec()
                        .addNewTaint()
                        .withKey("xid")
                        .withValue("79")
                        .withEffect("NoSchedule")
                        .endTaint()
                        .endSpec();
            }
            nodes.add(nb.build());
            List<Device> devices = new ArrayList<>();
            for (int d = 0; d < 8; d++) {
                devices.add(new DeviceBuilder()
                        .withName("gpu-" + d)
                        .withAttributes(Map.of(
                                "model",
                                new io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder()
                                        .withString("H100")
                                        .build()))
                        .build());
            }
            slices.add(new ResourceSliceBuilder()
                    .withNewMetadata()
                    .withName(name + "-gpus")
                    .endMetadata()
                    .withNewSpec()
                    .withDriver(DRIVER)
                    .withNodeName(name)
                    .withNewPool()
                    .withName(name)
                    .withGeneration(1L)
                    .withResourceSliceCount(1L)
                    .endPool()
                    .withDevices(devices)
                    .endSpec()
                    .build());
            int held = k < full ? 8 : k < full + partial ? 5 : 0;
            if (held > 0) {
                List<DeviceRequestAllocationResult> results = new ArrayList<>();
                for (int d = 0; d < held; d++) {
                    results.add(new io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder()
                            .withDevice("gpu-" + d)
                            .withDriver(DRIVER)
                            .withPool(name)
                            .withRequest("gpus")
                            .build());
                }
                claims.add(new ResourceClaimBuilder()
                        .withNewMetadata()
                        .withName("held-" + name)
                        .withNamespace("batch")
                        .withUid("uid-held-" + name)
                        .endMetadata()
                        .withNewSpec()
                        .withNewDevices()
                        .addNewRequest()
                        .withName("gpus")
                        .withNewExactly()
                        .withDeviceClassName("gpu")
                        .withCount((long) held)
                        .endExactly()
                        .endRequest()
                        .endDevices()
                        .endSpec()
                        .withNewStatus()
                        .withNewAllocation()
                        .withNewDevices()
                        .withResults(results)
                        .endDevices()
                        .withNodeSelector(new io.fabric8.kubernetes.api.model.NodeSelectorBuilder()
                                .addNewNodeSelectorTerm()
                                .addNewMatchField()
                                .withKey("metadata.name")
                                .withOperator("In")
                                .withValues(name)
                                .endMatchField()
                                .endNodeSelectorTerm()
                                .build())
                        .endAllocation()
                        .endStatus()
                        .build());
            }
        }
        DeviceClass gpu = new DeviceClassBuilder()
                .withNewMetadata()
                .withName("gpu")
                .endMetadata()
                .withNewSpec()
                .addNewSelector()
                .withNewCel()
                .withExpression("device.driver == \"" + DRIVER + "\"")
                .endCel()
                .endSelector()
                .endSpec()
                .build();
        ResourceClaimTemplate four = new ResourceClaimTemplateBuilder()
                .withNewMetadata()
                .withName("four-gpus")
                .withNamespace(NAMESPACE)
                .endMetadata()
                .withNewSpec()
                .withNewSpec()
                .withNewDevices()
                .addNewRequest()
                .withName("gpus")
                .withNewExactly()
                .withDeviceClassName("gpu")
                .withCount(4L)
                .endExactly()
                .endRequest()
                .endDevices()
                .endSpec()
                .endSpec()
                .build();
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(POD)
                .withNamespace(NAMESPACE)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("trainer")
                .withNewResources()
                .addToRequests("cpu", new Quantity("8"))
                .addNewClaim()
                .withName("gpus")
                .endClaim()
                .endResources()
                .endContainer()
                .addNewResourceClaim()
                .withName("gpus")
                .withResourceClaimTemplateName("four-gpus")
                .endResourceClaim()
                .endSpec()
                .build();
        return new ClusterSnapshot(
                nodes,
                List.of(pod),
                List.of(),
                List.of(gpu),
                slices,
                claims,
                List.of(four),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of());
    }
}
