package io.dra4j.kubelet.probe;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link KubeletProbe} works on: the kubelet root directory whose {@code plugins_registry/} and
 * {@code device-plugins/} it serves as the kubelet does, the CDI directories where runtimes look for specs, the
 * allocated claims to prepare (from a snapshot or an API server), the node name, and how long to wait for plugins.
 */
public record ProbeOptions(Path kubeletRoot, List<Path> cdiDirectories, List<ResourceClaim> claims, String nodeName,
                           Duration waitForPlugins, boolean draPlugins, boolean devicePlugins) {
    public ProbeOptions {
        cdiDirectories = List.copyOf(cdiDirectories);
        claims = List.copyOf(claims);
    }

    public Path registryDirectory() {
        return kubeletRoot.resolve("plugins_registry");
    }

    public Path devicePluginDirectory() {
        return kubeletRoot.resolve("device-plugins");
    }
}
