package io.dra4j.kubelet.deviceplugin;

import java.util.List;

/**
 * What a device plugin implements; {@link DevicePluginServer} serves it to the kubelet and keeps it registered.
 * The device list itself is pushed with {@link DevicePluginServer#update}.
 */
public interface DevicePlugin {
    /** The extended resource name, such as {@code nvidia.com/gpu}. */
    String resourceName();

    /** What one container gets for {@code deviceIds}; an exception fails the pod's admission. */
    ContainerAllocation allocate(List<String> deviceIds);

    /** Whether the kubelet must call {@link #preStartContainer} before each container start. */
    default boolean preStartRequired() {
        return false;
    }

    /** Runs before a container using {@code deviceIds} starts (device reset, for example). */
    default void preStartContainer(List<String> deviceIds) {}

    /** Whether the kubelet should ask for preferred allocations ({@link PreferredAllocation} by default). */
    default boolean preferredAllocationAvailable() {
        return true;
    }
}
