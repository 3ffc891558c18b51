package io.dra4j.testkit.simdiff;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The short form of {@code scripts/sim-untraced-check} that the build runs: generated snapshots with copies of pods
 * (whose shapes fail again, so the untraced run takes the repeated-failure shortcut) decide the same untraced and
 * traced.
 */
class UntracedCheckTest {
    private static String[] run(int expectedStatus, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = UntracedCheck.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(expectedStatus);
        return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void untracedRunsDecideAsTracedOnesOnSnapshotsWithCopiesOfPods() {
        String out = run(0, "3", "30", "--replicas", "some")[0];

        assertThat(out).endsWith("untraced-check: 30 snapshots, 0 differences\n");
    }

    @Test
    void copiesArePodsOfTheSameSpecAndLeaveTheOtherSnapshotsAsTheyWere() {
        int copies = 0;
        for (int i = 0; i < 10; i++) {
            var plain = FleetGenerator.generate(3, i, Set.of(), FleetGenerator.Gangs.SOME);
            var copied =
                    FleetGenerator.generate(3, i, Set.of(), FleetGenerator.Gangs.SOME, FleetGenerator.Replicas.SOME);
            var originals = new java.util.HashMap<String, JsonNode>();
            var kept = new java.util.ArrayList<JsonNode>();
            for (JsonNode item : copied.get("items")) {
                String name = item.path("metadata").path("name").asString("");
                if (name.contains("-copy-")) {
                    copies++;
                    assertThat(item.get("spec"))
                            .isEqualTo(originals
                                    .get(name.substring(0, name.indexOf("-copy-")))
                                    .get("spec"));
                } else {
                    originals.put(name, item);
                    kept.add(item);
                }
            }
            assertThat(kept).containsExactlyElementsOf(plain.get("items"));
        }
        assertThat(copies).isPositive();
    }

    @Test
    void badUsageIsExitStatusTwoWithTheReason() {
        assertThat(run(2, "1")[1]).startsWith("untraced-check: SEED and COUNT are required");
        assertThat(run(2, "1", "2", "--replicas", "many")[1])
                .startsWith("untraced-check: --replicas takes none or some, not many");
        assertThat(run(2, "1", "x")[1]).startsWith("untraced-check: SEED and COUNT must be numbers");
    }
}
