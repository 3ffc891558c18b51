package io.dra4j.drivers.nvidia;

import io.dra4j.kubelet.cdi.ContainerEdits;
import io.dra4j.kubelet.dra.DraDriver;
import io.dra4j.kubelet.dra.PrepareResult;
import io.dra4j.kubelet.dra.PreparedClaim;
import io.dra4j.kubelet.dra.PreparedDevice;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The {@code gpu.nvidia.com} driver on discovered GPUs: prepare gives the container the GPU's device node and the
 * control nodes, and {@code NVIDIA_VISIBLE_DEVICES} with the GPU or MIG UUID. Driver libraries are not injected
 * (that is the NVIDIA container toolkit's CDI spec), nor are MIG capability device nodes, whose minors nvidia-smi
 * does not print.
 *
 * <p>With dynamic MIG, preparing a MIG partition creates its GPU and compute instance ({@code nvidia-smi mig -cgi
 * <profile>:<start> -C}) and unpreparing destroys them, both idempotent (see {@link MigPartitions}); preparing the
 * full GPU of a partitionable Hopper or later GPU leaves MIG mode ({@code nvidia-smi -i <index> -mig 0}) and
 * unpreparing it enters MIG mode again, so that the partitions published at start stay valid. A prepare that fails
 * part-way undoes what it did for the claim before it reports the error. At start the MIG devices no checkpointed
 * claim uses are destroyed ({@link #started}).
 */
public final class NvidiaDriver implements DraDriver {
    /** What a published device name stands for. */
    private sealed interface Target {}

    /** A GPU or an existing MIG device: nothing to create. */
    private record Existing(String uuid, int minor) implements Target {}

    /** A MIG partition created on demand. */
    private record Partition(GpuInfo gpu, GpuInfo.MigProfile profile, int start) implements Target {}

    /** The full GPU of a partitionable GPU, which must leave MIG mode while it is prepared. */
    private record FullGpu(GpuInfo gpu) implements Target {}

    private final Map<String, Target> targets = new LinkedHashMap<>();
    private final NvidiaSmi smi;
    private final MigPartitions partitions;
    private final Consumer<String> log;

    /** The driver for statically published devices (existing MIG devices only). */
    public NvidiaDriver(List<GpuInfo> gpus, Consumer<String> log) {
        this(
                gpus,
                args -> {
                    throw new NvidiaSmiParser.DiscoveryException("nvidia-smi is not used without dynamic MIG");
                },
                false,
                log);
    }

    /** The driver for what {@link NvidiaDevices#of(List, boolean)} publishes with the same {@code dynamicMig}. */
    public NvidiaDriver(List<GpuInfo> gpus, NvidiaSmi smi, boolean dynamicMig, Consumer<String> log) {
        this.smi = smi;
        this.partitions = new MigPartitions(smi);
        this.log = log;
        for (GpuInfo g : gpus) {
            if (NvidiaDevices.dynamic(g, dynamicMig)) {
                if (NvidiaDevices.fullGpuWithMig(g)) {
                    targets.put("gpu-" + g.minor(), new FullGpu(g));
                }
                for (GpuInfo.MigProfile p : g.migProfiles()) {
                    for (int start : p.placementStarts()) {
                        targets.put(
                                NvidiaDevices.migName(g.minor(), p.name(), p.id(), start), new Partition(g, p, start));
                    }
                }
                continue;
            }
            targets.put("gpu-" + g.minor(), new Existing(g.uuid(), g.minor()));
            for (GpuInfo.MigInfo m : g.migDevices()) {
                targets.put(
                        NvidiaDevices.migName(g.minor(), m.profile(), m.giProfileId(), m.placementStart()),
                        new Existing(m.uuid() == null ? g.uuid() : m.uuid(), g.minor()));
            }
        }
    }

    /**
     * With dynamic MIG, destroys the MIG devices that exist on a partitionable GPU and that no checkpointed claim
     * uses (left by a crash, an earlier driver or an administrator), as NVIDIA's driver does at start, so that every
     * published placement can be prepared. A GPU that cannot be cleaned up is reported and left as it is: its
     * overlapping placements then fail to prepare with nvidia-smi's error.
     */
    @Override
    public void started(List<PreparedClaim> checkpointed) {
        Map<Integer, GpuInfo> dynamicGpus = new TreeMap<>();
        Map<Integer, Set<List<Integer>>> keep = new TreeMap<>();
        targets.values().forEach(t -> {
            if (t instanceof Partition p) {
                dynamicGpus.put(p.gpu().index(), p.gpu());
                keep.putIfAbsent(p.gpu().index(), new HashSet<>());
            }
        });
        for (PreparedClaim c : checkpointed) {
            for (PreparedDevice d : c.devices()) {
                Target t = targets.get(d.device());
                if (t instanceof Partition p) {
                    keep.get(p.gpu().index()).add(List.of(p.profile().id(), p.start()));
                } else if (t instanceof FullGpu f) {
                    // Prepared whole, out of MIG mode: it has no MIG devices to list.
                    dynamicGpus.remove(f.gpu().index());
                }
            }
        }
        for (GpuInfo g : dynamicGpus.values()) {
            try {
                for (String gone : partitions.destroyAllBut(g, keep.get(g.index()))) {
                    log.accept("destroyed the MIG device of " + gone + " on GPU " + g.index()
                            + ": no prepared claim uses it");
                }
            } catch (NvidiaSmiParser.DiscoveryException e) {
                handleError("cannot destroy the MIG devices no claim uses on GPU " + g.index(), e, true);
            }
        }
    }

    @Override
    public PrepareResult prepare(ResourceClaim claim, List<DeviceRequestAllocationResult> results) {
        List<PreparedDevice> out = new ArrayList<>();
        for (DeviceRequestAllocationResult r : results) {
            Target t = targets.get(r.getDevice());
            String error = null;
            String uuid = null;
            int minor = 0;
            if (t == null) {
                error = "device " + r.getDevice() + " is not a GPU of this node";
            } else {
                try {
                    if (t instanceof Existing e) {
                        uuid = e.uuid();
                        minor = e.minor();
                    } else if (t instanceof Partition p) {
                        uuid = partitions.ensure(p.gpu(), p.profile(), p.start());
                        minor = p.gpu().minor();
                    } else if (t instanceof FullGpu f) {
                        smi.check("-i", Integer.toString(f.gpu().index()), "-mig", "0");
                        uuid = f.gpu().uuid();
                        minor = f.gpu().minor();
                    }
                } catch (NvidiaSmiParser.DiscoveryException e) {
                    error = "device " + r.getDevice() + ": " + e.getMessage();
                }
            }
            if (error != null) {
                String undo = undo(out);
                return PrepareResult.failed(
                        undo == null ? error : error + "; undoing the claim's other devices: " + undo);
            }
            List<ContainerEdits.DeviceNode> nodes = List.of(
                    new ContainerEdits.DeviceNode("/dev/nvidia" + minor, null, "c", null),
                    new ContainerEdits.DeviceNode("/dev/nvidiactl", null, "c", null),
                    new ContainerEdits.DeviceNode("/dev/nvidia-uvm", null, "c", null),
                    new ContainerEdits.DeviceNode("/dev/nvidia-uvm-tools", null, "c", null));
            out.add(new PreparedDevice(
                    List.of(r.getRequest()),
                    r.getPool(),
                    r.getDevice(),
                    r.getShareID(),
                    new ContainerEdits(List.of("NVIDIA_VISIBLE_DEVICES=" + uuid), nodes, List.of())));
        }
        log.accept("prepared claim " + claim.getMetadata().getNamespace() + "/"
                + claim.getMetadata().getName());
        return PrepareResult.prepared(out);
    }

    @Override
    public String unprepare(PreparedClaim claim) {
        String error = undo(claim.devices());
        if (error == null) {
            log.accept("unprepared claim " + claim.claim());
        }
        return error;
    }

    /** Undoes what preparing {@code devices} did; null when all went, else the errors. */
    private String undo(List<PreparedDevice> devices) {
        List<String> errors = new ArrayList<>();
        for (PreparedDevice d : devices) {
            Target t = targets.get(d.device());
            try {
                if (t instanceof Partition p) {
                    partitions.destroy(p.gpu(), p.profile(), p.start());
                } else if (t instanceof FullGpu f) {
                    smi.check("-i", Integer.toString(f.gpu().index()), "-mig", "1");
                }
            } catch (NvidiaSmiParser.DiscoveryException e) {
                errors.add("device " + d.device() + ": " + e.getMessage());
            }
        }
        return errors.isEmpty() ? null : String.join("; ", errors);
    }

    @Override
    public void handleError(String message, Throwable cause, boolean recoverable) {
        log.accept(
                (recoverable ? "warning: " : "error: ") + message + (cause == null ? "" : ": " + cause.getMessage()));
    }
}
