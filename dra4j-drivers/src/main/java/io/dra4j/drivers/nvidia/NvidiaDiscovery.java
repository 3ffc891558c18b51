package io.dra4j.drivers.nvidia;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs nvidia-smi (or reads recorded outputs of it) and parses what it prints. */
public final class NvidiaDiscovery {
    private NvidiaDiscovery() {
    }

    /** Discovery by running {@code nvidiaSmi -q -x}, {@code -L} and, when a GPU has MIG enabled, {@code mig -lgi}. */
    public static List<GpuInfo> run(String nvidiaSmi) throws IOException {
        String xml = exec(nvidiaSmi, "-q", "-x");
        String listing = exec(nvidiaSmi, "-L");
        String lgi = xml.contains("<current_mig>Enabled</current_mig>") ? exec(nvidiaSmi, "mig", "-lgi") : "";
        return new NvidiaSmiParser().parse(nvidiaSmi + " -q -x", xml, listing, lgi);
    }

    /** Discovery from recorded outputs; {@code listing} and {@code lgi} may be null. */
    public static List<GpuInfo> recorded(Path xml, Path listing, Path lgi) throws IOException {
        return new NvidiaSmiParser().parse(xml.toString(), Files.readString(xml),
                listing == null ? "" : Files.readString(listing), lgi == null ? "" : Files.readString(lgi));
    }

    private static String exec(String command, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(command);
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new NvidiaSmiParser.DiscoveryException("cannot run " + String.join(" ", cmd) + ": " + e.getMessage());
        }
        byte[] out = p.getInputStream().readAllBytes();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new NvidiaSmiParser.DiscoveryException(String.join(" ", cmd) + " did not finish within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NvidiaSmiParser.DiscoveryException("interrupted while running " + String.join(" ", cmd));
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new NvidiaSmiParser.DiscoveryException(String.join(" ", cmd) + " exited with " + p.exitValue() + ": "
                    + text.strip());
        }
        return text;
    }
}
