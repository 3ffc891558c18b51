package io.dra4j.kubelet.cdi;

import java.util.List;

/**
 * CDI container edits: environment variables ({@code NAME=value}), device nodes and mounts. Hooks, additional
 * GIDs, Intel RDT and network devices are not modelled.
 */
public record ContainerEdits(List<String> env, List<DeviceNode> deviceNodes, List<Mount> mounts) {
    public static final ContainerEdits NONE = new ContainerEdits(List.of(), List.of(), List.of());

    public ContainerEdits {
        env = List.copyOf(env);
        deviceNodes = List.copyOf(deviceNodes);
        mounts = List.copyOf(mounts);
        for (String e : env) {
            int eq = e.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("CDI env entry " + e + " is not NAME=value");
            }
        }
    }

    public static ContainerEdits env(List<String> env) {
        return new ContainerEdits(env, List.of(), List.of());
    }

    public boolean noEdits() {
        return env.isEmpty() && deviceNodes.isEmpty() && mounts.isEmpty();
    }

    /** A device node; {@code hostPath}, {@code type} and {@code permissions} may be null. */
    public record DeviceNode(String path, String hostPath, String type, String permissions) {
        public DeviceNode {
            if (path == null || !path.startsWith("/")) {
                throw new IllegalArgumentException("CDI device node path " + path + " is not absolute");
            }
        }
    }

    /** A mount; {@code type} may be null. */
    public record Mount(String hostPath, String containerPath, String type, List<String> options) {
        public Mount {
            options = List.copyOf(options);
            if (containerPath == null || !containerPath.startsWith("/")) {
                throw new IllegalArgumentException("CDI mount container path " + containerPath + " is not absolute");
            }
        }
    }
}
