package io.dra4j.drivers.nvidia;

import io.dra4j.kubelet.cdi.ContainerEdits;
import io.dra4j.kubelet.dra.DraDriver;
import io.dra4j.kubelet.dra.PrepareResult;
import io.dra4j.kubelet.dra.PreparedClaim;
import io.dra4j.kubelet.dra.PreparedDevice;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@code gpu.nvidia.com} driver on discovered GPUs: prepare gives the container the GPU's device node and the
 * control nodes, and {@code NVIDIA_VISIBLE_DEVICES} with the GPU or MIG UUID. Driver libraries are not injected
 * (that is the NVIDIA container toolkit's CDI spec), nor are MIG capability device nodes, whose minors nvidia-smi
 * does not print.
 */
public final class NvidiaDriver implements DraDriver {
    private final Map<String, String> uuidByDevice = new LinkedHashMap<>();
    private final Map<String, Integer> minorByDevice = new LinkedHashMap<>();
    private final Consumer<String> log;

    public NvidiaDriver(List<GpuInfo> gpus, Consumer<String> log) {
        this.log = log;
        for (GpuInfo g : gpus) {
            uuidByDevice.put("gpu-" + g.minor(), g.uuid());
            minorByDevice.put("gpu-" + g.minor(), g.minor());
            for (GpuInfo.MigInfo m : g.migDevices()) {
                uuidByDevice.put(NvidiaDevices.migName(g.minor(), m), m.uuid() == null ? g.uuid() : m.uuid());
                minorByDevice.put(NvidiaDevices.migName(g.minor(), m), g.minor());
            }
        }
    }

    @Override
    public PrepareResult prepare(ResourceClaim claim, List<DeviceRequestAllocationResult> results) {
        List<PreparedDevice> out = new ArrayList<>();
        for (DeviceRequestAllocationResult r : results) {
            String uuid = uuidByDevice.get(r.getDevice());
            if (uuid == null) {
                return PrepareResult.failed("device " + r.getDevice() + " is not a GPU of this node");
            }
            int minor = minorByDevice.get(r.getDevice());
            List<ContainerEdits.DeviceNode> nodes = List.of(
                    new ContainerEdits.DeviceNode("/dev/nvidia" + minor, null, "c", null),
                    new ContainerEdits.DeviceNode("/dev/nvidiactl", null, "c", null),
                    new ContainerEdits.DeviceNode("/dev/nvidia-uvm", null, "c", null),
                    new ContainerEdits.DeviceNode("/dev/nvidia-uvm-tools", null, "c", null));
            out.add(new PreparedDevice(List.of(r.getRequest()), r.getPool(), r.getDevice(), r.getShareID(),
                    new ContainerEdits(List.of("NVIDIA_VISIBLE_DEVICES=" + uuid), nodes, List.of())));
        }
        log.accept("prepared claim " + claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName());
        return PrepareResult.prepared(out);
    }

    @Override
    public String unprepare(PreparedClaim claim) {
        log.accept("unprepared claim " + claim.claim());
        return null;
    }

    @Override
    public void handleError(String message, Throwable cause, boolean recoverable) {
        log.accept((recoverable ? "warning: " : "error: ") + message + (cause == null ? "" : ": " + cause.getMessage()));
    }
}
