package io.dra4j.kubelet.dra;

import java.util.List;

/** The answer for one claim of a NodePrepareResources call: devices, or a non-empty error. */
public record ClaimPrepared(List<NodeDevice> devices, String error) {
    public ClaimPrepared {
        devices = List.copyOf(devices);
        error = error == null ? "" : error;
    }

    static ClaimPrepared failed(String error) {
        return new ClaimPrepared(List.of(), error);
    }

    public boolean failed() {
        return !error.isEmpty();
    }
}
