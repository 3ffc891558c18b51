package io.dra4j.kubelet.dra;

import java.util.List;

/** A claim as the checkpoint remembers it: enough to unprepare it after a restart even when the claim is gone. */
public record PreparedClaim(ClaimRef claim, List<PreparedDevice> devices) {
    public PreparedClaim {
        devices = List.copyOf(devices);
    }
}
