package io.dra4j.testkit.diff;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.testkit.gen.ScenarioGenerator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class ShrinkerTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The "divergence" of these tests: some slice has a device that has the attribute "model". */
    private static final Predicate<ObjectNode> HAS_MODEL = s -> {
        for (JsonNode slice : s.path("resourceSlices")) {
            for (JsonNode device : slice.path("spec").path("devices")) {
                if (device.path("attributes").has("model")) {
                    return true;
                }
            }
        }
        return false;
    };

    @Test
    void shrinksToTheSmallestScenarioThatKeepsTheDivergence() {
        ObjectNode original = generatedWith(HAS_MODEL);
        String before = ScenarioGenerator.toJsonLine(original);

        ObjectNode shrunk = Shrinker.shrink(original, HAS_MODEL, 10_000);

        assertThat(ScenarioGenerator.toJsonLine(original)).as("input untouched").isEqualTo(before);
        assertThat(HAS_MODEL.test(shrunk)).isTrue();
        assertThat(shrunk.path("resourceSlices").size()).isEqualTo(1);
        JsonNode devices = shrunk.path("resourceSlices").path(0).path("spec").path("devices");
        assertThat(devices.size()).isEqualTo(1);
        JsonNode device = devices.path(0);
        assertThat(device.path("attributes").propertyNames()).containsExactly("model");
        assertThat(device.propertyNames())
                .contains("name", "attributes")
                .isSubsetOf("name", "attributes", "nodeName", "nodeSelector", "allNodes");
        assertThat(shrunk.path("claims").size())
                .as("a scenario keeps one claim")
                .isEqualTo(1);
        assertThat(shrunk.path("features").size()).isZero();
        assertThat(shrunk.path("allocatedDevices").size()).isZero();
        // Identity fields stay.
        assertThat(shrunk.path("name").asString())
                .isEqualTo(original.path("name").asString());
        assertThat(shrunk.path("resourceSlices")
                        .path(0)
                        .path("spec")
                        .path("pool")
                        .has("name"))
                .isTrue();
    }

    @Test
    void removesNumbersFromListsAndLowersCounts() {
        ObjectNode scenario = (ObjectNode) JSON.readTree("""
                {"name": "x", "node": {"name": "node-1"},
                 "resourceSlices": [{"spec": {"pool": {"name": "p", "generation": 1, "resourceSliceCount": 3},
                   "devices": [{"name": "d", "attributes": {"ports": {"ints": [1, 2, 3]}}}]}}],
                 "claims": [{"spec": {"devices": {"requests": [{"name": "r",
                   "exactly": {"deviceClassName": "c", "allocationMode": "ExactCount", "count": 4}}]}}}]}""");
        ObjectNode shrunk = Shrinker.shrink(scenario, s -> s.toString().contains("2]"), 1000);
        assertThat(shrunk.path("resourceSlices")
                        .path(0)
                        .path("spec")
                        .path("devices")
                        .path(0)
                        .path("attributes")
                        .path("ports")
                        .path("ints")
                        .toString())
                .isEqualTo("[2]");
        assertThat(shrunk.path("resourceSlices")
                        .path(0)
                        .path("spec")
                        .path("pool")
                        .path("resourceSliceCount")
                        .asInt())
                .isEqualTo(1);
        assertThat(shrunk.path("claims")
                        .path(0)
                        .path("spec")
                        .path("devices")
                        .path("requests")
                        .path(0)
                        .path("exactly")
                        .path("count")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void lowersTheSliceCountOfAllSlicesOfAPoolTogether() {
        ObjectNode scenario = (ObjectNode) JSON.readTree("""
                {"name": "x", "node": {"name": "node-1"},
                 "resourceSlices": [
                   {"spec": {"driver": "d", "pool": {"name": "p", "generation": 1, "resourceSliceCount": 3}}},
                   {"spec": {"driver": "d", "pool": {"name": "p", "generation": 1, "resourceSliceCount": 3}}},
                   {"spec": {"driver": "d", "pool": {"name": "q", "generation": 1, "resourceSliceCount": 3}}}],
                 "claims": [{"spec": {"devices": {"requests": [{"name": "r"}]}}}]}""");
        // The "divergence": pool q keeps its three slices' worth of count, and there are three slices.
        ObjectNode shrunk = Shrinker.shrink(
                scenario,
                s -> s.path("resourceSlices").size() == 3
                        && s.path("resourceSlices")
                                        .path(2)
                                        .path("spec")
                                        .path("pool")
                                        .path("resourceSliceCount")
                                        .asInt()
                                == 3,
                1000);
        assertThat(shrunk.path("resourceSlices")
                        .path(0)
                        .path("spec")
                        .path("pool")
                        .path("resourceSliceCount")
                        .asInt())
                .isEqualTo(1);
        assertThat(shrunk.path("resourceSlices")
                        .path(1)
                        .path("spec")
                        .path("pool")
                        .path("resourceSliceCount")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void keepsEverythingWhenNothingCanGo() {
        ObjectNode original = ScenarioGenerator.generate(5, 1);
        ObjectNode shrunk = Shrinker.shrink(original, s -> s.equals(original), 10_000);
        assertThat(shrunk).isEqualTo(original);
    }

    @Test
    void stopsAfterMaxTries() {
        AtomicInteger calls = new AtomicInteger();
        Shrinker.shrink(
                generatedWith(HAS_MODEL),
                s -> {
                    calls.incrementAndGet();
                    return HAS_MODEL.test(s);
                },
                7);
        assertThat(calls.get()).isEqualTo(7);
    }

    @Test
    void neverOffersNamesKindsOrTheLastRequestOfAClaim() {
        ObjectNode scenario = ScenarioGenerator.generate(9, 4);
        for (List<Object> path : Shrinker.removable(scenario)) {
            Object last = path.get(path.size() - 1);
            assertThat(last)
                    .as(path.toString())
                    .isNotIn(
                            "name",
                            "apiVersion",
                            "kind",
                            "metadata",
                            "spec",
                            "driver",
                            "pool",
                            "deviceClassName",
                            "allocationMode",
                            "count",
                            "expression",
                            "node");
        }
        ObjectNode single = ScenarioGenerator.generate(9, 4);
        for (JsonNode claim : single.path("claims")) {
            ((ObjectNode) claim.path("spec").path("devices"))
                    .putArray("requests")
                    .addObject()
                    .put("name", "only");
        }
        assertThat(Shrinker.removable(single)).noneMatch(p -> p.size() == 6 && "requests".equals(p.get(4)));
    }

    private static ObjectNode generatedWith(Predicate<ObjectNode> property) {
        for (int i = 0; ; i++) {
            ObjectNode s = ScenarioGenerator.generate(1, i);
            if (property.test(s)
                    && s.path("resourceSlices").size() > 1
                    && s.path("claims").size() > 1) {
                return s;
            }
        }
    }
}
