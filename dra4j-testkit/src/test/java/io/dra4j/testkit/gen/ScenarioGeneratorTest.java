package io.dra4j.testkit.gen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ScenarioGeneratorTest {
    private static final Set<String> KNOWN_GATES = java.util.stream.Stream.concat(
                    ScenarioBuilder.GATES.stream(), ScenarioBuilder.LATE_GATES.stream())
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    @Test
    void sameSeedAndIndexGiveTheSameScenario() {
        for (int i = 0; i < 50; i++) {
            assertThat(ScenarioGenerator.toJsonLine(ScenarioGenerator.generate(42, i)))
                    .isEqualTo(ScenarioGenerator.toJsonLine(ScenarioGenerator.generate(42, i)));
        }
    }

    @Test
    void differentSeedsAndIndexesGiveDifferentScenarios() {
        Set<String> bodies = new HashSet<>();
        for (long seed = 1; seed <= 4; seed++) {
            for (int i = 0; i < 25; i++) {
                ObjectNode s = ScenarioGenerator.generate(seed, i);
                assertThat(s.path("name").asString()).isEqualTo("gen-" + seed + "-" + i);
                s.remove("name");
                s.remove("source");
                bodies.add(ScenarioGenerator.toJsonLine(s));
            }
        }
        assertThat(bodies).hasSize(100);
    }

    @Test
    void scenariosAreSmallAndWellFormed() {
        for (int i = 0; i < 500; i++) {
            ObjectNode s = ScenarioGenerator.generate(7, i);
            int devices = 0;
            Set<String> sliceNames = new HashSet<>();
            for (JsonNode slice : s.path("resourceSlices")) {
                assertThat(slice.path("apiVersion").asString()).isEqualTo("resource.k8s.io/v1");
                sliceNames.add(slice.path("metadata").path("name").asString());
                JsonNode spec = slice.path("spec");
                long placements = List.of("nodeName", "nodeSelector", "allNodes", "perDeviceNodeSelection").stream()
                        .filter(spec::has)
                        .count();
                assertThat(placements)
                        .as("node selection fields of %s", s.path("name"))
                        .isEqualTo(1);
                assertThat(spec.has("devices") && spec.has("sharedCounters")).isFalse();
                if (slice.path("spec").path("driver").asString("").equals("driver-bulk")) {
                    assertThat(slice.path("spec").path("devices").size()).isBetween(28, 36);
                } else if (!slice.path("spec")
                        .path("devices")
                        .path(0)
                        .path("name")
                        .asString("")
                        .equals("device-stale")) {
                    devices += slice.path("spec").path("devices").size();
                }
            }
            // A duplicated slice repeats its devices; every generated device is still within the bound.
            assertThat(devices).isLessThanOrEqualTo(2 * ScenarioGenerator.MAX_DEVICES);
            assertThat(s.path("claims").size()).isBetween(1, 3);
            for (JsonNode gate : s.path("features")) {
                assertThat(KNOWN_GATES).contains(gate.asString());
            }
            for (JsonNode claim : s.path("claims")) {
                for (JsonNode request : claim.path("spec").path("devices").path("requests")) {
                    if (request.has("exactly")) {
                        assertExplicitMode(request.path("exactly"));
                    }
                    for (JsonNode sub : request.path("firstAvailable")) {
                        assertExplicitMode(sub);
                    }
                }
            }
            assertThat(s.path("expect").path("unschedulable").asBoolean()).isTrue();
        }
    }

    @Test
    void theFeatureMixCoversEveryFeature() {
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            all.append(ScenarioGenerator.toJsonLine(ScenarioGenerator.generate(3, i)));
        }
        String text = all.toString();
        for (String field : List.of(
                "\"allocationMode\":\"All\"",
                "\"firstAvailable\"",
                "\"adminAccess\"",
                "\"matchAttribute\"",
                "\"distinctAttribute\"",
                "\"taints\"",
                "\"tolerations\"",
                "\"sharedCounters\"",
                "\"consumesCounters\"",
                "\"allowMultipleAllocations\"",
                "\"validRange\"",
                "\"validValues\"",
                "\"bindingConditions\"",
                "\"bindsToNode\"",
                "\"perDeviceNodeSelection\"",
                "\"allNodes\"",
                "\"nodeSelector\"",
                "\"strings\"",
                "\"ints\"",
                "\"version\"",
                "\"shareID\"",
                "\"shared\":true",
                "\"status\"",
                "\"generation\":2",
                "\"config\"",
                "\"capacity\":{\"requests\"")) {
            assertThat(text).as("some scenario has %s", field).contains(field);
        }
    }

    /**
     * Some scenarios hold one claim over the 32-results limit, in each shape: a request over it, requests adding up
     * over it, a firstAvailable alternative over it (by itself or with the next request), All over a large block, and
     * a firstAvailable request over it by itself whose fallback asks for more size-2 devices than the block has, so
     * that the claim is unschedulable.
     */
    @Test
    void someClaimsAskForMoreThan32Results() {
        Set<String> shapes = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            ObjectNode s = ScenarioGenerator.generate(5, i);
            JsonNode claim = s.path("claims").path(0);
            if (!claim.path("metadata").path("name").asString("").equals("claim-bulk")) {
                continue;
            }
            assertThat(s.path("claims").size()).isEqualTo(1);
            int block = 0;
            int sizeTwo = 0;
            int withoutSize = 0;
            for (JsonNode slice : s.path("resourceSlices")) {
                if (slice.path("spec").path("driver").asString("").equals("driver-bulk")) {
                    block += slice.path("spec").path("devices").size();
                    for (JsonNode device : slice.path("spec").path("devices")) {
                        JsonNode size = device.path("attributes").path("size");
                        withoutSize += size.isMissingNode() ? 1 : 0;
                        sizeTwo += size.path("int").asLong(0) == 2 ? 1 : 0;
                    }
                }
            }
            JsonNode requests = claim.path("spec").path("devices").path("requests");
            JsonNode first = requests.path(0);
            long askedAtMost = 0;
            for (JsonNode request : requests) {
                long most = request.path("exactly").path("count").asLong(0);
                for (JsonNode alternative : request.path("firstAvailable")) {
                    most = Math.max(most, alternative.path("count").asLong());
                }
                askedAtMost += most;
            }
            if (first.path("exactly").path("allocationMode").asString("").equals("All")) {
                shapes.add("All");
                assertThat(block).isGreaterThan(32);
            } else if (first.has("firstAvailable") && requests.size() == 1) {
                shapes.add("firstAvailable fallback short of devices");
                JsonNode fallback = first.path("firstAvailable").path(1);
                assertThat(first.path("firstAvailable").path(0).path("count").asLong())
                        .isGreaterThan(32);
                assertThat(fallback.path("selectors")
                                .path(0)
                                .path("cel")
                                .path("expression")
                                .asString(""))
                        .isEqualTo("device.attributes[\"driver-bulk\"].size == 2");
                assertThat(fallback.path("count").asLong()).isGreaterThan(sizeTwo);
                assertThat(withoutSize).isZero();
            } else if (first.has("firstAvailable")) {
                long preferred =
                        first.path("firstAvailable").path(0).path("count").asLong();
                long fallback =
                        first.path("firstAvailable").path(1).path("count").asLong();
                long rest = requests.path(1).path("exactly").path("count").asLong();
                shapes.add(preferred > 32 ? "firstAvailable over by itself" : "firstAvailable over with the next");
                assertThat(preferred + rest).isGreaterThan(32);
                assertThat(fallback + rest).isLessThanOrEqualTo(Math.min(32, block));
            } else {
                shapes.add(requests.size() == 1 ? "one request over" : "requests adding up over");
                assertThat(askedAtMost).isGreaterThan(32);
            }
        }
        assertThat(shapes)
                .containsExactlyInAnyOrder(
                        "All",
                        "firstAvailable over by itself",
                        "firstAvailable over with the next",
                        "firstAvailable fallback short of devices",
                        "one request over",
                        "requests adding up over");
    }

    @Test
    void yamlAndJsonHoldTheSameScenario() {
        ObjectNode s = ScenarioGenerator.generate(11, 3);
        String yaml = ScenarioGenerator.toYaml(s);
        JsonNode back =
                tools.jackson.dataformat.yaml.YAMLMapper.builder().build().readTree(yaml);
        assertThat(ScenarioGenerator.toJsonLine((ObjectNode) back)).isEqualTo(ScenarioGenerator.toJsonLine(s));
        assertThat(ScenarioGenerator.toJsonLine(s)).doesNotContain("\n");
    }

    private static void assertExplicitMode(JsonNode request) {
        String mode = request.path("allocationMode").asString();
        assertThat(mode).isIn("All", "ExactCount");
        if (mode.equals("ExactCount")) {
            assertThat(request.path("count").asLong()).isPositive();
        }
    }
}
