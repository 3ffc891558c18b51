package io.dra4j.kubelet.dra;

import io.dra4j.kubelet.cdi.ContainerEdits;
import java.util.List;

/**
 * One device a driver prepared for a claim: the requests it serves (subrequest suffixes are stripped before the
 * kubelet sees them), its pool and name, the share ID of a consumable-capacity allocation (null otherwise) and the
 * container edits the CDI spec gives it. The helper writes the CDI spec and names the CDI device
 * {@code <claimUID>-<device>[-<shareID>]}, so that no CDI name is ever reused for another claim.
 */
public record PreparedDevice(List<String> requests, String pool, String device, String shareId, ContainerEdits edits) {
    public PreparedDevice {
        requests = List.copyOf(requests);
        if (pool == null || pool.isEmpty() || device == null || device.isEmpty()) {
            throw new IllegalArgumentException("a prepared device needs a pool and a device name");
        }
        edits = edits == null ? ContainerEdits.NONE : edits;
    }

    /** {@code pool/device}. */
    public String id() {
        return pool + "/" + device;
    }
}
