package io.dra4j.drivers.nvidia;

import io.dra4j.kubelet.dra.DeviceHealth;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GPU health from what the driver stack reports, mapped to DRA device health and ResourceSlice device taints.
 * Two sources: XID errors, which the NVIDIA kernel driver logs as {@code NVRM: Xid (PCI:<domain>:<bus>:<dev>):
 * <code>, ...} (NVIDIA's XID errors documentation; NVIDIA's DRA driver receives the same events through NVML), and
 * the volatile uncorrectable ECC counter of {@code nvidia-smi --query-gpu} ({@link #ECC_QUERY}).
 *
 * <p>As NVIDIA's DRA driver (its {@code NVMLDeviceHealthCheck} gate): an XID in {@link #APPLICATION_XIDS} (errors an
 * application causes, NVIDIA's default ignore list) leaves the GPU healthy with an informational taint
 * {@code gpu.nvidia.com/xid=<code>:None}; any other XID makes it unhealthy with {@code gpu.nvidia.com/xid=<code>:
 * NoSchedule}. Uncorrectable ECC errors make it unhealthy with {@code gpu.nvidia.com/ecc=uncorrectable:NoSchedule}
 * (dra4j's key, in the same domain: NVIDIA's driver sees those errors as XIDs 48/63/64/94/95 and publishes no
 * separate key). A GPU with no XID and no uncorrectable error is healthy and untainted.
 */
public final class NvidiaHealth {
    public static final String XID_TAINT = "gpu.nvidia.com/xid";
    public static final String ECC_TAINT = "gpu.nvidia.com/ecc";
    /** XIDs NVIDIA's device plugin and DRA driver ignore by default: caused by the application, not the GPU. */
    public static final Set<Integer> APPLICATION_XIDS = Set.of(13, 31, 43, 45, 68, 109);
    /** Documented {@code --query-gpu} fields, one CSV line per GPU. */
    public static final List<String> ECC_QUERY = List.of(
            "--query-gpu=index,pci.bus_id,ecc.mode.current,ecc.errors.uncorrected.volatile.total",
            "--format=csv,noheader,nounits");

    private static final Pattern XID = Pattern.compile(
            "NVRM: Xid \\((?:PCI:)?([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2})[^)]*\\): (\\d+),?\\s*(.*)");

    private NvidiaHealth() {}

    /** One XID event of the kernel log. */
    public record Xid(String pciBusId, int code, String text) {}

    /** One GPU's line of {@link #ECC_QUERY}; {@code uncorrected} is -1 when nvidia-smi prints N/A (ECC off). */
    public record Ecc(int index, String pciBusId, boolean enabled, long uncorrected) {}

    /** What a GPU device is published and reported with. */
    public record GpuHealth(String device, DeviceHealth.Status status, String message, List<DeviceTaint> taints) {
        public GpuHealth {
            taints = List.copyOf(taints);
        }
    }

    /** The XID events of a kernel log ({@code dmesg}, {@code journalctl -k}); other lines are skipped. */
    public static List<Xid> parseXids(String kernelLog) {
        List<Xid> out = new ArrayList<>();
        for (String line : kernelLog.split("\n")) {
            Matcher m = XID.matcher(line);
            if (m.find()) {
                out.add(new Xid(
                        busKey(m.group(1)),
                        Integer.parseInt(m.group(2)),
                        m.group(3).strip()));
            }
        }
        return out;
    }

    /** The output of {@link #ECC_QUERY}; a line that is not four fields fails naming the line. */
    public static List<Ecc> parseEcc(String csv) throws NvidiaSmiParser.DiscoveryException {
        List<Ecc> out = new ArrayList<>();
        String[] lines = csv.strip().split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            String[] f = lines[i].split(",");
            if (f.length != 4) {
                throw new NvidiaSmiParser.DiscoveryException("nvidia-smi " + String.join(" ", ECC_QUERY) + ", line "
                        + (i + 1) + ": expected index, pci.bus_id, ecc.mode.current, "
                        + "ecc.errors.uncorrected.volatile.total, got: " + lines[i].strip());
            }
            try {
                String count = f[3].strip();
                out.add(new Ecc(
                        Integer.parseInt(f[0].strip()),
                        busKey(f[1].strip()),
                        f[2].strip().equalsIgnoreCase("Enabled"),
                        count.contains("N/A") ? -1 : Long.parseLong(count)));
            } catch (NumberFormatException e) {
                throw new NvidiaSmiParser.DiscoveryException("nvidia-smi " + String.join(" ", ECC_QUERY) + ", line "
                        + (i + 1) + ": not a number: " + lines[i].strip());
            }
        }
        return out;
    }

    /**
     * The health of each GPU ({@code gpu-<minor>}) from the XIDs and ECC counters seen; taints are dated
     * {@code since} (keep it stable while a GPU stays unhealthy, a new date rewrites the slice).
     */
    public static List<GpuHealth> evaluate(List<GpuInfo> gpus, List<Ecc> ecc, List<Xid> xids, Instant since) {
        String added = since.truncatedTo(ChronoUnit.SECONDS).toString();
        List<GpuHealth> out = new ArrayList<>();
        for (GpuInfo g : gpus) {
            String bus = busKey(g.pciBusId());
            // The last text of each code, in code order, so that a repeated XID is one taint.
            Map<Integer, String> codes = new TreeMap<>();
            xids.stream().filter(x -> x.pciBusId().equals(bus)).forEach(x -> codes.put(x.code(), x.text()));
            List<DeviceTaint> taints = new ArrayList<>();
            List<String> why = new ArrayList<>();
            boolean unhealthy = false;
            for (Map.Entry<Integer, String> x : codes.entrySet()) {
                boolean critical = !APPLICATION_XIDS.contains(x.getKey());
                unhealthy |= critical;
                taints.add(new DeviceTaintBuilder()
                        .withKey(XID_TAINT)
                        .withValue(String.valueOf(x.getKey()))
                        .withEffect(critical ? "NoSchedule" : "None")
                        .withTimeAdded(added)
                        .build());
                why.add("XID " + x.getKey() + (x.getValue().isEmpty() ? "" : ": " + x.getValue()));
            }
            long uncorrected = ecc.stream()
                    .filter(e -> e.pciBusId().equals(bus) && e.enabled())
                    .mapToLong(e -> Math.max(0, e.uncorrected()))
                    .sum();
            if (uncorrected > 0) {
                unhealthy = true;
                taints.add(new DeviceTaintBuilder()
                        .withKey(ECC_TAINT)
                        .withValue("uncorrectable")
                        .withEffect("NoSchedule")
                        .withTimeAdded(added)
                        .build());
                why.add(uncorrected + " uncorrectable ECC error(s) since the driver loaded");
            }
            out.add(new GpuHealth(
                    "gpu-" + g.minor(),
                    unhealthy ? DeviceHealth.Status.UNHEALTHY : DeviceHealth.Status.HEALTHY,
                    String.join("; ", why),
                    taints));
        }
        return out;
    }

    /**
     * A PCI address as {@code <domain>:<bus>:<device>}, lower case, with a 4-digit domain: nvidia-smi prints
     * {@code 00000000:18:00.0}, the kernel log {@code 0000:18:00}.
     */
    static String busKey(String address) {
        String a = address.toLowerCase(Locale.ROOT);
        int dot = a.indexOf('.');
        if (dot >= 0) {
            a = a.substring(0, dot);
        }
        String[] p = a.split(":");
        if (p.length != 3) {
            return a;
        }
        String domain = p[0].length() > 4 ? p[0].substring(p[0].length() - 4) : p[0];
        return domain + ":" + p[1] + ":" + p[2];
    }
}
