package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class GangCommandTest {
    /** Two nodes of two GPUs; Job big wants 3 pods of 2 GPUs (one too many), Job small 1 pod of 2 GPUs. */
    private static final String FLEET = """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: gpu}
            spec:
              selectors:
              - cel: {expression: 'device.driver == "gpu.example.com"'}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: two, namespace: ml}
            spec:
              spec:
                devices:
                  requests:
                  - name: gpus
                    exactly: {deviceClassName: gpu, count: 2}
            %s
            ---
            apiVersion: batch/v1
            kind: Job
            metadata: {name: big, namespace: ml, creationTimestamp: "2026-01-01T00:00:00Z"}
            spec:
              parallelism: 3
              template:
                spec:
                  restartPolicy: Never
                  containers: [{name: main, image: t, resources: {requests: {cpu: "1"}}}]
                  resourceClaims: [{name: gpus, resourceClaimTemplateName: two}]
            ---
            apiVersion: batch/v1
            kind: Job
            metadata: {name: small, namespace: ml, creationTimestamp: "2026-01-01T01:00:00Z"}
            spec:
              template:
                spec:
                  restartPolicy: Never
                  containers: [{name: main, image: t, resources: {requests: {cpu: "1"}}}]
                  resourceClaims: [{name: gpus, resourceClaimTemplateName: two}]
            """;

    private static final String NODE = """
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: %1$s, labels: {kubernetes.io/hostname: %1$s}}
            status:
              allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: %1$s-gpus}
            spec:
              driver: gpu.example.com
              nodeName: %1$s
              pool: {name: %1$s, generation: 1, resourceSliceCount: 1}
              devices: [{name: gpu-0}, {name: gpu-1}]
            """;

    private static Path fleet(Path dir) throws IOException {
        Path f = dir.resolve("fleet.yaml");
        Files.writeString(f, FLEET.formatted(NODE.formatted("n1") + NODE.formatted("n2")));
        return f;
    }

    @Test
    void aJobMarkedAsAGangIsPlacedAllOrNothingInTextAndJson(@TempDir Path dir) throws IOException {
        Path f = fleet(dir);

        CliRuns.Run loose = CliRuns.run("simulate", "-o", "json", f.toString());
        assertThat(loose.status()).as(loose.err()).isZero();
        JsonNode l = JsonMapper.builder().build().readTree(loose.out());
        assertThat(l.at("/summary/placed").asInt()).isEqualTo(2);
        assertThat(l.get("gangs")).isEmpty();

        CliRuns.Run text = CliRuns.run("simulate", "--gang", "batch.kubernetes.io/job-name", f.toString());
        assertThat(text.status()).as(text.err()).isZero();
        assertThat(text.out())
                .contains(
                        "Gangs (placed all or nothing):",
                        "gang ml/batch.kubernetes.io/job-name=big: pending: 2 of the 3 members needed fitted, 1 missing; "
                                + "0 of 3 placed",
                        "    minCount (3) cannot be satisfied: 2 scheduled, 0 remaining",
                        "gang ml/batch.kubernetes.io/job-name=small: fits: 1 of 1 members placed (minCount 1)");

        CliRuns.Run json =
                CliRuns.run("simulate", "--gang", "batch.kubernetes.io/job-name", "-o", "json", f.toString());
        JsonNode root = JsonMapper.builder().build().readTree(json.out());
        assertThat(root.at("/summary/placed").asInt()).isEqualTo(1);
        JsonNode big = root.get("gangs").get(0);
        assertThat(big.get("fits").asBoolean()).isFalse();
        assertThat(big.get("fitted").asInt()).isEqualTo(2);
        assertThat(big.get("missing").asInt()).isEqualTo(1);
        assertThat(big.get("members")).hasSize(3);
        assertThat(big.get("firstUnfit").asString())
                .isEqualTo(big.get("members").get(2).asString());
        assertThat(big.get("unfitReason").asString())
                .startsWith("0/2 nodes are available: 2 cannot allocate all claims.");
    }

    @Test
    void explainPodOnAGangMemberNamesTheGangAndItsFirstMemberThatDidNotFit(@TempDir Path dir) throws IOException {
        Path f = fleet(dir);
        JsonNode sim = JsonMapper.builder()
                .build()
                .readTree(CliRuns.run("simulate", "--gang", "batch.kubernetes.io/job-name", "-o", "json", f.toString())
                        .out());
        String member = sim.get("gangs").get(0).get("members").get(0).asString();

        CliRuns.Run loose = CliRuns.run("explain", "pod", member, "-o", "json", "--snapshot", f.toString());
        assertThat(loose.status()).as(loose.err()).isZero();
        assertThat(JsonMapper.builder()
                        .build()
                        .readTree(loose.out())
                        .get("status")
                        .asString())
                .isEqualTo("placed");

        CliRuns.Run x = CliRuns.run(
                "explain", "pod", member, "--gang", "batch.kubernetes.io/job-name", "--snapshot", f.toString());
        assertThat(x.status()).as(x.err()).isZero();
        assertThat(x.out())
                .contains(
                        ": pending",
                        "  why: gang ml/batch.kubernetes.io/job-name=big does not fit",
                        "first member that did not fit: "
                                + sim.get("gangs").get(0).get("members").get(2).asString(),
                        "  gang: gang ml/batch.kubernetes.io/job-name=big: pending: 2 of the 3 members needed fitted");
    }

    @Test
    void aGangMarkThatDoesNotParseIsBadUsage(@TempDir Path dir) throws IOException {
        CliRuns.Run run =
                CliRuns.run("simulate", "--gang", "team in (a", fleet(dir).toString());

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--gang team in (a: ").doesNotContain("Exception");
    }
}
