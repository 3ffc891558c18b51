package io.dra4j.kubelet.deviceplugin;

import java.util.List;
import java.util.Map;

/**
 * What the kubelet applies to one container for the devices Allocate gave it: environment variables, mounts,
 * device nodes, annotations and fully qualified CDI device names (the kubelet hands those to the runtime).
 */
public record ContainerAllocation(
        Map<String, String> envs,
        List<Mount> mounts,
        List<DeviceNode> devices,
        Map<String, String> annotations,
        List<String> cdiDevices) {
    public ContainerAllocation {
        envs = Map.copyOf(envs);
        mounts = List.copyOf(mounts);
        devices = List.copyOf(devices);
        annotations = Map.copyOf(annotations);
        cdiDevices = List.copyOf(cdiDevices);
    }

    public record Mount(String containerPath, String hostPath, boolean readOnly) {}

    /** {@code permissions} is some of r, w, m. */
    public record DeviceNode(String containerPath, String hostPath, String permissions) {}
}
