package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class ExplainCommandTest {
    @TempDir
    Path dir;

    private static CliRuns.Run run(String... args) {
        return CliRuns.run(args);
    }

    private Path scenario(String name, int count) throws IOException {
        return CliRuns.scenario(dir, name, count);
    }

    @Test
    void textPutsTheDecisiveReasonAndAVerifiedFixFirst() throws IOException {
        CliRuns.Run r = run("explain", scenario("too-many", 2).toString());
        assertThat(r.status()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("too-many: unschedulable");
        assertThat(lines.get(1))
                .isEqualTo(
                        "  why: claim train, request gpus: 2 device(s) requested, only 1 in usable pools on node node-1");
        assertThat(lines.get(2))
                .isEqualTo("  would fit: claim train, request gpus: at most 1 device(s) fit, ask for 1 instead of 2");
    }

    @Test
    void jsonFollowsTheDocumentedSchema() throws IOException {
        CliRuns.Run r = run(
                "explain",
                "-o",
                "json",
                scenario("too-many", 2).toString(),
                scenario("fits", 1).toString());
        assertThat(r.status()).isZero();
        List<JsonNode> lines = r.jsonLines();
        assertThat(lines).hasSize(2);
        JsonNode first = lines.get(0);
        assertThat(first.get("scenario").asString()).isEqualTo("too-many");
        assertThat(first.get("outcome").asString()).isEqualTo("unschedulable");
        JsonNode request = first.get("claims").get(0).get("requests").get(0);
        assertThat(request.get("request").asString()).isEqualTo("gpus");
        assertThat(request.get("requested").asInt()).isEqualTo(2);
        assertThat(request.get("funnel").get(0).get("stage").asString()).isEqualTo("devices in usable pools");
        assertThat(request.get("funnel").get(0).get("remaining").asInt()).isEqualTo(1);
        assertThat(first.get("suggestions").get(0).get("change").asString()).isEqualTo("SetCount");
        JsonNode second = lines.get(1);
        assertThat(second.get("outcome").asString()).isEqualTo("allocated");
        assertThat(second.get("suggestions")).isEmpty();
        assertThat(second.get("claims")
                        .get(0)
                        .get("requests")
                        .get(0)
                        .get("chosen")
                        .get(0)
                        .asString())
                .startsWith("gpu.example.com/node-1/gpu-0: candidate 1 of 1");
    }

    @Test
    void unreadableFileIsReportedAndTheOthersStillRun() throws IOException {
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "name: [unclosed");
        CliRuns.Run r = run(
                "explain", "-o", "json", broken.toString(), scenario("fits", 1).toString());
        assertThat(r.status()).isEqualTo(1);
        List<JsonNode> lines = r.jsonLines();
        assertThat(lines.get(0).get("outcome").asString()).isEqualTo("error");
        assertThat(lines.get(0).get("error").asString()).contains("broken.yaml");
        assertThat(lines.get(1).get("outcome").asString()).isEqualTo("allocated");
    }
}
