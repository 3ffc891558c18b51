package io.dra4j.drivers.nvidia;

import io.dra4j.kubelet.deviceplugin.ContainerAllocation;
import io.dra4j.kubelet.deviceplugin.DevicePlugin;
import io.dra4j.kubelet.deviceplugin.PluginDevice;
import io.dra4j.kubelet.dra.DeviceHealth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Full GPUs as {@code nvidia.com/gpu} (the NVIDIA device plugin's {@code none} MIG strategy): device IDs are GPU
 * UUIDs; Allocate sets {@code NVIDIA_VISIBLE_DEVICES} and the GPU's device node. With health checks, a GPU that
 * {@link NvidiaHealth} finds unhealthy (a critical XID, uncorrectable ECC errors) is advertised {@code Unhealthy} in
 * ListAndWatch, as NVIDIA's device plugin marks a GPU after a critical XID; the DRA driver taints the same GPUs from
 * the same rules.
 */
public final class NvidiaDevicePlugin implements DevicePlugin {
    private final Map<String, GpuInfo> byUuid = new LinkedHashMap<>();

    public NvidiaDevicePlugin(List<GpuInfo> gpus) {
        gpus.forEach(g -> byUuid.put(g.uuid(), g));
    }

    @Override
    public String resourceName() {
        return "nvidia.com/gpu";
    }

    /** Every GPU, healthy (no health checks). */
    public List<PluginDevice> devices() {
        return byUuid.values().stream()
                .map(g -> new PluginDevice(g.uuid(), true, List.of(), null))
                .toList();
    }

    /**
     * Every GPU with its health at {@code health}'s last check: {@code Unhealthy} when the check found it so,
     * {@code Healthy} otherwise (an application XID leaves a GPU healthy, as does a GPU not yet checked, which the
     * NVIDIA device plugin also starts from).
     */
    public List<PluginDevice> devices(NvidiaHealthMonitor health) {
        return byUuid.values().stream()
                .map(g -> new PluginDevice(
                        g.uuid(), health.status("gpu-" + g.minor()) != DeviceHealth.Status.UNHEALTHY, List.of(), null))
                .toList();
    }

    @Override
    public ContainerAllocation allocate(List<String> deviceIds) {
        List<ContainerAllocation.DeviceNode> nodes = new ArrayList<>();
        for (String id : deviceIds) {
            GpuInfo g = byUuid.get(id);
            if (g == null) {
                throw new IllegalArgumentException("unknown GPU " + id);
            }
            nodes.add(new ContainerAllocation.DeviceNode("/dev/nvidia" + g.minor(), "/dev/nvidia" + g.minor(), "rw"));
        }
        return new ContainerAllocation(
                Map.of("NVIDIA_VISIBLE_DEVICES", String.join(",", deviceIds)), List.of(), nodes, Map.of(), List.of());
    }
}
