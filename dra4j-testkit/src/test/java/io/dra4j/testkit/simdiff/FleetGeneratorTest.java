package io.dra4j.testkit.simdiff;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class FleetGeneratorTest {
    @Test
    void snapshotsAreDeterministicReadableByDra4jAndCoverTheFeatures() {
        Map<String, Integer> kinds = new TreeMap<>();
        int attempts = 0;
        int placed = 0;
        for (int i = 0; i < 15; i++) {
            ObjectNode s = FleetGenerator.generate(7, i);
            assertThat(s).isEqualTo(FleetGenerator.generate(7, i));
            for (JsonNode item : s.get("items")) {
                kinds.merge(item.get("kind").asString(), 1, Integer::sum);
            }
            for (ObjectNode a : Dra4jTrace.run(s, "gen-" + i).attempts()) {
                attempts++;
                if (!a.path("node").asString("").isEmpty()) {
                    placed++;
                }
            }
        }
        assertThat(kinds)
                .containsKeys(
                        "Node",
                        "Pod",
                        "ResourceSlice",
                        "DeviceClass",
                        "ResourceClaimTemplate",
                        "ResourceClaim",
                        "PriorityClass");
        assertThat(placed).isPositive().isLessThan(attempts);
    }
}
