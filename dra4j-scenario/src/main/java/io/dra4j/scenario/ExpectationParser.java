package io.dra4j.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads an {@code expect} block. The expected allocations are kept as written (see {@link Expectation.Allocated});
 * only their shape is checked here, so that a misspelt key is an error rather than a silently ignored assertion.
 */
final class ExpectationParser {
    private static final Set<String> KEYS = Set.of("allocations", "unschedulable", "error", "resultOrderAsserted");
    private static final Set<String> ALLOCATION_KEYS = Set.of("claim", "results", "nodeSelector", "config");
    private static final Set<String> RESULT_KEYS = Set.of(
            "request",
            "driver",
            "pool",
            "device",
            "adminAccess",
            "tolerations",
            "bindingConditions",
            "bindingFailureConditions",
            "shareID",
            "consumedCapacity");

    private ExpectationParser() {}

    /**
     * @param where the location of the block, for messages ({@code expect})
     * @throws BadInput naming the offending key
     */
    @SuppressWarnings("unchecked")
    static Expectation parse(JsonNode node, String where) {
        if (!node.isObject()) {
            throw new BadInput(where, "want a mapping, found " + Json.describe(node));
        }
        unknownKeys(node, KEYS, where);
        int kinds =
                (node.has("allocations") ? 1 : 0) + (node.has("unschedulable") ? 1 : 0) + (node.has("error") ? 1 : 0);
        if (kinds != 1) {
            throw new BadInput(where, "want exactly one of allocations, unschedulable: true or error, found " + kinds);
        }
        if (node.has("error")) {
            String substring = Json.text(node.get("error"))
                    .orElseThrow(() -> new BadInput(
                            Where.field(where, "error"), "want a string, found " + Json.describe(node.get("error"))));
            return new Expectation.Error(substring);
        }
        if (node.has("unschedulable")) {
            if (!node.get("unschedulable").isBoolean()
                    || !node.get("unschedulable").booleanValue()) {
                throw new BadInput(
                        Where.field(where, "unschedulable"),
                        "want true, found " + Json.describe(node.get("unschedulable")));
            }
            return new Expectation.Unschedulable();
        }
        boolean ordered = false;
        if (node.has("resultOrderAsserted")) {
            JsonNode o = node.get("resultOrderAsserted");
            if (!o.isBoolean()) {
                throw new BadInput(
                        Where.field(where, "resultOrderAsserted"), "want a boolean, found " + Json.describe(o));
            }
            ordered = o.booleanValue();
        }
        String at = Where.field(where, "allocations");
        JsonNode allocations = node.get("allocations");
        if (!allocations.isArray()) {
            throw new BadInput(at, "want a list, found " + Json.describe(allocations));
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < allocations.size(); i++) {
            checkAllocation(allocations.get(i), Where.index(at, i));
            out.add((Map<String, Object>) Json.plain(allocations.get(i)));
        }
        return new Expectation.Allocated(out, ordered);
    }

    private static void checkAllocation(JsonNode a, String where) {
        if (!a.isObject()) {
            throw new BadInput(where, "want a mapping, found " + Json.describe(a));
        }
        unknownKeys(a, ALLOCATION_KEYS, where);
        if (Json.text(a.get("claim")).isEmpty()) {
            throw new BadInput(
                    Where.field(where, "claim"), "want the claim's name, found " + Json.describe(a.get("claim")));
        }
        JsonNode results = a.get("results");
        String at = Where.field(where, "results");
        if (results == null || !results.isArray()) {
            throw new BadInput(at, "want a list, found " + Json.describe(results));
        }
        for (int i = 0; i < results.size(); i++) {
            JsonNode r = results.get(i);
            if (!r.isObject()) {
                throw new BadInput(Where.index(at, i), "want a mapping, found " + Json.describe(r));
            }
            unknownKeys(r, RESULT_KEYS, Where.index(at, i));
        }
    }

    private static void unknownKeys(JsonNode node, Set<String> allowed, String where) {
        for (String key : node.propertyNames()) {
            if (!allowed.contains(key)) {
                throw new BadInput(
                        Where.field(where, key),
                        "unknown key \"" + key + "\" (known: "
                                + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }
}
