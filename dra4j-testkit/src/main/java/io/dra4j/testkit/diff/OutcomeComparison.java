package io.dra4j.testkit.diff;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Compares the outcome lines of the two engines (the JSON Lines shape of {@code dra4j allocate --output json} and of
 * the oracle).
 *
 * <p>What counts: the outcome kind; for errors the message (surrounding whitespace ignored); for allocations,
 * per claim, the claim name, the results in order (request, driver, pool, device, adminAccess, tolerations,
 * bindingConditions, bindingFailureConditions, consumedCapacity by value, and whether a shareID is present, not its
 * random value), the nodeSelector (terms, requirements and values in any order) and the config. A field that is
 * absent compares equal to its empty value ({@code false}, {@code []}).
 *
 * <p>When upstream runs its "stable" variant, its pool order is Go map iteration order; the devices it picks, and the
 * pool or device an error names, are then not reproducible. For such scenarios only the outcome kind and the error
 * messages, with pool and device names blanked out, are compared.
 */
public final class OutcomeComparison {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int DETAIL_LIMIT = 400;
    /** {@code driver/pool} or {@code driver/pool/device} in an error message. */
    private static final Pattern DEVICE_OR_POOL = Pattern.compile("[A-Za-z0-9.-]+/[A-Za-z0-9.-]+(/[A-Za-z0-9.-]+)?");

    /** How two outcomes differ: {@code aspect} is a short fixed label (used to group divergences), {@code detail}
     * shows both sides. */
    public record Difference(String aspect, String detail) {}

    private OutcomeComparison() {}

    /**
     * @param upstream    the oracle's outcome line
     * @param dra4j       dra4j's outcome line
     * @param devicesFree true when the devices picked, and pools or devices named in errors, may legitimately differ
     *                    (upstream's stable variant)
     * @return the first difference, or empty when the outcomes agree
     */
    public static Optional<Difference> compare(JsonNode upstream, JsonNode dra4j, boolean devicesFree) {
        String kindU = upstream.path("outcome").asString("");
        String kindJ = dra4j.path("outcome").asString("");
        if (!kindU.equals(kindJ)) {
            return Optional.of(new Difference(
                    "outcome " + kindU + " vs " + kindJ,
                    "upstream " + summary(upstream) + " | dra4j " + summary(dra4j)));
        }
        if (kindU.equals("error")) {
            String errorU = upstream.path("error").asString("").strip();
            String errorJ = dra4j.path("error").asString("").strip();
            if (devicesFree) {
                errorU = DEVICE_OR_POOL.matcher(errorU).replaceAll("<pool-or-device>");
                errorJ = DEVICE_OR_POOL.matcher(errorJ).replaceAll("<pool-or-device>");
            }
            return errorU.equals(errorJ)
                    ? Optional.empty()
                    : Optional.of(new Difference("error message", "upstream: " + errorU + " | dra4j: " + errorJ));
        }
        if (!kindU.equals("allocated") || devicesFree) {
            return Optional.empty();
        }
        return compareAllocations(upstream.path("allocations"), dra4j.path("allocations"));
    }

    private static Optional<Difference> compareAllocations(JsonNode upstream, JsonNode dra4j) {
        if (upstream.size() != dra4j.size()) {
            return Optional.of(new Difference(
                    "number of allocations", "upstream " + upstream.size() + " | dra4j " + dra4j.size()));
        }
        for (int i = 0; i < upstream.size(); i++) {
            JsonNode u = upstream.get(i);
            JsonNode j = dra4j.get(i);
            String claim = u.path("claim").asString("");
            if (!claim.equals(j.path("claim").asString(""))) {
                return Optional.of(new Difference("claim name", "upstream " + claim + " | dra4j " + j.path("claim")));
            }
            ArrayNode resultsU = results(u.path("results"));
            ArrayNode resultsJ = results(j.path("results"));
            if (!resultsU.equals(resultsJ)) {
                String aspect = sorted(resultsU).equals(sorted(resultsJ)) ? "result order" : "results";
                return Optional.of(
                        new Difference(aspect, claim + ": upstream " + clip(resultsU) + " | dra4j " + clip(resultsJ)));
            }
            JsonNode selectorU = nodeSelector(u.get("nodeSelector"));
            JsonNode selectorJ = nodeSelector(j.get("nodeSelector"));
            if (!selectorU.equals(selectorJ)) {
                return Optional.of(new Difference(
                        "nodeSelector", claim + ": upstream " + clip(selectorU) + " | dra4j " + clip(selectorJ)));
            }
            JsonNode configU = pruned(u.path("config"));
            JsonNode configJ = pruned(j.path("config"));
            if (!configU.equals(configJ)) {
                return Optional.of(
                        new Difference("config", claim + ": upstream " + clip(configU) + " | dra4j " + clip(configJ)));
            }
        }
        return Optional.empty();
    }

