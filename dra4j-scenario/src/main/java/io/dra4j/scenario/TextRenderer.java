package io.dra4j.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The human-readable rendering: one block per scenario, its outcome on the first line, then per claim the node
 * selector in short form and one line per device. Works on the {@link OutcomeView} so it shows what JSON shows.
 */
final class TextRenderer {
    private TextRenderer() {}

    @SuppressWarnings("unchecked")
    static String render(Map<String, Object> view) {
        StringBuilder sb = new StringBuilder();
        sb.append(view.get("scenario")).append(": ").append(view.get("outcome")).append('\n');
        if (view.containsKey("error")) {
            for (String line : String.valueOf(view.get("error")).split("\n", -1)) {
                sb.append("  ").append(line).append('\n');
            }
        }
        for (Object a : (List<Object>) view.getOrDefault("allocations", List.of())) {
            Map<String, Object> allocation = (Map<String, Object>) a;
            sb.append("  claim ")
                    .append(allocation.get("claim"))
                    .append(" on ")
                    .append(nodeSelector((Map<String, Object>) allocation.get("nodeSelector")))
                    .append('\n');
            for (Object r : (List<Object>) allocation.get("results")) {
                sb.append("    ").append(result((Map<String, Object>) r)).append('\n');
            }
            for (Object c : (List<Object>) allocation.getOrDefault("config", List.of())) {
                sb.append("    config ").append(config((Map<String, Object>) c)).append('\n');
            }
        }
        return sb.toString();
    }

    @SuppressWarnings("unchecked")
    private static String result(Map<String, Object> r) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.get("request"))
                .append(" -> ")
                .append(r.get("driver"))
                .append('/')
                .append(r.get("pool"))
                .append('/')
                .append(r.get("device"));
        List<String> extras = new ArrayList<>();
        if (Boolean.TRUE.equals(r.get("adminAccess"))) {
            extras.add("admin access");
        }
        if (r.containsKey("shareID")) {
            extras.add("shareID " + r.get("shareID"));
        }
        if (r.containsKey("consumedCapacity")) {
            extras.add("consumed "
                    + ((Map<String, Object>) r.get("consumedCapacity"))
                            .entrySet().stream()
                                    .map(e -> e.getKey() + "=" + e.getValue())
                                    .collect(Collectors.joining(", ")));
        }
        if (r.containsKey("tolerations")) {
            extras.add("tolerates "
                    + ((List<Object>) r.get("tolerations"))
                            .stream()
                                    .map(t -> toleration((Map<String, Object>) t))
                                    .collect(Collectors.joining(", ")));
        }
        if (r.containsKey("bindingConditions")) {
            extras.add("binding conditions " + r.get("bindingConditions"));
        }
        if (r.containsKey("bindingFailureConditions")) {
            extras.add("binding failure conditions " + r.get("bindingFailureConditions"));
        }
        if (!extras.isEmpty()) {
            sb.append(" (").append(String.join("; ", extras)).append(')');
        }
        return sb.toString();
    }

    private static String toleration(Map<String, Object> t) {
        String key = String.valueOf(t.getOrDefault("key", "*"));
        String operator = String.valueOf(t.getOrDefault("operator", "Equal"));
        String condition = operator.equals("Exists") ? key : key + "=" + t.getOrDefault("value", "");
        Object effect = t.getOrDefault("effect", "any effect");
        return condition + ":" + effect;
    }

    @SuppressWarnings("unchecked")
    private static String config(Map<String, Object> c) {
        StringBuilder sb = new StringBuilder(String.valueOf(c.get("source")));
        if (c.containsKey("opaque")) {
            Map<String, Object> opaque = (Map<String, Object>) c.get("opaque");
            sb.append(' ').append(opaque.get("driver")).append(' ').append(JsonText.write(opaque.get("parameters")));
        }
        sb.append(
                c.containsKey("requests")
                        ? " for " + String.join(", ", (List<String>) c.get("requests"))
                        : " for every request");
        return sb.toString();
    }

    /** {@code any node}, or terms joined by {@code ||}, requirements by {@code &&}: {@code metadata.name in (node-1)}. */
    @SuppressWarnings("unchecked")
    static String nodeSelector(Map<String, Object> selector) {
        if (selector == null) {
            return "any node";
        }
        List<String> terms = new ArrayList<>();
        for (Object t : (List<Object>) selector.get("nodeSelectorTerms")) {
            Map<String, Object> term = (Map<String, Object>) t;
            List<String> reqs = new ArrayList<>();
            for (String kind : List.of("matchExpressions", "matchFields")) {
                for (Object r : (List<Object>) term.getOrDefault(kind, List.of())) {
                    reqs.add(requirement((Map<String, Object>) r));
                }
            }
            terms.add(reqs.isEmpty() ? "(no requirement)" : String.join(" && ", reqs));
        }
        return terms.isEmpty() ? "no node" : String.join(" || ", terms);
    }

    @SuppressWarnings("unchecked")
    private static String requirement(Map<String, Object> r) {
        String key = String.valueOf(r.get("key"));
        List<String> values = (List<String>) r.getOrDefault("values", List.of());
        String joined = "(" + String.join(", ", values) + ")";
        return switch (String.valueOf(r.get("operator"))) {
            case "In" -> key + " in " + joined;
            case "NotIn" -> key + " notin " + joined;
            case "Exists" -> key + " exists";
            case "DoesNotExist" -> "!" + key;
            case "Gt" -> key + " > " + String.join(", ", values);
            case "Lt" -> key + " < " + String.join(", ", values);
            default -> key + " " + r.get("operator") + " " + joined;
        };
    }
}
