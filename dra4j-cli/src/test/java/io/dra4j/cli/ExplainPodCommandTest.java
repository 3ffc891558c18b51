package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ExplainPodCommandTest {
    /** A pod of the bundled fleet that stays pending: its MIG partition's counters are used up everywhere. */
    private static final String PENDING = "research/mig-medium-tnpgp";

    @Test
    void explainsAPendingPodOfTheBundledFleetDecisiveReasonFirst() {
        CliRuns.Run run = CliRuns.run("explain", "pod", PENDING);

        assertThat(run.status()).as(run.err()).isZero();
        String[] lines = run.out().split("\n");
        assertThat(lines[0]).isEqualTo("Pod research/mig-medium-tnpgp (Job research/mig-medium): pending");
        assertThat(lines[1]).startsWith("  why: ");
        assertThat(lines[2]).startsWith("  scheduler: 0/12 nodes are available: ");
        assertThat(run.out()).contains("12 node(s), closest first:");
    }

    @Test
    void jsonHoldsEveryNodeOnceAndNameWithNamespaceOption() {
        CliRuns.Run run = CliRuns.run("explain", "pod", "mig-medium-tnpgp", "-n", "research", "-o", "json");

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode root = JsonMapper.builder().build().readTree(run.out());
        assertThat(root.get("kind").asString()).isEqualTo("Pod");
        assertThat(root.get("status").asString()).isEqualTo("pending");
        int nodes = 0;
        for (JsonNode g : root.get("groups")) {
            nodes += g.get("nodes").size();
            assertThat(g.get("count").asInt()).isEqualTo(g.get("nodes").size());
        }
        assertThat(nodes).isEqualTo(root.get("nodeCount").asInt()).isEqualTo(12);
    }

    @Test
    void aPlacedPodSaysWhere() {
        CliRuns.Run run = CliRuns.run("explain", "pod", "ml-train/full-node-finetune", "-o", "json");

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode root = JsonMapper.builder().build().readTree(run.out());
        assertThat(root.get("status").asString()).isEqualTo("placed");
        assertThat(root.get("node").asString()).isNotEmpty();
    }

    @Test
    void anUnknownPodIsAOneLineError() {
        CliRuns.Run run = CliRuns.run("explain", "pod", "research/nope");

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err())
                .startsWith("dra4j: pod research/nope not found in the snapshot (in namespace research: ")
                .doesNotContain("Exception");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void badUsage(@TempDir Path dir) {
        assertThat(CliRuns.run("explain", "pod", "a/b/c").status()).isEqualTo(2);
        assertThat(CliRuns.run("explain", "pod", "x", "--context", "c").status())
                .isEqualTo(2);
    }

    @Test
    void explainFileStillExplainsScenarios(@TempDir Path dir) throws Exception {
        CliRuns.Run run =
                CliRuns.run("explain", CliRuns.scenario(dir, "one-gpu", 2).toString());

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("one-gpu: unschedulable");
    }

    @Test
    void explainsAClaimOfTheBundledFleet() {
        CliRuns.Run run = CliRuns.run("explain", "claim", "ml-train/warmup-0-gpus-x7k2p", "-o", "json");

        assertThat(run.status()).as(run.err()).isZero();
        JsonNode root = JsonMapper.builder().build().readTree(run.out());
        assertThat(root.get("kind").asString()).isEqualTo("ResourceClaim");
    }
}