    /** The results in a form where equal meaning means equal JSON. */
    static ArrayNode results(JsonNode results) {
        ArrayNode out = NODES.arrayNode();
        for (JsonNode r : results) {
            ObjectNode c = out.addObject();
            for (String field : List.of("request", "driver", "pool", "device")) {
                c.put(field, r.path(field).asString(""));
            }
            c.put("adminAccess", r.path("adminAccess").asBoolean(false));
            for (String field : List.of("tolerations", "bindingConditions", "bindingFailureConditions")) {
                c.set(field, pruned(r.path(field)));
            }
            c.put("shareID", !r.path("shareID").asString("").isEmpty());
            Map<String, String> consumed = new TreeMap<>();
            r.path("consumedCapacity")
                    .properties()
                    .forEach(e -> consumed.put(
                            e.getKey(), Quantities.canonicalValue(e.getValue().asString(""))));
            ObjectNode consumedNode = c.putObject("consumedCapacity");
            consumed.forEach(consumedNode::put);
        }
        return out;
    }

    /** Terms, requirements and values sorted; {@code null} for "every node". */
    static JsonNode nodeSelector(JsonNode selector) {
        if (selector == null || selector.isNull() || selector.isMissingNode()) {
            return NullNode.getInstance();
        }
        List<JsonNode> terms = new ArrayList<>();
        for (JsonNode term : selector.path("nodeSelectorTerms")) {
            ObjectNode t = NODES.objectNode();
            for (String kind : List.of("matchExpressions", "matchFields")) {
                List<JsonNode> requirements = new ArrayList<>();
                for (JsonNode r : term.path(kind)) {
                    ObjectNode req = NODES.objectNode();
                    req.put("key", r.path("key").asString(""));
                    req.put("operator", r.path("operator").asString(""));
                    List<String> values = new ArrayList<>();
                    r.path("values").forEach(v -> values.add(v.asString("")));
                    values.sort(Comparator.naturalOrder());
                    ArrayNode valuesNode = req.putArray("values");
                    values.forEach(valuesNode::add);
                    requirements.add(req);
                }
                if (!requirements.isEmpty()) {
                    t.set(kind, sorted(requirements));
                }
            }
            terms.add(t);
        }
        ObjectNode out = NODES.objectNode();
        out.set("nodeSelectorTerms", sorted(terms));
        return out;
    }

    /** A copy without null fields, empty strings and empty arrays or objects; a missing node becomes []. */
    static JsonNode pruned(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return NODES.arrayNode();
        }
        if (node.isObject()) {
            ObjectNode out = NODES.objectNode();
            node.properties().forEach(e -> {
                JsonNode v = e.getValue();
                if (!isEmpty(v)) {
                    out.set(e.getKey(), pruned(v));
                }
            });
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = NODES.arrayNode();
            node.forEach(v -> out.add(pruned(v)));
            return out;
        }
        return node;
    }

    private static boolean isEmpty(JsonNode v) {
        return v.isNull() || (v.isString() && v.asString().isEmpty()) || (v.isContainer() && v.isEmpty());
    }

    private static ArrayNode sorted(Iterable<JsonNode> nodes) {
        List<JsonNode> list = new ArrayList<>();
        nodes.forEach(list::add);
        list.sort(Comparator.comparing(JsonNode::toString));
        ArrayNode out = NODES.arrayNode();
        list.forEach(out::add);
        return out;
    }

    private static String summary(JsonNode outcome) {
        String kind = outcome.path("outcome").asString("?");
        return switch (kind) {
            case "error" -> "error: " + outcome.path("error").asString("").strip();
            case "allocated" -> "allocated " + clip(outcome.path("allocations"));
            default -> kind;
        };
    }

    private static String clip(JsonNode node) {
        String s = node.toString();
        return s.length() <= DETAIL_LIMIT ? s : s.substring(0, DETAIL_LIMIT) + "...";
    }
}
