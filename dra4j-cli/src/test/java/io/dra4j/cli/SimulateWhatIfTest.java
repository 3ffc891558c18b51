package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** simulate's what-if questions on the bundled fleet, each answer re-derived from plain simulations. */
class SimulateWhatIfTest {
    private static JsonNode json(String... args) {
        CliRuns.Run run = CliRuns.run(args);
        assertThat(run.status()).as(run.err()).isZero();
        return JsonMapper.builder().build().readTree(run.out());
    }

    private static List<String> pending(JsonNode root) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : root.get("pods")) {
            if (p.get("node") == null || p.get("node").isNull()) {
                if (!p.path("reason").asString().isEmpty()) {
                    out.add(p.get("namespace").asString() + "/" + p.get("name").asString());
                }
            }
        }
        return out;
    }

    @Test
    void addNodesReportsThePendingCountsOfBothRuns() {
        JsonNode plain = json("simulate", "-o", "json");
        JsonNode added = json("simulate", "-o", "json", "--add-nodes", "a100-01=1");

        JsonNode w = added.get("whatIf");
        assertThat(w.get("newNodes").get(0).asString()).isEqualTo("a100-01-new-1");
        assertThat(w.get("pendingBefore").asLong())
                .isEqualTo(plain.get("summary").get("pending").asLong());
        assertThat(w.get("pendingAfter").asLong())
                .isEqualTo(added.get("summary").get("pending").asLong())
                .isLessThan(w.get("pendingBefore").asLong());
        long onNew = 0;
        for (JsonNode p : added.get("pods")) {
            onNew += p.path("node").asString("").equals("a100-01-new-1") ? 1 : 0;
        }
        assertThat(w.get("placedOnNewNodes").asLong()).isEqualTo(onNew);
    }

    @Test
    void findMinIsTheSmallestCountThatPlacesEveryTarget() {
        JsonNode min = json("simulate", "-o", "json", "--find-min", "a100-01", "--for", "job-name=mig-medium")
                .get("whatIf");
        int count = min.get("count").asInt();
        assertThat(count).isPositive();
        List<String> targets = new ArrayList<>();
        min.get("targets").forEach(t -> targets.add(t.asString()));
        assertThat(targets).isNotEmpty().allSatisfy(t -> assertThat(t).startsWith("research/mig-medium-"));

        assertThat(pending(json("simulate", "-o", "json", "--add-nodes", "a100-01=" + count)))
                .doesNotContainAnyElementsOf(targets);
        assertThat(pending(json("simulate", "-o", "json", "--add-nodes", "a100-01=" + (count - 1))))
                .containsAnyElementsOf(targets);
    }

    @Test
    void drainSaysWhetherTheEvictedPodsFit() {
        JsonNode w = json("simulate", "-o", "json", "--drain", "h100-01").get("whatIf");
        assertThat(w.get("fits").asBoolean()).isEqualTo(w.get("pending").isEmpty());
        assertThat(w.get("moved").size() + w.get("pending").size()).isPositive();
    }

    @Test
    void badWhatIfsAreUsageErrors() {
        CliRuns.Run noCount = CliRuns.run("simulate", "--add-nodes", "a100-01");
        assertThat(noCount.status()).isEqualTo(2);
        assertThat(noCount.err()).contains("--add-nodes wants TEMPLATE=N with N >= 0, got a100-01");
        CliRuns.Run unknown = CliRuns.run("simulate", "--find-min", "no-such-node");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("node no-such-node is not in the snapshot (12 nodes)");
        assertThat(CliRuns.run("simulate", "--for", "a=b").status()).isEqualTo(2);
        assertThat(CliRuns.run("simulate", "--drain", "h100-01", "--find-min", "a100-01")
                        .status())
                .isEqualTo(2);
    }
}
