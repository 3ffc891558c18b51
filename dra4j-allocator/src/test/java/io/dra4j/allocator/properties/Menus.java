package io.dra4j.allocator.properties;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import java.util.List;

/** The small menus generated scenarios pick from. */
final class Menus {
    static final String DRIVER = "gpu.example.com";
    static final String NODE = "node-a";
    static final String OTHER_NODE = "node-b";

    static final List<String> MODELS = List.of("H100", "A100");
    static final List<String> PCIE_ROOTS = List.of("pci-0", "pci-1");
    static final List<Integer> MEMORY_GI = List.of(8, 16, 40, 80);
    static final List<Integer> COUNTER_USE_GI = List.of(0, 8, 16);
    static final List<Integer> COUNTER_SET_GI = List.of(0, 16, 24, 40);
    static final List<Integer> CAPACITY_REQUEST_GI = List.of(0, 2, 8, 10, 16, 40);

    /** DeviceClass name and its selectors. */
    record DeviceClassSpec(String name, List<String> selectors) {}

    static final List<DeviceClassSpec> CLASSES = List.of(
            new DeviceClassSpec("gpu", List.of("device.driver == \"gpu.example.com\"")),
            new DeviceClassSpec(
                    "h100",
                    List.of(
                            "device.driver == \"gpu.example.com\"",
                            "device.attributes[\"gpu.example.com\"].model == \"H100\"")),
            new DeviceClassSpec("any", List.of()));

    static final List<String> SELECTORS = List.of(
            "device.attributes[\"gpu.example.com\"].model == \"H100\"",
            "device.attributes[\"gpu.example.com\"].numa >= 1",
            "device.attributes[\"gpu.example.com\"].fast",
            "has(device.attributes[\"gpu.example.com\"].pcieRoot)",
            "device.attributes[\"gpu.example.com\"].model.startsWith(\"A\") && device.attributes[\"gpu.example.com\"].numa != 1",
            "device.attributes[\"gpu.example.com\"].model != \"H100\" || device.attributes[\"gpu.example.com\"].numa == 0",
            "!device.allowMultipleAllocations");

    static final List<String> CONSTRAINT_ATTRIBUTES = List.of(
            "gpu.example.com/model", "gpu.example.com/numa", "gpu.example.com/pcieRoot", "gpu.example.com/fast");

    static final int TAINTS = 3;

    static DeviceTaint taint(int i) {
        DeviceTaint t = new DeviceTaint();
        switch (i) {
            case 0 -> {
                t.setKey("maintenance");
                t.setEffect("NoSchedule");
            }
            case 1 -> {
                t.setKey("degraded");
                t.setValue("true");
                t.setEffect("NoExecute");
            }
            default -> {
                t.setKey("info");
                t.setValue("x");
                t.setEffect("None");
            }
        }
        return t;
    }

    static final int TOLERATIONS = 5;

    static DeviceToleration toleration(int i) {
        DeviceToleration t = new DeviceToleration();
        switch (i) {
            case 0 -> {
                t.setKey("maintenance");
                t.setOperator("Exists");
            }
            case 1 -> {
                t.setKey("degraded");
                t.setOperator("Equal");
                t.setValue("true");
            }
            case 2 -> t.setOperator("Exists");
            case 3 -> {
                t.setKey("degraded");
                t.setOperator("Equal");
                t.setValue("false");
            }
            default -> {
                t.setEffect("NoSchedule");
                t.setOperator("Exists");
            }
        }
        return t;
    }

    static final int GATE_PROFILES = 7;

    /**
     * Feature gate profiles: 0 the 1.37 defaults; 1-3 defaults with DRADeviceTaints, DRAPartitionableDevices or
     * DRAConsumableCapacity off; 4 the 1.35 defaults (stable variant); 5 defaults plus DRAListTypeAttributes
     * (experimental variant); 6 defaults without DRAAdminAccess and DRAPrioritizedList.
     */
    static FeatureGates gates(int profile) {
        FeatureGates d = FeatureGates.defaults();
        return switch (profile) {
            case 1 -> d.with(DraFeature.DRADeviceTaints, false);
            case 2 -> d.with(DraFeature.DRAPartitionableDevices, false);
            case 3 -> d.with(DraFeature.DRAConsumableCapacity, false);
            case 4 -> FeatureGates.defaults(KubernetesVersion.V1_35);
            case 5 -> d.with(DraFeature.DRAListTypeAttributes, true);
            case 6 -> d.with(DraFeature.DRAAdminAccess, false).with(DraFeature.DRAPrioritizedList, false);
            default -> d;
        };
    }

    /** Whether the gates select upstream's stable variant (no distinctAttribute, no capacity checks). */
    static boolean stable(FeatureGates g) {
        boolean binding = g.isEnabled(DraFeature.DRADeviceBindingConditions)
                && g.isEnabled(DraFeature.DRAResourceClaimDeviceStatus);
        return !binding
                && !g.isEnabled(DraFeature.DRAConsumableCapacity)
                && !g.isEnabled(DraFeature.DRAFractionalCapacityRange)
                && !g.isEnabled(DraFeature.DRAListTypeAttributes)
                && !g.isEnabled(DraFeature.DRADerivedAttributes)
                && !g.isEnabled(DraFeature.DRADeviceCompatibilityGroups)
                && !g.isEnabled(DraFeature.DRAOptionalNodeOperations);
    }

    private Menus() {}
}
