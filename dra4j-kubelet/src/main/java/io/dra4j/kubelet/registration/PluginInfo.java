package io.dra4j.kubelet.registration;

import java.util.List;

/**
 * What a plugin answers to the kubelet's GetInfo: its type ({@link #DRA_PLUGIN}, {@link #DEVICE_PLUGIN}), name
 * (the driver name, or the extended resource name of a device plugin), the absolute path of its service socket and
 * its supported versions (for DRA: gRPC service names, in order of preference).
 */
public record PluginInfo(String type, String name, String endpoint, List<String> supportedVersions) {
    public static final String DRA_PLUGIN = "DRAPlugin";
    public static final String DEVICE_PLUGIN = "DevicePlugin";
    public static final String CSI_PLUGIN = "CSIPlugin";

    /** The DRA plugin service names a kubelet picks from, the newest first. */
    public static final String DRA_V1 = "v1.DRAPlugin";

    public static final String DRA_V1BETA1 = "v1beta1.DRAPlugin";
    /** The resource health service names, the newest first (the kubelet takes the first it knows). */
    public static final String HEALTH_V1 = "v1.DRAResourceHealth";

    public static final String HEALTH_V1ALPHA1 = "v1alpha1.DRAResourceHealth";

    public PluginInfo {
        supportedVersions = List.copyOf(supportedVersions);
    }
}
