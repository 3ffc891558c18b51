package io.dra4j.kubelet.dra;

import io.dra4j.kubelet.cdi.ContainerEdits;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/** A driver for tests that knows a fixed set of devices and records every call. */
final class RecordingDriver implements DraDriver {
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    /** Per {@link #started} call: the claims it got, as {@code name: pool/device,...}, joined by "; ". */
    final List<String> started = Collections.synchronizedList(new ArrayList<>());

    private final Set<String> devices;
    volatile RuntimeException failPrepare;

    RecordingDriver(Set<String> devices) {
        this.devices = devices;
    }

    @Override
    public PrepareResult prepare(ResourceClaim claim, List<DeviceRequestAllocationResult> results) {
        calls.add("prepare " + claim.getMetadata().getName());
        if (failPrepare != null) {
            throw failPrepare;
        }
        List<PreparedDevice> out = new ArrayList<>();
        for (DeviceRequestAllocationResult r : results) {
            if (!devices.contains(r.getDevice())) {
                return PrepareResult.failed("unknown device " + r.getDevice());
            }
            out.add(new PreparedDevice(
                    List.of(r.getRequest()),
                    r.getPool(),
                    r.getDevice(),
                    r.getShareID(),
                    ContainerEdits.env(
                            List.of("DEVICE_" + r.getDevice().replace('-', '_').toUpperCase() + "=" + r.getDevice()))));
        }
        return PrepareResult.prepared(out);
    }

    @Override
    public void started(List<PreparedClaim> checkpointed) {
        started.add(String.join(
                "; ",
                checkpointed.stream()
                        .map(c -> c.claim().name() + ": "
                                + String.join(
                                        ",",
                                        c.devices().stream()
                                                .map(d -> d.pool() + "/" + d.device())
                                                .toList()))
                        .toList()));
    }

    @Override
    public String unprepare(PreparedClaim claim) {
        calls.add("unprepare " + claim.claim().name());
        return null;
    }

    @Override
    public void handleError(String message, Throwable cause, boolean recoverable) {
        errors.add(message);
    }
}
