package io.dra4j.bench;

import io.dra4j.sim.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fleet for the simulator's scale goal: {@code nodes} nodes with 8 devices each (three in four nodes with 8 GPUs
 * in two NVLink-style islands of 4, one in four with 8 MIG-style slices as plain devices) and {@code pods} pending
 * pods, each with one claim from a template, in a fixed mix: 1 GPU (40%), 2 GPUs in one island through
 * matchAttribute (10%), 1 MIG slice (30%), and a fallback chain 1 GPU then 1 MIG slice (20%). Deterministic.
 */
public final class SimulationFleet {
    static final String DRIVER = "gpu.example.com";
    static final String NS = "bench";

    private SimulationFleet() {}

    public static ClusterSnapshot generate(int nodes, int pods) {
        List<Node> nodeList = new ArrayList<>();
        List<ResourceSlice> slices = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            String name = "node-" + n;
            boolean mig = n % 4 == 3;
            nodeList.add(new NodeBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withLabels(Map.of("kubernetes.io/hostname", name, "topology.kubernetes.io/zone", "zone-" + n % 3))
                    .endMetadata()
                    .withNewStatus()
                    .withAllocatable(Map.of(
                            "cpu", new Quantity("64"), "memory", new Quantity("512Gi"), "pods", new Quantity("110")))
                    .endStatus()
                    .build());
            ResourceSliceBuilder slice = new ResourceSliceBuilder()
                    .withNewMetadata()
                    .withName(name + "-devices")
                    .endMetadata()
                    .withNewSpec()
                    .withDriver(DRIVER)
                    .withNodeName(name)
                    .withNewPool()
                    .withName(name)
                    .withGeneration(1L)
                    .withResourceSliceCount(1L)
                    .endPool()
                    .endSpec();
            List<io.fabric8.kubernetes.api.model.resource.v1.Device> devices = new ArrayList<>();
            for (int d = 0; d < 8; d++) {
                DeviceAttribute kind = new DeviceAttribute();
                kind.setString(mig ? "mig" : "gpu");
                DeviceAttribute island = new DeviceAttribute();
                island.setInt((long) (d / 4));
                devices.add(new DeviceBuilder()
                        .withName((mig ? "mig-" : "gpu-") + d)
                        .withAttributes(Map.of("kind", kind, "island", island))
                        .build());
            }
            slice.editSpec().withDevices(devices).endSpec();
            slices.add(slice.build());
        }
        List<DeviceClass> classes = List.of(deviceClass("gpu", "gpu"), deviceClass("mig", "mig"));
        List<ResourceClaimTemplate> templates = List.of(
                template(
                        "one-gpu",
                        List.of(new DeviceRequestBuilder()
                                .withName("gpu")
                                .withNewExactly()
                                .withDeviceClassName("gpu")
                                .withCount(1L)
                                .endExactly()
                                .build()),
                        false),
                template(
                        "two-gpus",
                        List.of(new DeviceRequestBuilder()
                                .withName("gpus")
                                .withNewExactly()
                                .withDeviceClassName("gpu")
                                .withCount(2L)
                                .endExactly()
                                .build()),
                        true),
                template(
                        "one-mig",
                        List.of(new DeviceRequestBuilder()
                                .withName("mig")
                                .withNewExactly()
                                .withDeviceClassName("mig")
                                .withCount(1L)
                                .endExactly()
                                .build()),
                        false),
                template(
                        "fallback",
                        List.of(new DeviceRequestBuilder()
                                .withName("accel")
                                .addNewFirstAvailable()
                                .withName("gpu")
                                .withDeviceClassName("gpu")
                                .withCount(1L)
                                .endFirstAvailable()
                                .addNewFirstAvailable()
                                .withName("mig")
                                .withDeviceClassName("mig")
                                .withCount(1L)
                                .endFirstAvailable()
                                .build()),
                        false));
        List<Pod> podList = new ArrayList<>();
        for (int p = 0; p < pods; p++) {
            int slot = p % 10;
            String template = slot < 4 ? "one-gpu" : slot < 5 ? "two-gpus" : slot < 8 ? "one-mig" : "fallback";
            podList.add(new PodBuilder()
                    .withNewMetadata()
                    .withName("pod-" + p)
                    .withNamespace(NS)
                    .withUid("uid-pod-" + p)
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("main")
                    .withNewResources()
                    .withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("4Gi")))
                    .endResources()
                    .endContainer()
                    .addNewResourceClaim()
                    .withName("accel")
                    .withResourceClaimTemplateName(template)
                    .endResourceClaim()
                    .endSpec()
                    .build());
        }
        return new ClusterSnapshot(
                nodeList, podList, List.of(), classes, slices, List.of(), templates, List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of());
    }

    /** Writes the fleet as one {@code kind: List} JSON document (nodes, classes, slices, templates, pods). */
    public static void write(ClusterSnapshot fleet, java.nio.file.Path file) throws java.io.IOException {
        List<Object> items = new ArrayList<>();
        items.addAll(fleet.nodes());
        items.addAll(fleet.deviceClasses());
        items.addAll(fleet.resourceSlices());
        items.addAll(fleet.resourceClaimTemplates());
        items.addAll(fleet.pods());
        java.nio.file.Files.writeString(
                file,
                new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
                        .asJson(Map.of("apiVersion", "v1", "kind", "List", "items", items)));
    }

    private static DeviceClass deviceClass(String name, String kind) {
        return new DeviceClassBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewSelector()
                .withNewCel()
                .withExpression("device.driver == \"" + DRIVER + "\" && device.attributes[\"" + DRIVER
                        + "\"].kind == \"" + kind + "\"")
                .endCel()
                .endSelector()
                .endSpec()
                .build();
    }

    private static ResourceClaimTemplate template(
            String name, List<io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest> requests, boolean sameIsland) {
        ResourceClaimTemplateBuilder b = new ResourceClaimTemplateBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .withNewSpec()
                .withNewDevices()
                .withRequests(requests)
                .endDevices()
                .endSpec()
                .endSpec();
        if (sameIsland) {
            b.editSpec()
                    .editSpec()
                    .editDevices()
                    .addNewConstraint()
                    .withMatchAttribute(DRIVER + "/island")
                    .withRequests(requests.get(0).getName())
                    .endConstraint()
                    .endDevices()
                    .endSpec()
                    .endSpec();
        }
        return b.build();
    }
}
