package io.dra4j.allocator;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small fixed universe of cluster objects for the state tests: three nodes, per node a GPU pool, a pool that
 * spans nodes 0 and 1 (node 2 has a second GPU slice instead) and a partitionable pool (counter slice plus device
 * slice), a network pool for every node, two device classes, two taint
 * rules and five claims. Each object comes in a few variants (generations that make pools incomplete or obsolete,
 * taints, multi-allocatable devices with capacity, other selectors), so random update sequences reach every way a
 * pool or a device can change. Every call builds fresh objects.
 */
final class ClusterWorld {
    static final String DRIVER = "dev.example.com";
    static final int NODES = 3;
    static final int SLICE_NAMES = NODES * 4 + 1;
    static final int SLICE_VARIANTS = 4;
    static final int CLAIMS = 5;

    private ClusterWorld() {}

    static FeatureGates gates(int variant) {
        return switch (variant) {
            case 0 -> FeatureGates.defaults(KubernetesVersion.V1_37);
            case 1 ->
                FeatureGates.of(
                        DraFeature.DRAAdminAccess,
                        DraFeature.DRAPrioritizedList,
                        DraFeature.DRADeviceTaints,
                        DraFeature.DRADeviceTaintRules,
                        DraFeature.DRAPartitionableDevices,
                        DraFeature.DRAConsumableCapacity);
            default ->
                FeatureGates.of(
                        DraFeature.DRAPartitionableDevices, DraFeature.DRADeviceTaints, DraFeature.DRADeviceTaintRules);
        };
    }

