package io.dra4j.testkit.diff;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Greedy delta debugging on a scenario tree: removes one part at a time (a claim, a slice, a request, a constraint, a
 * device, an attribute, a feature gate, ...) or lowers a count, and keeps the change when the divergence persists,
 * until no single change keeps it. Large parts are tried before small ones (breadth first), so most of a scenario goes early.
 *
 * <p>Only parts whose absence still leaves a well-formed scenario are removed: elements of lists and optional fields,
 * never names, kinds or the fields that give a request, slice or pool its identity. The predicate decides the rest;
 * it should reject candidates the oracle cannot read.
 */
public final class Shrinker {
    /** Fields that may be left out. */
    private static final Set<String> OPTIONAL = Set.of(
            "attributes",
            "capacity",
            "taints",
            "tolerations",
            "bindingConditions",
            "bindingFailureConditions",
            "bindsToNode",
            "allowMultipleAllocations",
            "consumesCounters",
            "requestPolicy",
            "validRange",
            "validValues",
            "min",
            "max",
            "step",
            "default",
            "selectors",
            "constraints",
            "config",
            "adminAccess",
            "sharedCounters",
            "consumedCapacity",
            "shared",
            "namespace",
            "labels",
            "parameters");
    /** Fields that hold maps: any of their entries may be left out. */
    private static final Set<String> MAPS =
            Set.of("attributes", "capacity", "labels", "counters", "consumedCapacity", "parameters");
    /** Lists that must keep at least one element. */
    private static final Set<String> NON_EMPTY = Set.of(
            "claims",
            "nodeSelectorTerms",
            "values",
            "firstAvailable",
            "matchExpressions",
            "matchFields",
            "results",
            "counters");

    /** Numbers that may be lowered (not below 1). */
    private static final Set<String> DECREMENTABLE = Set.of("resourceSliceCount", "count", "generation");

    private Shrinker() {}

    /**
     * @param scenario     the diverging scenario (not modified)
     * @param stillDiverges whether a candidate still shows the same divergence
     * @param maxTries     upper bound on predicate calls
     * @return the smallest scenario found
     */
    public static ObjectNode shrink(ObjectNode scenario, Predicate<ObjectNode> stillDiverges, int maxTries) {
        ObjectNode current = scenario.deepCopy();
        int tries = 0;
        boolean progress = true;
        while (progress && tries < maxTries) {
            progress = false;
            List<Change> candidates = candidates(current);
            for (int i = 0; i < candidates.size() && tries < maxTries; i++) {
                ObjectNode candidate = current.deepCopy();
                apply(candidate, candidates.get(i));
                tries++;
                if (stillDiverges.test(candidate)) {
                    current = candidate;
                    progress = true;
                    // Paths after the removed part have shifted: recompute, and resume near where we were.
                    candidates = candidates(current);
                    i--;
                }
            }
        }
        return current;
    }

    /**
     * One change to try: remove the part at {@code path} (object keys and list indexes from the root), or lower the
     * number there by one.
     */
    record Change(List<Object> path, boolean decrement) {}

    /**
     * The changes to try, in order: every removable part, then lowering a number that sizes something (a pool's
     * resourceSliceCount, a request's count, a pool generation) by one.
     */
    static List<Change> candidates(ObjectNode root) {
        List<Change> out = new ArrayList<>();
        removable(root).forEach(path -> out.add(new Change(path, false)));
        decrementable(List.of(), root).forEach(path -> out.add(new Change(path, true)));
        return out;
    }

    static void apply(ObjectNode root, Change change) {
        List<Object> path = change.path();
        if (change.decrement()) {
            ObjectNode parent = (ObjectNode) at(root, path.subList(0, path.size() - 1));
            String field = (String) path.get(path.size() - 1);
            long value = parent.get(field).asLong();
            if (field.equals("resourceSliceCount")) {
                // Every slice of a pool states the pool's slice count; lower them together so they stay consistent.
                JsonNode slice = at(root, path.subList(0, 2));
                for (JsonNode other : root.path("resourceSlices")) {
                    JsonNode pool = other.path("spec").path("pool");
                    if (samePool(slice, other) && pool.path(field).asLong() == value) {
                        ((ObjectNode) pool).put(field, value - 1);
                    }
                }
            } else {
                parent.put(field, value - 1);
            }
        } else {
            remove(root, path);
        }
    }

