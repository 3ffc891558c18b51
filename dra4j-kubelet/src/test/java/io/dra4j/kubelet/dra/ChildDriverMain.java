package io.dra4j.kubelet.dra;

import io.dra4j.kubelet.TestClaims;
import io.dra4j.kubelet.cdi.ContainerEdits;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A DRA driver process for {@link DriverKillIT}: serves the plugin under a kubelet root, with claims given on the
 * command line, and records every side effect on the "hardware" (prepare started, prepare done, unprepare) in a
 * journal file, fsynced, so that what a SIGKILL interrupted stays visible. Prepare of the claim named by
 * {@code --hang-on} never returns, to be killed in the middle.
 *
 * <p>Arguments: {@code ROOT CDI JOURNAL [--hang-on NAME] NS/NAME/UID/DEVICE...}
 */
public final class ChildDriverMain {
    private ChildDriverMain() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        Path cdi = Path.of(args[1]);
        Path journal = Path.of(args[2]);
        String hangOn = null;
        Map<String, ResourceClaim> claims = new HashMap<>();
        for (int i = 3; i < args.length; i++) {
            if (args[i].equals("--hang-on")) {
                hangOn = args[++i];
                continue;
            }
            String[] p = args[i].split("/");
            claims.put(
                    p[0] + "/" + p[1],
                    TestClaims.allocated(
                            p[0],
                            p[1],
                            p[2],
                            "node-a",
                            List.of(TestClaims.result("gpu", "kill.dra4j.io", "node-a", p[3]))));
        }
        String hang = hangOn;
        DraDriver driver = new DraDriver() {
            @Override
            public PrepareResult prepare(ResourceClaim claim, List<DeviceRequestAllocationResult> results) {
                String name = claim.getMetadata().getName();
                record(journal, "prepare-start " + name);
                if (name.equals(hang)) {
                    sleepForever();
                }
                List<PreparedDevice> out = new ArrayList<>();
                for (DeviceRequestAllocationResult r : results) {
                    out.add(new PreparedDevice(
                            List.of(r.getRequest()),
                            r.getPool(),
                            r.getDevice(),
                            null,
                            ContainerEdits.env(List.of("KILL_DEVICE=" + r.getDevice()))));
                }
                record(journal, "prepare-done " + name);
                return PrepareResult.prepared(out);
            }

            @Override
            public String unprepare(PreparedClaim claim) {
                record(journal, "unprepare " + claim.claim().name());
                return null;
            }
        };
        DraPluginOptions options =
                DraPluginOptions.defaults("kill.dra4j.io", "node-a", root).withCdiDirectory(cdi);
        try (DraPlugin plugin = DraPlugin.start(driver, (ns, n) -> claims.get(ns + "/" + n), options)) {
            System.out.println("ready " + plugin.options().draSocket());
            System.out.flush();
            sleepForever();
        }
    }

    private static void record(Path journal, String line) {
        try (FileChannel ch = FileChannel.open(
                journal, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleepForever() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
