package io.dra4j.kubelet.dra;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;

/**
 * What a DRA driver implements; {@link DraPlugin} does the rest (sockets, registration, claim lookup and checks,
 * serialisation, checkpoint, CDI spec files). Calls are serialised: no two of them run at once.
 */
public interface DraDriver {
    /**
     * Prepares one claim for use on this node. {@code results} are the allocation results of this driver only (a
     * claim may span drivers); the claim was read from the API server, has the UID the kubelet named and is
     * allocated to this node. Must be deterministic enough to be called again after a crash mid-prepare: the helper
     * calls {@link #unprepare} first when a previous prepare of the claim did not complete, with the claim's
     * allocated devices (without container edits), so that it can undo whatever that prepare got done.
     */
    PrepareResult prepare(ResourceClaim claim, List<DeviceRequestAllocationResult> results);

    /**
     * Undoes a prepare from what the checkpoint remembers (the claim itself may be deleted by now): the prepared
     * devices, or for a prepare that did not complete the allocated devices without container edits. Must succeed
     * for devices that were never prepared. Returns null on success, else the error for the kubelet.
     */
    String unprepare(PreparedClaim claim);

    /**
     * Called once when the helper starts, after the checkpoint is read and before the kubelet can call, with every
     * claim the checkpoint holds (prepared, or with a prepare cut short: then its allocated devices without container
     * edits), so that the driver can clean up what no claim uses (dynamic MIG destroys the MIG devices of no claim,
     * as NVIDIA's driver does). Serialised with prepare and unprepare (across instances in rolling-update mode). The
     * default does nothing; report problems through {@link #handleError}.
     */
    default void started(List<PreparedClaim> checkpointed) {}

    /**
     * A background error (a failed ResourceSlice sync, a rejected registration). {@code recoverable} errors are
     * retried by the helper; others should end the process. The default writes to standard error.
     */
    default void handleError(String message, Throwable cause, boolean recoverable) {
        System.err.println(
                (recoverable ? "warning: " : "error: ") + message + (cause == null ? "" : ": " + cause.getMessage()));
    }
}
