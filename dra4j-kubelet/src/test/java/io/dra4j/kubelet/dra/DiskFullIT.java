package io.dra4j.kubelet.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dra4j.kubelet.TestClaims;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk under the checkpoint, for real: the plugin's data directory is a 256 KiB tmpfs, filled up until the
 * kernel answers ENOSPC. Mounting needs root (CAP_SYS_ADMIN); elsewhere the test is skipped with the reason.
 */
class DiskFullIT {
    static final String DRIVER = "test.dra4j.io";
    static final String NODE = "node-a";

    @TempDir
    Path tmp;

    Path mount;

    @BeforeEach
    void mountSmallTmpfs() throws Exception {
        mount = Files.createDirectories(tmp.resolve("kubelet/plugins/" + DRIVER));
        Process p = new ProcessBuilder(
                        "mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "dra4j-disk-full", mount.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean mounted = p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        if (!mounted) {
            mount = null;
        }
        assumeTrue(mounted, "cannot mount a small tmpfs here (needs root): " + out.trim());
    }

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            new ProcessBuilder("umount", mount.toString()).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Writes into {@code file} until the file system is full. */
    private static void fill(Path file) throws IOException {
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(block);
                out.flush();
            }
        } catch (IOException e) {
            assertThat(e.getMessage()).contains("No space left on device");
        }
    }

    @Test
    void aFullDiskFailsThePrepareWithAClearErrorAndKeepsTheOldCheckpoint() throws Exception {
        Path root = tmp.resolve("kubelet");
        Files.createDirectories(root.resolve("plugins_registry"));
        DraPluginOptions o = DraPluginOptions.defaults(DRIVER, NODE, root).withCdiDirectory(tmp.resolve("cdi"));
        Map<String, ResourceClaim> store = Map.of(
                "ns/a",
                        TestClaims.allocated(
                                "ns", "a", "ua", NODE, List.of(TestClaims.result("gpu", DRIVER, NODE, "dev-0"))),
                "ns/b",
                        TestClaims.allocated(
                                "ns", "b", "ub", NODE, List.of(TestClaims.result("gpu", DRIVER, NODE, "dev-1"))));
        RecordingDriver driver = new RecordingDriver(Set.of("dev-0", "dev-1"));
        try (DraPlugin plugin = DraPlugin.start(driver, (ns, n) -> store.get(ns + "/" + n), o)) {
            assertThat(plugin.prepare(List.of(new ClaimRef("ns", "a", "ua")))
                            .get("ua")
                            .error())
                    .isEmpty();
            byte[] before = Files.readAllBytes(o.checkpointFile());
            Path filler = mount.resolve("filler");
            fill(filler);

            String error = plugin.prepare(List.of(new ClaimRef("ns", "b", "ub")))
                    .get("ub")
                    .error();
            assertThat(error)
                    .isEqualTo("claim ns/b: cannot write checkpoint " + o.checkpointFile()
                            + ": No space left on device; the previous checkpoint is kept");
            assertThat(Files.readAllBytes(o.checkpointFile())).isEqualTo(before);
            assertThat(driver.calls).containsExactly("prepare a");
            // Unprepare cannot record its change either: it fails the same way and a is still prepared.
            assertThat(plugin.unprepare(List.of(new ClaimRef("ns", "a", "ua"))).get("ua"))
                    .startsWith("claim ns/a (uid ua): cannot write checkpoint");
            assertThat(plugin.preparedClaims()).extracting(c -> c.claim().uid()).containsExactly("ua");
            try (var leftovers = Files.list(mount)) {
                assertThat(leftovers.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".checkpoint-"));
            }

            // Space again: the kubelet's retry succeeds.
            Files.delete(filler);
            assertThat(plugin.prepare(List.of(new ClaimRef("ns", "b", "ub")))
                            .get("ub")
                            .error())
                    .isEmpty();
            assertThat(plugin.unprepare(List.of(new ClaimRef("ns", "a", "ua"))).get("ua"))
                    .isEmpty();
            assertThat(plugin.preparedClaims()).extracting(c -> c.claim().uid()).containsExactly("ub");
        }
    }
}
