package io.dra4j.kubelet.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.kubelet.UnixSocketChannel;
import io.dra4j.kubelet.internal.Checkpoint;
import io.dra4j.kubelet.proto.dra.v1.Claim;
import io.dra4j.kubelet.proto.dra.v1.DRAPluginGrpc;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourceResponse;
import io.dra4j.kubelet.proto.dra.v1.NodePrepareResourcesRequest;
import io.dra4j.kubelet.proto.dra.v1.NodeUnprepareResourcesRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver killed with SIGKILL in the middle of a prepare and started again: a driver process of its own
 * ({@link ChildDriverMain}) journals its side effects; the test acts as the kubelet over the Unix socket. Nothing is
 * lost (the claim prepared before the kill is still prepared, with the same answer) and nothing is prepared twice
 * (the interrupted prepare is rolled back before it is redone).
 */
class DriverKillIT {
    @TempDir
    Path tmp;

    private Process start(Path root, Path journal, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                ChildDriverMain.class.getName(),
                root.toString(),
                tmp.resolve("cdi").toString(),
                journal.toString()));
        command.addAll(List.of(extra));
        command.addAll(List.of("ns/c1/uid-1/dev-0", "ns/c2/uid-2/dev-1"));
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).as("the driver process starts").startsWith("ready ");
        return p;
    }

    private static Claim claim(String name, String uid) {
        return Claim.newBuilder().setNamespace("ns").setName(name).setUid(uid).build();
    }

    private static Map<String, NodePrepareResourceResponse> prepare(Path socket, Claim... claims) {
        try (UnixSocketChannel ch = UnixSocketChannel.dial(socket)) {
            return DRAPluginGrpc.newBlockingStub(ch.channel())
                    .withDeadlineAfter(45, TimeUnit.SECONDS)
                    .nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
                            .addAllClaims(List.of(claims))
                            .build())
                    .getClaimsMap();
        }
    }

    private static List<String> journal(Path journal) throws IOException {
        return Files.exists(journal) ? Files.readAllLines(journal) : List.of();
    }

    @Test
    void aDriverKilledMidPrepareLosesNothingAndPreparesNothingTwice() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        Path socket = root.resolve("plugins/kill.dra4j.io/dra.sock");
        Path journal = tmp.resolve("journal");
        Claim c1 = claim("c1", "uid-1");
        Claim c2 = claim("c2", "uid-2");

        Process first = start(root, journal, "--hang-on", "c2");
        NodePrepareResourceResponse c1Answer;
        try {
            c1Answer = prepare(socket, c1).get("uid-1");
            assertThat(c1Answer.getError()).isEmpty();
            CompletableFuture<Map<String, NodePrepareResourceResponse>> inFlight =
                    CompletableFuture.supplyAsync(() -> prepare(socket, c2));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!journal(journal).contains("prepare-start c2") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(journal(journal)).contains("prepare-start c2");
            first.destroyForcibly();
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(first.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
            assertThatThrownBy(inFlight::join).hasMessageContaining("UNAVAILABLE");
        } finally {
            first.destroyForcibly();
        }
        // What the kill left: c1 prepared, c2 started and not completed.
        Checkpoint.Data left = new Checkpoint(socket.resolveSibling("checkpoint.json")).load();
        assertThat(left.claims())
                .extracting(e -> e.claim().name() + ":" + e.state())
                .containsExactlyInAnyOrder("c1:PrepareCompleted", "c2:PrepareStarted");

        Process second = start(root, journal);
        try {
            Map<String, NodePrepareResourceResponse> again = prepare(socket, c1, c2);
            assertThat(again.get("uid-1")).isEqualTo(c1Answer);
            assertThat(again.get("uid-2").getError()).isEmpty();
            assertThat(again.get("uid-2").getDevices(0).getDeviceName()).isEqualTo("dev-1");
            try (UnixSocketChannel ch = UnixSocketChannel.dial(socket)) {
                var unprepared = DRAPluginGrpc.newBlockingStub(ch.channel())
                        .withDeadlineAfter(45, TimeUnit.SECONDS)
                        .nodeUnprepareResources(NodeUnprepareResourcesRequest.newBuilder()
                                .addClaims(c1)
                                .addClaims(c2)
                                .build())
                        .getClaimsMap();
                assertThat(unprepared.get("uid-1").getError()).isEmpty();
                assertThat(unprepared.get("uid-2").getError()).isEmpty();
            }
        } finally {
            second.destroy();
            second.waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(journal(journal))
                .containsExactly(
                        "prepare-start c1",
                        "prepare-done c1",
                        "prepare-start c2",
                        "unprepare c2",
                        "prepare-start c2",
                        "prepare-done c2",
                        "unprepare c1",
                        "unprepare c2");
        assertThat(new Checkpoint(socket.resolveSibling("checkpoint.json"))
                        .load()
                        .claims())
                .isEmpty();
    }
}
