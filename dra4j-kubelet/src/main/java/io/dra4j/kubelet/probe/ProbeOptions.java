package io.dra4j.kubelet.probe;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link KubeletProbe} works on: the kubelet root directory whose {@code plugins_registry/} and
 * {@code device-plugins/} it serves as the kubelet does, the CDI directories where runtimes look for specs, the
 * allocated claims to prepare (from a snapshot or an API server), the node name, how long to wait for plugins, and
 * the ResourceSlices published for the node (to find devices that a device plugin also advertises), and how long
 * to keep watching a driver's health stream while its claims are prepared ({@code healthWatch}, zero for not at
 * all: only the first update is checked).
 */
public record ProbeOptions(
        Path kubeletRoot,
        List<Path> cdiDirectories,
        List<ResourceClaim> claims,
        String nodeName,
        Duration waitForPlugins,
        boolean draPlugins,
        boolean devicePlugins,
        List<ResourceSlice> slices,
        Duration healthWatch) {
    public ProbeOptions {
        cdiDirectories = List.copyOf(cdiDirectories);
        claims = List.copyOf(claims);
        slices = List.copyOf(slices);
        if (healthWatch.isNegative()) {
            throw new IllegalArgumentException("healthWatch: " + healthWatch + " is negative");
        }
    }

    /** Options that check only the first health update. */
    public ProbeOptions(
            Path kubeletRoot,
            List<Path> cdiDirectories,
            List<ResourceClaim> claims,
            String nodeName,
            Duration waitForPlugins,
            boolean draPlugins,
            boolean devicePlugins,
            List<ResourceSlice> slices) {
        this(
                kubeletRoot,
                cdiDirectories,
                claims,
                nodeName,
                waitForPlugins,
                draPlugins,
                devicePlugins,
                slices,
                Duration.ZERO);
    }

    /** Options without ResourceSlices: the check for devices advertised twice is skipped. */
    public ProbeOptions(
            Path kubeletRoot,
            List<Path> cdiDirectories,
            List<ResourceClaim> claims,
            String nodeName,
            Duration waitForPlugins,
            boolean draPlugins,
            boolean devicePlugins) {
        this(kubeletRoot, cdiDirectories, claims, nodeName, waitForPlugins, draPlugins, devicePlugins, List.of());
    }

    public Path registryDirectory() {
        return kubeletRoot.resolve("plugins_registry");
    }

    public Path devicePluginDirectory() {
        return kubeletRoot.resolve("device-plugins");
    }
}
