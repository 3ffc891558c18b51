package io.dra4j.testkit.diff;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * Per-feature coverage of a run: how many scenarios use each feature, read from the scenarios themselves (not from
 * the generator's intentions), so that a feature the generator never produces shows up as a 0 in difftest's output.
 */
final class Coverage {

    /** Features listed even when no scenario uses them, so that blind spots are visible. */
    private static final List<String> ALWAYS_LISTED = List.of(
            "deviceTaintRules",
            "deviceTaintRule without selector",
            "taint effect None",
            "requestPolicy validRange",
            "pool on several nodes",
            "share without consumedCapacity",
            "bools in constraint attribute",
            "versions in constraint attribute",
            "more than 32 results",
            "more than 32 results, upstream unschedulable",
            "negative capacity request",
            "no gates",
            "gate DRADeviceTaintRules",
            "gate DRAFractionalCapacityRange",
            "gate DRAOptionalNodeOperations");

    private Coverage() {}

    /**
     * Feature name to number of scenarios that have it. A claim over 32 results is also counted by upstream's outcome
     * of its scenario ({@code upstream} in the same order as the scenarios), so that a shape the generator never brings
     * to that outcome shows up as well.
     */
    static Map<String, Integer> of(List<? extends JsonNode> scenarios, List<? extends JsonNode> upstream) {
        Map<String, Integer> counts = new TreeMap<>();
        ALWAYS_LISTED.forEach(f -> counts.put(f, 0));
        for (int i = 0; i < scenarios.size(); i++) {
            Set<String> seen = new HashSet<>();
            features(scenarios.get(i), seen);
            if (seen.contains("more than 32 results")) {
                seen.add("more than 32 results, upstream "
                        + upstream.get(i).path("outcome").asString("?"));
            }
            seen.forEach(f -> counts.merge(f, 1, Integer::sum));
        }
        return counts;
    }

    /**
     * The most results a claim can ask for: per request its count, the largest count of its firstAvailable
     * alternatives, or for allocation mode All every device of the scenario. Upstream never allocates more than 32
     * results, so the claims past 32 are read from the scenario, not from upstream's allocations.
     */
    private static long resultsAskedFor(JsonNode claim, long allDevices) {
        long total = 0;
        for (JsonNode request : claim.path("spec").path("devices").path("requests")) {
            long most = 0;
            List<JsonNode> alternatives = new ArrayList<>();
            request.path("firstAvailable").forEach(alternatives::add);
            if (request.has("exactly")) {
                alternatives.add(request.path("exactly"));
            }
            for (JsonNode alternative : alternatives) {
                long asked = "All".equals(alternative.path("allocationMode").asString(""))
                        ? allDevices
                        : alternative.path("count").asLong(1);
                most = Math.max(most, asked);
            }
            total += most;
        }
        return total;
    }

    private static void features(JsonNode scenario, Set<String> seen) {
        JsonNode gates = scenario.path("features");
        if (gates.isEmpty()) {
            seen.add("no gates");
        }
        gates.forEach(g -> seen.add("gate " + g.asString()));
        for (JsonNode rule : scenario.path("deviceTaintRules")) {
            seen.add("deviceTaintRules");
            JsonNode selector = rule.path("spec").path("deviceSelector");
            if (selector.isMissingNode() || selector.isNull()) {
                seen.add("deviceTaintRule without selector");
            } else {
                selector.propertyNames().forEach(f -> seen.add("deviceTaintRule selector " + f));
            }
            taint(rule.path("spec").path("taint"), seen);
        }
        Map<String, Set<String>> poolNodes = new HashMap<>();
        Set<String> listAttributeNames = new HashSet<>();
        for (JsonNode slice : scenario.path("resourceSlices")) {
            JsonNode spec = slice.path("spec");
            String pool = spec.path("driver").asString("") + "/"
                    + spec.path("pool").path("name").asString("");
            poolNodes
                    .computeIfAbsent(pool, p -> new HashSet<>())
                    .add(spec.path("nodeName").asString(spec.path("allNodes").asBoolean(false) ? "*all" : "*selector"));
            if (spec.path("sharedCounters").size() > 0) {
                seen.add("sharedCounters");
            }
            for (JsonNode device : spec.path("devices")) {
                if (device.path("allowMultipleAllocations").asBoolean(false)) {
                    seen.add("allowMultipleAllocations");
                }
                if (device.path("consumesCounters").size() > 0) {
                    seen.add("consumesCounters");
                }
                if (device.path("bindingConditions").size() > 0) {
                    seen.add("bindingConditions");
                }
                device.path("taints").forEach(t -> taint(t, seen));
                for (Map.Entry<String, JsonNode> capacity :
                        device.path("capacity").properties()) {
                    JsonNode policy = capacity.getValue().path("requestPolicy");
                    if (!policy.isMissingNode()) {
                        seen.add(policy.has("validRange") ? "requestPolicy validRange" : "requestPolicy");
                    }
                }
                for (Map.Entry<String, JsonNode> attribute :
                        device.path("attributes").properties()) {
                    for (String list : List.of("ints", "bools", "strings", "versions")) {
                        if (attribute.getValue().has(list)) {
                            seen.add("list attribute " + list);
                            listAttributeNames.add(list + ":" + attribute.getKey());
                        }
                    }
                }
            }
        }
        if (poolNodes.values().stream().anyMatch(nodes -> nodes.size() > 1)) {
            seen.add("pool on several nodes");
        }
        long allDevices = 0;
        for (JsonNode slice : scenario.path("resourceSlices")) {
            allDevices += slice.path("spec").path("devices").size();
        }
        for (JsonNode claim : scenario.path("claims")) {
            if (resultsAskedFor(claim, allDevices) > 32) {
                seen.add("more than 32 results");
            }
            JsonNode devices = claim.path("spec").path("devices");
            for (JsonNode request : devices.path("requests")) {
                JsonNode exactly = request.path("exactly");
                if (request.has("firstAvailable")) {
                    seen.add("firstAvailable");
                }
                if (exactly.path("adminAccess").asBoolean(false)) {
                    seen.add("adminAccess");
                }
                if ("All".equals(exactly.path("allocationMode").asString(""))) {
                    seen.add("allocationMode All");
                }
                if (exactly.path("tolerations").size() > 0) {
                    seen.add("tolerations");
                }
                if (exactly.path("selectors").size() > 0) {
                    seen.add("CEL selectors");
                }
                for (Map.Entry<String, JsonNode> r :
                        exactly.path("capacity").path("requests").properties()) {
                    seen.add("capacity requests");
                    if (r.getValue().asString("").startsWith("-")) {
                        seen.add("negative capacity request");
                    }
                }
            }
            for (JsonNode constraint : devices.path("constraints")) {
                for (String kind : List.of("matchAttribute", "distinctAttribute")) {
                    if (constraint.has(kind)) {
                        seen.add("constraint " + kind);
                        String name = constraint.path(kind).asString("");
                        String bare = name.contains("/") ? name.substring(name.indexOf('/') + 1) : name;
                        for (String list : List.of("bools", "versions")) {
                            if (listAttributeNames.contains(list + ":" + bare)
                                    || listAttributeNames.contains(list + ":" + name)) {
                                seen.add(list + " in constraint attribute");
                            }
                        }
                    }
                }
            }
            if (devices.path("config").size() > 0) {
                seen.add("claim config");
            }
        }
        for (JsonNode allocated : scenario.path("allocatedDevices")) {
            if (allocated.has("status") || allocated.has("kind")) {
                seen.add("allocated claim");
                for (JsonNode result : allocated
                        .path("status")
                        .path("allocation")
                        .path("devices")
                        .path("results")) {
                    if (result.has("shareID") && !result.has("consumedCapacity")) {
                        seen.add("share without consumedCapacity");
                    }
                }
            } else if (allocated.path("shared").asBoolean(false)) {
                seen.add(allocated.has("consumedCapacity") ? "allocated share" : "share without consumedCapacity");
            } else {
                seen.add("allocated device");
            }
        }
    }

    private static void taint(JsonNode taint, Set<String> seen) {
        if (!taint.isMissingNode()) {
            seen.add("taint effect " + taint.path("effect").asString("?"));
        }
    }
}
