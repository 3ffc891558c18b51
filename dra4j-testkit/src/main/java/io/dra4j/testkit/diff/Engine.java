package io.dra4j.testkit.diff;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** One allocator under comparison: runs a scenario and answers with its outcome line as JSON. */
@FunctionalInterface
interface Engine {
    /** The outcome in the shape of {@code dra4j allocate --output json}; never throws for a bad scenario. */
    JsonNode run(ObjectNode scenario);
}
