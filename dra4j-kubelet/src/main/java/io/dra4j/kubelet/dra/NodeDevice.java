package io.dra4j.kubelet.dra;

import java.util.List;

/** A device as the kubelet receives it in a NodePrepareResources answer. {@code shareId} may be null. */
public record NodeDevice(
        List<String> requestNames, String pool, String device, List<String> cdiDeviceIds, String shareId) {
    public NodeDevice {
        requestNames = List.copyOf(requestNames);
        cdiDeviceIds = List.copyOf(cdiDeviceIds);
    }
}
