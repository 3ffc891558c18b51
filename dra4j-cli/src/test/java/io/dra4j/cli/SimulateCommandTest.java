package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SimulateCommandTest {
    private static final String SNAPSHOT = """
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: small, namespace: ns}
            spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: huge, namespace: ns}
            spec: {containers: [{name: c, resources: {requests: {cpu: "64"}}}]}
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: settings, namespace: ns}
            """;

    @Test
    void withoutArgumentsItSimulatesTheBundledFleet() {
        CliRuns.Run run = CliRuns.run("simulate");

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .startsWith("12 nodes, ")
                .contains(
                        "Pending:",
                        "why (DRA):",
                        "Placed:",
                        "Devices allocated per device class:",
                        "mig.nvidia.com",
                        "with admin access",
                        "ResourceQuota usage per namespace",
                        "h100.deviceclass.resource.k8s.io/devices");
    }

    @Test
    void jsonHasTheSummaryAndOnePodEntryEach(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, SNAPSHOT);

        CliRuns.Run run = CliRuns.run("simulate", "--output", "json", "--events", file.toString());

        assertThat(run.status()).isZero();
        assertThat(run.err()).contains("skipped 1 object(s) of kinds the simulator does not use: ConfigMap");
        JsonNode root = JsonMapper.builder().build().readTree(run.out());
        assertThat(root.path("summary").path("placed").asLong()).isEqualTo(1);
        assertThat(root.path("summary").path("pending").asLong()).isEqualTo(1);
        assertThat(root.path("pods").size()).isEqualTo(2);
        JsonNode huge = root.path("pods").get(1);
        assertThat(huge.path("name").asString()).isEqualTo("huge");
        assertThat(huge.path("node").isNull()).isTrue();
        assertThat(huge.path("reason").asString())
                .isEqualTo("0/1 nodes are available: 1 Insufficient cpu. preemption: "
                        + "0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
        assertThat(root.path("pods").get(0).path("node").asString()).isEqualTo("n1");
        assertThat(root.path("events").size()).isEqualTo(2);
    }

    @Test
    void theWrittenStateSimulatesAgainWithoutChanges(@TempDir Path dir) throws IOException {
        Path state = dir.resolve("state.yaml");

        CliRuns.Run first = CliRuns.run("simulate", "--output-state", state.toString());
        CliRuns.Run second = CliRuns.run("simulate", "--output", "json", state.toString());

        assertThat(first.status()).isZero();
        assertThat(second.status()).isZero();
        JsonNode root = JsonMapper.builder().build().readTree(second.out());
        assertThat(root.path("summary").path("placed").asLong()).isZero();
        String firstLine = first.out().lines().findFirst().orElseThrow();
        long placedBefore = Long.parseLong(firstLine.replaceAll(".*: (\\d+) placed.*", "$1"));
        long boundBefore = Long.parseLong(firstLine.replaceAll(".* (\\d+) bound before.*", "$1"));
        assertThat(root.path("summary").path("boundBefore").asLong()).isEqualTo(placedBefore + boundBefore);
    }

    @Test
    void invalidObjectsAreReportedWithFileDocumentAndFieldAndTheRestIsSimulated(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, SNAPSHOT.replace("cpu: \"64\"", "cpu: lots"));

        CliRuns.Run run = CliRuns.run("simulate", file.toString());

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err())
                .contains(file + ": document 3, line 14, column 59 (Pod ns/huge): "
                        + "spec.containers[0].resources.requests.cpu: "
                        + "quantity \"lots\" cannot be parsed");
        assertThat(run.out()).startsWith("1 nodes, 1 pods: 1 placed, 0 pending");
    }
}
