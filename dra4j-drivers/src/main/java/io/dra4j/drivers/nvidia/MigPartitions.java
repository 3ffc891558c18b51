package io.dra4j.drivers.nvidia;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Creates and destroys the MIG device of one GPU instance profile placement with nvidia-smi, as dynamic MIG prepares
 * and unprepares claims. Both are idempotent and keep no state of their own: the GPU instance of a placement is found
 * again by profile ID and start index in {@code nvidia-smi mig -lgi}, so a repeated prepare reuses the MIG device, an
 * interrupted one (a GPU instance without compute instance) is destroyed and created afresh, and an unprepare after a
 * restart destroys what the previous process created. A placement names its memory slices, so no two claims can
 * share one: the scheduler's counters keep allocated placements apart.
 */
final class MigPartitions {
    private final NvidiaSmi smi;

    MigPartitions(NvidiaSmi smi) {
        this.smi = smi;
    }

    /** The UUID of the MIG device of {@code profile} at {@code start} on {@code gpu}, created when missing. */
    String ensure(GpuInfo gpu, GpuInfo.MigProfile profile, int start) throws NvidiaSmiParser.DiscoveryException {
        String index = Integer.toString(gpu.index());
        NvidiaSmiParser.GpuInstance gi = find(gpu, profile, start);
        if (gi != null) {
            String uuid = uuid(gpu, gi.instanceId());
            if (uuid != null) {
                return uuid;
            }
            // A GPU instance without compute instance: a prepare interrupted between the two steps.
            destroyGpuInstance(index, gi.instanceId());
        }
        smi.check("mig", "-i", index, "-cgi", profile.id() + ":" + start, "-C");
        gi = find(gpu, profile, start);
        String uuid = gi == null ? null : uuid(gpu, gi.instanceId());
        if (uuid == null) {
            throw new NvidiaSmiParser.DiscoveryException("nvidia-smi created GPU instance profile " + profile.id()
                    + " at placement " + start + " on GPU " + index + ", but lists no MIG device for it");
        }
        return uuid;
    }

    /** Destroys the MIG device of {@code profile} at {@code start} on {@code gpu}; nothing to do when it is gone. */
    void destroy(GpuInfo gpu, GpuInfo.MigProfile profile, int start) throws NvidiaSmiParser.DiscoveryException {
        NvidiaSmiParser.GpuInstance gi = find(gpu, profile, start);
        if (gi != null) {
            destroyGpuInstance(Integer.toString(gpu.index()), gi.instanceId());
        }
    }

    /**
     * Destroys every GPU instance of {@code gpu} whose placement (profile ID, start) is not in {@code keep}, with its
     * compute instances; returns what went, as {@code profile <id> at placement <start> (GPU instance <gi>)}.
     */
    List<String> destroyAllBut(GpuInfo gpu, Set<List<Integer>> keep) throws NvidiaSmiParser.DiscoveryException {
        String index = Integer.toString(gpu.index());
        List<String> destroyed = new ArrayList<>();
        for (NvidiaSmiParser.GpuInstance gi :
                NvidiaSmiParser.gpuInstances(listGpuInstances(smi, List.of("mig", "-lgi", "-i", index)))) {
            if (gi.gpu() == gpu.index() && !keep.contains(List.of(gi.profileId(), gi.start()))) {
                destroyGpuInstance(index, gi.instanceId());
                destroyed.add("profile " + gi.profileId() + " at placement " + gi.start() + " (GPU instance "
                        + gi.instanceId() + ")");
            }
        }
        return destroyed;
    }

    /**
     * Compute instances go first (a GPU instance with one cannot be destroyed); a failure there is not final, since
     * the GPU instance may have none, so the GPU instance's destruction decides and reports both outputs.
     */
    private void destroyGpuInstance(String index, int gi) throws NvidiaSmiParser.DiscoveryException {
        NvidiaSmi.Output ci = run(List.of("mig", "-i", index, "-gi", Integer.toString(gi), "-dci"));
        NvidiaSmi.Output out = run(List.of("mig", "-i", index, "-dgi", "-gi", Integer.toString(gi)));
        if (!out.ok()) {
            throw new NvidiaSmiParser.DiscoveryException("nvidia-smi mig -i " + index + " -dgi -gi " + gi
                    + " exited with " + out.exitCode() + ": " + out.text().strip()
                    + (ci.ok() ? "" : " (after -dci: " + ci.text().strip() + ")"));
        }
    }

    private NvidiaSmiParser.GpuInstance find(GpuInfo gpu, GpuInfo.MigProfile profile, int start)
            throws NvidiaSmiParser.DiscoveryException {
        String lgi = listGpuInstances(smi, List.of("mig", "-lgi", "-i", Integer.toString(gpu.index())));
        for (NvidiaSmiParser.GpuInstance gi : NvidiaSmiParser.gpuInstances(lgi)) {
            if (gi.gpu() == gpu.index() && gi.profileId() == profile.id() && gi.start() == start) {
                return gi;
            }
        }
        return null;
    }

    /** The UUID of the MIG device in GPU instance {@code gi}, null when it has no compute instance. */
    private String uuid(GpuInfo gpu, int gi) throws NvidiaSmiParser.DiscoveryException {
        String xml = smi.check("-q", "-x");
        String listing = smi.check("-L");
        String lgi = listGpuInstances(smi, List.of("mig", "-lgi"));
        for (GpuInfo g : new NvidiaSmiParser().parse("nvidia-smi -q -x", xml, listing, lgi)) {
            if (g.index() != gpu.index()) {
                continue;
            }
            for (GpuInfo.MigInfo m : g.migDevices()) {
                if (m.gpuInstanceId() == gi && m.uuid() != null) {
                    return m.uuid();
                }
            }
        }
        return null;
    }

    /** {@code nvidia-smi mig -lgi ...}, empty for its "No GPU instances found" (which exits non-zero). */
    static String listGpuInstances(NvidiaSmi smi, List<String> args) throws NvidiaSmiParser.DiscoveryException {
        NvidiaSmi.Output out = run(smi, args);
        if (out.ok()) {
            return out.text();
        }
        if (out.text().contains("No GPU instances found")) {
            return "";
        }
        throw new NvidiaSmiParser.DiscoveryException("nvidia-smi " + String.join(" ", args) + " exited with "
                + out.exitCode() + ": " + out.text().strip());
    }

    private NvidiaSmi.Output run(List<String> args) throws NvidiaSmiParser.DiscoveryException {
        return run(smi, args);
    }

    private static NvidiaSmi.Output run(NvidiaSmi smi, List<String> args) throws NvidiaSmiParser.DiscoveryException {
        try {
            return smi.run(args);
        } catch (NvidiaSmiParser.DiscoveryException e) {
            throw e;
        } catch (IOException e) {
            throw new NvidiaSmiParser.DiscoveryException(
                    "cannot run nvidia-smi " + String.join(" ", args) + ": " + e.getMessage());
        }
    }
}
