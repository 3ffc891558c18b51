package io.dra4j.drivers.nvidia;

import io.dra4j.kubelet.dra.DeviceHealth;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The NVIDIA driver's health checks: each {@link #check} reads the ECC counters ({@link NvidiaHealth#ECC_QUERY})
 * and the kernel log, and keeps the {@link NvidiaHealth#evaluate} result of every GPU, with its taints dated when
 * the GPU was first seen tainted (a stable date leaves the slice unchanged). A GPU's health and taints apply to its
 * MIG devices too ({@code gpu-<minor>-...}). XIDs stay in the kernel log, so an XID keeps its GPU unhealthy until
 * the log is rotated, as NVIDIA's driver keeps a GPU unhealthy until it restarts. Thread-safe: checks and readers
 * synchronise on the monitor.
 */
public final class NvidiaHealthMonitor {
    private final List<GpuInfo> gpus;
    private final NvidiaSmi smi;
    private final Callable<String> kernelLog;
    private final Clock clock;
    private final Map<String, Instant> taintedSince = new HashMap<>();
    private List<NvidiaHealth.GpuHealth> current = List.of();
    private Instant checkedAt;

    /** @param kernelLog the kernel log's text (XID lines); return "" where it cannot be read */
    public NvidiaHealthMonitor(List<GpuInfo> gpus, NvidiaSmi smi, Callable<String> kernelLog, Clock clock) {
        this.gpus = List.copyOf(gpus);
        this.smi = smi;
        this.kernelLog = kernelLog;
        this.clock = clock;
    }

    /** Runs the checks; true when a GPU's health, message or taints changed (the slices need publishing). */
    public synchronized boolean check() throws IOException {
        List<NvidiaHealth.Ecc> ecc = NvidiaHealth.parseEcc(smi.check(NvidiaHealth.ECC_QUERY.toArray(String[]::new)));
        List<NvidiaHealth.Xid> xids;
        try {
            xids = NvidiaHealth.parseXids(kernelLog.call());
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot read the kernel log for XIDs: " + e.getMessage(), e);
        }
        Instant now = clock.instant();
        List<NvidiaHealth.GpuHealth> next = new ArrayList<>();
        for (GpuInfo g : gpus) {
            String name = "gpu-" + g.minor();
            NvidiaHealth.GpuHealth h = NvidiaHealth.evaluate(
                            List.of(g), ecc, xids, taintedSince.getOrDefault(name, now))
                    .get(0);
            if (h.taints().isEmpty()) {
                taintedSince.remove(name);
            } else {
                taintedSince.putIfAbsent(name, now);
            }
            next.add(h);
        }
        boolean changed = !next.equals(current);
        current = List.copyOf(next);
        checkedAt = now;
        return changed;
    }

    /** The complete health report of {@code devices} (the published ones) in pool {@code pool}. */
    public synchronized List<DeviceHealth> report(String pool, List<Device> devices) {
        List<DeviceHealth> out = new ArrayList<>();
        for (Device d : devices) {
            NvidiaHealth.GpuHealth h = of(d.getName());
            if (h == null || checkedAt == null) {
                out.add(new DeviceHealth(pool, d.getName(), DeviceHealth.Status.UNKNOWN, clock.instant(), null, ""));
            } else {
                out.add(new DeviceHealth(pool, d.getName(), h.status(), checkedAt, null, h.message()));
            }
        }
        return out;
    }

    /**
     * The health of {@code device} (a GPU {@code gpu-<minor>} or one of its MIG devices) at the last check;
     * {@link DeviceHealth.Status#UNKNOWN} before the first check or for a device of no GPU.
     */
    public synchronized DeviceHealth.Status status(String device) {
        NvidiaHealth.GpuHealth h = of(device);
        return h == null || checkedAt == null ? DeviceHealth.Status.UNKNOWN : h.status();
    }

    /** {@code devices} with the taints of their GPU added. */
    public synchronized List<Device> taint(List<Device> devices) {
        return devices.stream()
                .map(d -> {
                    NvidiaHealth.GpuHealth h = of(d.getName());
                    return h == null || h.taints().isEmpty()
                            ? d
                            : new DeviceBuilder(d).addAllToTaints(h.taints()).build();
                })
                .toList();
    }

    private NvidiaHealth.GpuHealth of(String device) {
        for (NvidiaHealth.GpuHealth h : current) {
            if (device.equals(h.device()) || device.startsWith(h.device() + "-")) {
                return h;
            }
        }
        return null;
    }
}
