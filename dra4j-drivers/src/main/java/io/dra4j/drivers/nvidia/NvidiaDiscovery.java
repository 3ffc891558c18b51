package io.dra4j.drivers.nvidia;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Runs nvidia-smi (or reads recorded outputs of it) and parses what it prints. */
public final class NvidiaDiscovery {
    private NvidiaDiscovery() {}

    /**
     * Discovery by running {@code nvidia-smi -q -x}, {@code -L} and, when a GPU has MIG enabled, {@code mig -lgi};
     * with {@code dynamicMig} also {@code mig -lgip} and {@code mig -lgipp} for the profiles MIG-enabled GPUs offer.
     */
    public static List<GpuInfo> run(NvidiaSmi smi, boolean dynamicMig) throws IOException {
        String xml = smi.check("-q", "-x");
        String listing = smi.check("-L");
        boolean mig = xml.contains("<current_mig>Enabled</current_mig>");
        String lgi = mig ? MigPartitions.listGpuInstances(smi, List.of("mig", "-lgi")) : "";
        String lgip = mig && dynamicMig ? smi.check("mig", "-lgip") : "";
        String lgipp = mig && dynamicMig ? smi.check("mig", "-lgipp") : "";
        return new NvidiaSmiParser().parse("nvidia-smi -q -x", xml, listing, lgi, lgip, lgipp);
    }

    /** Discovery from recorded outputs; {@code listing} and {@code lgi} may be null. */
    public static List<GpuInfo> recorded(Path xml, Path listing, Path lgi) throws IOException {
        return recorded(xml, listing, lgi, null, null);
    }

    /** Discovery from recorded outputs, with the MIG profiles of {@code lgip} and {@code lgipp} (may be null). */
    public static List<GpuInfo> recorded(Path xml, Path listing, Path lgi, Path lgip, Path lgipp) throws IOException {
        return new NvidiaSmiParser()
                .parse(xml.toString(), Files.readString(xml), read(listing), read(lgi), read(lgip), read(lgipp));
    }

    private static String read(Path file) throws IOException {
        return file == null ? "" : Files.readString(file);
    }
}
