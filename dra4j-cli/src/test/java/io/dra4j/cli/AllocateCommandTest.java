package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class AllocateCommandTest {
    @TempDir
    Path dir;

    private static CliRuns.Run run(String... args) {
        return CliRuns.run(args);
    }

    private Path scenario(String name, int count) throws IOException {
        return CliRuns.scenario(dir, name, count);
    }

    @Test
    void jsonLinesForTwoFilesInArgumentOrder() throws IOException {
        Path fits = scenario("fits", 1);
        Path tooMany = scenario("too-many", 2);

        CliRuns.Run r = run("allocate", "--output", "json", tooMany.toString(), fits.toString());

        assertThat(r.status()).isZero();
        assertThat(r.err()).isEmpty();
        List<JsonNode> lines = r.jsonLines();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).toString()).isEqualTo("{\"scenario\":\"too-many\",\"outcome\":\"unschedulable\"}");
        assertThat(lines.get(1).get("scenario").stringValue()).isEqualTo("fits");
        assertThat(lines.get(1).get("outcome").stringValue()).isEqualTo("allocated");
        JsonNode allocation = lines.get(1).get("allocations").get(0);
        assertThat(allocation.get("claim").stringValue()).isEqualTo("train");
        assertThat(allocation.get("results").toString())
                .isEqualTo(
                        "[{\"request\":\"gpus\",\"driver\":\"gpu.example.com\",\"pool\":\"node-1\",\"device\":\"gpu-0\"}]");
        assertThat(allocation.get("nodeSelector").toString())
                .isEqualTo(
                        "{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"node-1\"]}]}]}");
    }

    @Test
    void unreadableFileIsAnErrorOutcomeAndTheOthersStillRun() throws IOException {
        Path missing = dir.resolve("missing.yaml");
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "name: broken\nnode: [\n");
        Path fits = scenario("fits", 1);

        CliRuns.Run r = run("allocate", "-o", "json", missing.toString(), broken.toString(), fits.toString());

        assertThat(r.status()).isEqualTo(1);
        List<JsonNode> lines = r.jsonLines();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0).get("scenario").stringValue()).isEqualTo("missing");
        assertThat(lines.get(0).get("outcome").stringValue()).isEqualTo("error");
        assertThat(lines.get(0).get("error").stringValue())
                .contains(missing.toString())
                .contains("no such file");
        assertThat(lines.get(1).get("scenario").stringValue()).isEqualTo("broken");
        assertThat(lines.get(1).get("error").stringValue())
                .contains(broken.toString())
                .contains("malformed YAML at line");
        assertThat(lines.get(2).get("outcome").stringValue()).isEqualTo("allocated");
    }

    @Test
    void badUsageIsStatusTwo() throws IOException {
        Path fits = scenario("fits", 1);
        CliRuns.Run badFormat = run("allocate", "--output", "xml", fits.toString());
        assertThat(badFormat.status()).isEqualTo(2);
        assertThat(badFormat.out()).isEmpty();
        assertThat(badFormat.err()).contains("--output").contains("xml").contains("dra4j allocate --help");

        CliRuns.Run badVersion = run("allocate", "--kubernetes-version", "1.29", fits.toString());
        assertThat(badVersion.status()).isEqualTo(2);
        assertThat(badVersion.err()).contains("1.29").contains("1.34, 1.35, 1.36, 1.37");

        assertThat(run("allocate").status()).as("no file").isEqualTo(2);
        assertThat(run("allocate", "--frobnicate", fits.toString()).status()).isEqualTo(2);
        assertThat(run("reticulate").status()).isEqualTo(2);
        assertThat(run().status()).as("no command").isEqualTo(2);
    }

    @Test
    void textIsTheDefaultOutput() throws IOException {
        CliRuns.Run r = run(
                "allocate",
                scenario("fits", 1).toString(),
                scenario("too-many", 2).toString());
        assertThat(r.status()).isZero();
        assertThat(r.out()).isEqualTo("""
                fits: allocated
                  claim train on metadata.name in (node-1)
                    gpus -> gpu.example.com/node-1/gpu-0
                too-many: unschedulable
                  why: claim train, request gpus: 2 device(s) requested, only 1 in usable pools on node node-1
                """);
    }

    @Test
    void yamlOutput() throws IOException {
        CliRuns.Run r = run("allocate", "--output=yaml", scenario("too-many", 2).toString());
        assertThat(r.status()).isZero();
        assertThat(r.out()).isEqualTo("---\nscenario: too-many\noutcome: unschedulable\n");
    }

    @Test
    void kubernetesVersionAcceptsSupportedReleases() throws IOException {
        Path fits = scenario("fits", 1);
        for (String v : List.of("1.34", "1.35", "1.36", "1.37", "v1.37.2")) {
            assertThat(run("allocate", "--kubernetes-version", v, "-o", "json", fits.toString())
                            .status())
                    .as(v)
                    .isZero();
        }
    }

    @Test
    void helpDescribesTheCommand() {
        CliRuns.Run top = run("--help");
        assertThat(top.status()).isZero();
        assertThat(top.out()).contains("allocate");
        CliRuns.Run allocate = run("allocate", "--help");
        assertThat(allocate.status()).isZero();
        assertThat(allocate.out())
                .contains("--output")
                .contains("--kubernetes-version")
                .contains("Exit status");
    }
}
