package io.dra4j.drivers.nvidia;

import io.dra4j.kubelet.deviceplugin.ContainerAllocation;
import io.dra4j.kubelet.deviceplugin.DevicePlugin;
import io.dra4j.kubelet.deviceplugin.PluginDevice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Full GPUs as {@code nvidia.com/gpu} (the NVIDIA device plugin's {@code none} MIG strategy): device IDs are GPU
 * UUIDs; Allocate sets {@code NVIDIA_VISIBLE_DEVICES} and the GPU's device node.
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

    public List<PluginDevice> devices() {
        return byUuid.values().stream().map(g -> new PluginDevice(g.uuid(), true, List.of(), null)).toList();
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
        return new ContainerAllocation(Map.of("NVIDIA_VISIBLE_DEVICES", String.join(",", deviceIds)), List.of(), nodes,
                Map.of(), List.of());
    }
}