    private static boolean samePool(JsonNode a, JsonNode b) {
        return a.path("spec").path("driver").equals(b.path("spec").path("driver"))
                && a.path("spec")
                        .path("pool")
                        .path("name")
                        .equals(b.path("spec").path("pool").path("name"))
                && a.path("spec")
                        .path("pool")
                        .path("generation")
                        .equals(b.path("spec").path("pool").path("generation"));
    }

    private static List<List<Object>> decrementable(List<Object> path, JsonNode node) {
        List<List<Object>> out = new ArrayList<>();
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                List<Object> child = append(path, field.getKey());
                if (DECREMENTABLE.contains(field.getKey())
                        && field.getValue().isIntegralNumber()
                        && field.getValue().asLong() > 1) {
                    out.add(child);
                } else {
                    out.addAll(decrementable(child, field.getValue()));
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                out.addAll(decrementable(append(path, i), node.get(i)));
            }
        }
        return out;
    }

    private static JsonNode at(JsonNode root, List<Object> path) {
        JsonNode node = root;
        for (Object step : path) {
            node = step instanceof Integer index ? node.get(index) : node.get((String) step);
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    /** Paths (object keys and list indexes from the root) of the parts that may be removed, shallow ones first. */
    static List<List<Object>> removable(ObjectNode root) {
        List<List<Object>> out = new ArrayList<>();
        Deque<Map.Entry<List<Object>, JsonNode>> queue = new ArrayDeque<>();
        queue.add(Map.entry(List.of(), root));
        while (!queue.isEmpty()) {
            Map.Entry<List<Object>, JsonNode> entry = queue.poll();
            List<Object> path = entry.getKey();
            JsonNode node = entry.getValue();
            String key = lastKey(path);
            if (node.isArray()) {
                boolean keepOne = NON_EMPTY.contains(key) || isClaimRequests(path);
                for (int i = 0; i < node.size(); i++) {
                    List<Object> child = append(path, i);
                    if (!keepOne || node.size() > 1) {
                        out.add(child);
                    }
                    queue.add(Map.entry(child, node.get(i)));
                }
            } else if (node.isObject()) {
                boolean map = MAPS.contains(key) || isCapacityRequests(path);
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    List<Object> child = append(path, field.getKey());
                    if ((map || OPTIONAL.contains(field.getKey())) && !(path.isEmpty() && isRequired(field.getKey()))) {
                        out.add(child);
                    }
                    if (!map || field.getValue().isContainer()) {
                        queue.add(Map.entry(child, field.getValue()));
                    }
                }
            }
        }
        return out;
    }

    static void remove(ObjectNode root, List<Object> path) {
        JsonNode parent = at(root, path.subList(0, path.size() - 1));
        Object last = path.get(path.size() - 1);
        if (last instanceof Integer index) {
            ((ArrayNode) parent).remove(index);
        } else {
            ((ObjectNode) parent).remove((String) last);
        }
    }

    private static boolean isRequired(String topLevelKey) {
        return topLevelKey.equals("name") || topLevelKey.equals("node");
    }

    /** claims[i].spec.devices.requests: a claim needs a request. */
    private static boolean isClaimRequests(List<Object> path) {
        return path.size() == 5 && "claims".equals(path.get(0)) && "requests".equals(path.get(4));
    }

    /** ...exactly.capacity.requests (or a subrequest's): a map of capacity name to quantity. */
    private static boolean isCapacityRequests(List<Object> path) {
        return path.size() >= 2 && "requests".equals(lastKey(path)) && "capacity".equals(path.get(path.size() - 2));
    }

    private static String lastKey(List<Object> path) {
        return path.isEmpty() || !(path.get(path.size() - 1) instanceof String s) ? "" : s;
    }

    private static List<Object> append(List<Object> path, Object step) {
        List<Object> child = new ArrayList<>(path.size() + 1);
        child.addAll(path);
        child.add(step);
        return List.copyOf(child);
    }
}