    static List<Node> nodes() {
        List<Node> out = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            out.add(new NodeBuilder()
                    .withNewMetadata()
                    .withName("node-" + n)
                    .withLabels(Map.of("zone", n < 2 ? "a" : "b"))
                    .endMetadata()
                    .build());
        }
        return out;
    }

    static String sliceName(int index) {
        if (index == NODES * 4) {
            return "network";
        }
        int node = index / 4;
        return switch (index % 4) {
            case 0 -> "node-" + node + "-gpus-0";
            case 1 -> "node-" + node + "-gpus-1";
            case 2 -> "node-" + node + "-counters";
            default -> "node-" + node + "-partitions";
        };
    }

    /** Variant 0 of every slice, in index order: a complete cluster. */
    static List<ResourceSlice> initialSlices() {
        List<ResourceSlice> out = new ArrayList<>();
        for (int i = 0; i < SLICE_NAMES; i++) {
            out.add(slice(i, 0));
        }
        return out;
    }

    static ResourceSlice slice(int index, int variant) {
        String name = sliceName(index);
        if (index == NODES * 4) {
            ResourceSliceBuilder b = base(name, "network", variant == 3 ? 2 : 1, 1);
            if (variant == 1) {
                b.editSpec()
                        .withNodeSelector(new NodeSelectorBuilder()
                                .addNewNodeSelectorTerm()
                                .addNewMatchExpression()
                                .withKey("zone")
                                .withOperator("In")
                                .withValues("a")
                                .endMatchExpression()
                                .endNodeSelectorTerm()
                                .build())
                        .endSpec();
            } else {
                b.editSpec().withAllNodes(true).endSpec();
            }
            return b.editSpec()
                    .withDevices(device("nic-0", 0, variant == 2), device("nic-1", 1, false))
                    .endSpec()
                    .build();
        }
        int node = index / 4;
        String nodeName = "node-" + node;
        switch (index % 4) {
            case 0, 1 -> {
                // Nodes 0 and 1 share the pool "span" (one slice each), so one node's update changes the other's pool.
                boolean span = index % 4 == 1 && node < 2;
                long generation = variant == 1 ? 2 : 1;
                long count = variant == 1 || (index % 4 == 0 && node < 2) ? 1 : 2;
                ResourceSliceBuilder b = base(name, span ? "span" : "gpus-" + node, generation, count);
                b.editSpec().withNodeName(nodeName).endSpec();
                List<Device> devices = new ArrayList<>();
                for (int d = 0; d < 3; d++) {
                    String dn = "gpu-" + (index % 4) + "-" + d + (span ? "-" + node : "");
                    if (variant == 3) {
                        devices.add(new DeviceBuilder(device(dn, d % 2, false))
                                .withAllowMultipleAllocations(true)
                                .withCapacity(Map.of(
                                        "memory",
                                        new DeviceCapacityBuilder()
                                                .withValue(new Quantity("4Gi"))
                                                .build()))
                                .build());
                    } else {
                        devices.add(device(dn, d % 2, variant == 2 && d == 0));
                    }
                }
                return b.editSpec().withDevices(devices).endSpec().build();
            }
            case 2 -> {
                return base(name, "parts-" + node, 1, 2)
                        .editSpec()
                        .withNodeName(nodeName)
                        .withSharedCounters(new CounterSetBuilder()
                                .withName("cs")
                                .withCounters(Map.of("mem", new Counter(new Quantity(variant == 1 ? "4Gi" : "8Gi"))))
                                .build())
                        .endSpec()
                        .build();
            }
            default -> {
                List<Device> devices = new ArrayList<>();
                for (int d = 0; d < 3; d++) {
                    devices.add(new DeviceBuilder(device("part-" + d, d, variant == 2 && d == 1))
                            .withConsumesCounters(new DeviceCounterConsumptionBuilder()
                                    .withCounterSet("cs")
                                    .withCounters(Map.of(
                                            "mem", new Counter(new Quantity(d == 0 && variant == 1 ? "8Gi" : "4Gi"))))
                                    .build())
                            .build());
                }
                return base(name, "parts-" + node, 1, 2)
                        .editSpec()
                        .withNodeName(nodeName)
                        .withDevices(devices)
                        .endSpec()
                        .build();
            }
        }
    }

    private static ResourceSliceBuilder base(String name, String pool, long generation, long count) {
        return new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withDriver(DRIVER)
                .withNewPool()
                .withName(pool)
                .withGeneration(generation)
                .withResourceSliceCount(count)
                .endPool()
                .endSpec();
    }

    private static Device device(String name, int numa, boolean tainted) {
        DeviceBuilder b = new DeviceBuilder()
                .withName(name)
                .withAttributes(Map.of(
                        "numa",
                        new DeviceAttributeBuilder().withInt((long) numa).build(),
                        "model",
                        new DeviceAttributeBuilder()
                                .withString(numa == 0 ? "A" : "B")
                                .build()));
        if (tainted) {
            b.withTaints(new DeviceTaintBuilder()
                    .withKey("broken")
                    .withValue("yes")
                    .withEffect("NoSchedule")
                    .build());
        }
        return b.build();
    }

    static List<DeviceClass> initialClasses() {
        return List.of(deviceClass(0, 0), deviceClass(1, 0));
    }

    static DeviceClass deviceClass(int index, int variant) {
        String expression = index == 0
                ? (variant == 0
                        ? "device.driver == \"" + DRIVER + "\""
                        : "device.attributes[\"" + DRIVER + "\"].numa == 0")
                : (variant == 0
                        ? "device.attributes[\"" + DRIVER + "\"].model == \"A\""
                        : "device.driver == \"other\"");
        return new DeviceClassBuilder()
                .withNewMetadata()
                .withName(index == 0 ? "any" : "model-a")
                .endMetadata()
                .withNewSpec()
                .addNewSelector()
                .withNewCel()
                .withExpression(expression)
                .endCel()
                .endSelector()
                .endSpec()
                .build();
    }

    static String className(int index) {
        return index == 0 ? "any" : "model-a";
    }

    static DeviceTaintRule taintRule(int index, int variant) {
        DeviceTaintRuleBuilder b = new DeviceTaintRuleBuilder()
                .withNewMetadata()
                .withName("rule-" + index)
                .endMetadata();
        var spec = b.withNewSpec()
                .withNewTaint()
                .withKey("rule-" + index)
                .withValue("v")
                .withEffect(variant == 2 ? "NoExecute" : "NoSchedule")
                .endTaint();
        if (variant == 0) {
            spec.withNewDeviceSelector()
                    .withDriver(DRIVER)
                    .withPool("gpus-" + (index % NODES))
                    .endDeviceSelector();
        } else if (variant == 1) {
            spec.withNewDeviceSelector()
                    .withDriver(DRIVER)
                    .withPool("gpus-1")
                    .withDevice("gpu-0-" + index)
                    .endDeviceSelector();
        } else {
            spec.withNewDeviceSelector().withDevice("gpu-1-" + index).endDeviceSelector();
        }
        return spec.endSpec().build();
    }

    static String claimName(int index) {
        return "claim-" + index;
    }

    /** The claims, unallocated: one device, two matching devices, a share with capacity, partitions, the network. */
    static ResourceClaim claim(int index) {
        List<DeviceRequest> requests = new ArrayList<>();
        ResourceClaimBuilder b = new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(claimName(index))
                .withNamespace("ns")
                .endMetadata();
        switch (index) {
            case 0 -> requests.add(request("r", "any", 1));
            case 1 -> requests.add(request("r", "model-a", 2));
            case 2 ->
                requests.add(new DeviceRequestBuilder(request("r", "any", 1))
                        .editExactly()
                        .withNewCapacity()
                        .withRequests(Map.of("memory", new Quantity("3Gi")))
                        .endCapacity()
                        .endExactly()
                        .build());
            case 3 ->
                requests.add(new DeviceRequestBuilder(request("r", "any", 2))
                        .editExactly()
                        .addNewSelector()
                        .withNewCel()
                        .withExpression("device.attributes[\"" + DRIVER + "\"].model != \"none\" && "
                                + "!has(device.attributes[\"" + DRIVER + "\"].absent)")
                        .endCel()
                        .endSelector()
                        .endExactly()
                        .build());
            default -> {
                requests.add(request("a", "any", 1));
                requests.add(request("b", "any", 1));
            }
        }
        b.withNewSpec().withNewDevices().withRequests(requests).endDevices().endSpec();
        if (index == 1) {
            b.editSpec()
                    .editDevices()
                    .addNewConstraint()
                    .withMatchAttribute(DRIVER + "/numa")
                    .endConstraint()
                    .endDevices()
                    .endSpec();
        }
        if (index == 4) {
            b.editSpec()
                    .editDevices()
                    .addNewConstraint()
                    .withDistinctAttribute(DRIVER + "/numa")
                    .endConstraint()
                    .endDevices()
                    .endSpec();
        }
        return b.build();
    }

    private static DeviceRequest request(String name, String className, long count) {
        return new DeviceRequestBuilder()
                .withName(name)
                .withNewExactly()
                .withDeviceClassName(className)
                .withAllocationMode("ExactCount")
                .withCount(count)
                .endExactly()
                .build();
    }
}
