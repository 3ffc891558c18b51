package io.dra4j.testkit.diff;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A scenario on which the engines disagree, with both outcomes and how they differ. */
record Divergence(ObjectNode scenario, JsonNode upstream, JsonNode dra4j, OutcomeComparison.Difference difference) {
    String name() {
        return scenario.path("name").asString("");
    }
}
