package io.dra4j.scenario;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders explanations: short text for people (the decisive reason first), and JSON for tools with the schema in
 * docs/explain-json.md.
 */
public final class ExplanationWriter {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ExplanationWriter() {}

    /** One JSON object on one line. */
    public static String json(String scenario, Explanation x) {
        return json(scenario, x, NODES.objectNode(), null);
    }

    /**
     * The record of {@link #json(String, Explanation)} for one claim of a pod: {@code pod} (namespace/name, null
     * for a claim no pod uses), {@code claim} and {@code node} after {@code scenario}, and in {@code claims} only
     * that claim's report; the outcome, decisive reason, pools and suggestions are those of the pod's claims
     * allocated together.
     */
    public static String jsonForClaim(String scenario, Explanation x, String pod, String claim, String node) {
        ObjectNode head = NODES.objectNode();
        head.put("pod", pod);
        head.put("claim", claim);
        head.put("node", node);
        return json(scenario, x, head, claim == null ? null : claim.substring(claim.indexOf('/') + 1));
    }

    private static String json(String scenario, Explanation x, ObjectNode head, String onlyClaim) {
        ObjectNode root = NODES.objectNode();
        root.put("scenario", scenario);
        root.setAll(head);
        root.put("outcome", outcomeName(x.outcome()));
        if (x.outcome() instanceof AllocationOutcome.Failed f) {
            root.put("error", f.message());
        }
        root.put("decisive", x.decisive());
        ArrayNode claims = root.putArray("claims");
        for (Explanation.ClaimReport c : x.claims()) {
            if (onlyClaim != null && !c.claim().equals(onlyClaim)) {
                continue;
            }
            ObjectNode cn = claims.addObject();
            cn.put("claim", c.claim());
            ArrayNode requests = cn.putArray("requests");
            for (Explanation.RequestReport r : c.requests()) {
                ObjectNode rn = requests.addObject();
                rn.put("request", r.request());
                if (r.requested() < 0) {
                    rn.put("allocationMode", "All");
                } else {
                    rn.put("requested", r.requested());
                }
                ArrayNode funnel = rn.putArray("funnel");
                for (Explanation.Stage s : r.funnel()) {
                    funnel.addObject().put("stage", s.stage()).put("remaining", s.remaining());
                }
                ArrayNode rejections = rn.putArray("rejections");
                for (Explanation.Rejection rej : r.rejections()) {
                    rejections
                            .addObject()
                            .put("reason", rej.reason().name())
                            .put("device", rej.device().toString())
                            .put("detail", rej.detail());
                }
                strings(rn.putArray("constraints"), r.constraints());
                strings(rn.putArray("chosen"), r.chosen());
                if (r.shortfall() != null) {
                    rn.put("shortfall", r.shortfall());
                }
            }
        }
        ArrayNode pools = root.putArray("pools");
        for (Explanation.PoolNote p : x.pools()) {
            pools.addObject().put("pool", p.pool()).put("problem", p.problem());
        }
        ArrayNode suggestions = root.putArray("suggestions");
        for (Explanation.Suggestion s : x.suggestions()) {
            ObjectNode sn = suggestions
                    .addObject()
                    .put("description", s.description())
                    .put("change", s.change().getClass().getSimpleName());
            if (!s.fits()) {
                sn.put("remains", s.remains());
            }
        }
        return JSON.writeValueAsString(root);
    }

    /** The JSON line for a file that could not be read: an error record with the arrays every record has. */
    public static String unreadable(String scenario, String message) {
        ObjectNode root = NODES.objectNode();
        root.put("scenario", scenario);
        root.put("outcome", "error");
        root.put("error", message);
        root.put("decisive", message);
        root.putArray("claims");
        root.putArray("pools");
        root.putArray("suggestions");
        return JSON.writeValueAsString(root);
    }

    /** A few lines for a person: outcome and decisive reason, then what would fit, then the funnel of each request. */
    public static String text(String scenario, Explanation x) {
        StringBuilder sb = new StringBuilder();
        sb.append(scenario).append(": ").append(outcomeName(x.outcome())).append('\n');
        sb.append("  why: ").append(x.decisive()).append('\n');
        for (Explanation.Suggestion s : x.suggestions()) {
            if (s.fits()) {
                sb.append("  would fit: ").append(s.description()).append('\n');
            } else {
                sb.append("  fixes the error: ")
                        .append(s.description())
                        .append("; then unschedulable: ")
                        .append(s.remains())
                        .append('\n');
            }
            if (s.change() instanceof Explanation.Change.Tolerate t) {
                tolerationYaml(sb, x, t);
            }
        }
        for (Explanation.PoolNote p : x.pools()) {
            sb.append("  pool ")
                    .append(p.pool())
                    .append(": ")
                    .append(p.problem())
                    .append('\n');
        }
        for (Explanation.ClaimReport c : x.claims()) {
            for (Explanation.RequestReport r : c.requests()) {
                sb.append("  claim ")
                        .append(c.claim())
                        .append(", request ")
                        .append(r.request())
                        .append(" (")
                        .append(r.requested() < 0 ? "all devices" : r.requested() + " requested")
                        .append("): ");
                int last = -1;
                StringBuilder stages = new StringBuilder();
                for (Explanation.Stage s : r.funnel()) {
                    if (s.remaining() != last) {
                        if (stages.length() > 0) {
                            stages.append(" -> ");
                        }
                        stages.append(s.stage()).append(' ').append(s.remaining());
                        last = s.remaining();
                    }
                }
                sb.append(stages).append('\n');
                for (Explanation.Rejection rej : r.rejections()) {
                    sb.append("    ")
                            .append(rej.device())
                            .append(": ")
                            .append(rej.detail())
                            .append('\n');
                }
                for (String note : r.constraints()) {
                    sb.append("    ").append(note).append('\n');
                }
                for (String chosen : r.chosen()) {
                    sb.append("    chose ").append(chosen).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /**
     * The tolerations of a Tolerate suggestion as YAML to paste under the request's (or subrequest's)
     * {@code tolerations:}; they are exactly what the suggestion applied and allocated with.
     */
    private static void tolerationYaml(StringBuilder sb, Explanation x, Explanation.Change.Tolerate t) {
        String claim = t.claim() >= 0 && t.claim() < x.claims().size()
                ? x.claims().get(t.claim()).claim()
                : "";
        int slash = t.request().indexOf('/');
        String where = slash < 0
                ? "spec.devices.requests[name=" + t.request() + "].exactly.tolerations"
                : "spec.devices.requests[name=" + t.request().substring(0, slash) + "].firstAvailable[name="
                        + t.request().substring(slash + 1) + "].tolerations";
        sb.append("    paste into claim ")
                .append(claim)
                .append(", ")
                .append(where)
                .append(":\n");
        for (DeviceToleration tol : t.tolerations()) {
            String first = "      - ";
            for (String line : tolerationLines(tol)) {
                sb.append(first).append(line).append('\n');
                first = "        ";
            }
        }
    }

    private static List<String> tolerationLines(DeviceToleration t) {
        List<String> lines = new java.util.ArrayList<>();
        if (t.getKey() != null && !t.getKey().isEmpty()) {
            lines.add("key: " + yamlString(t.getKey()));
        }
        lines.add("operator: " + (t.getOperator() == null || t.getOperator().isEmpty() ? "Equal" : t.getOperator()));
        if (t.getValue() != null && !t.getValue().isEmpty()) {
            lines.add("value: " + yamlString(t.getValue()));
        }
        if (t.getEffect() != null && !t.getEffect().isEmpty()) {
            lines.add("effect: " + t.getEffect());
        }
        if (t.getTolerationSeconds() != null) {
            lines.add("tolerationSeconds: " + t.getTolerationSeconds());
        }
        return lines;
    }

    /** A string as a YAML scalar that reads back as that string (quoted as JSON when plain would not). */
    private static String yamlString(String s) {
        return s.matches("[A-Za-z0-9][-A-Za-z0-9_./]*")
                        && !s.matches("(?i)y|n|yes|no|on|off|true|false|null|~|[-+0-9.eE_]+")
                ? s
                : JSON.writeValueAsString(s);
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static String outcomeName(AllocationOutcome o) {
        if (o instanceof AllocationOutcome.Allocated) {
            return "allocated";
        }
        return o instanceof AllocationOutcome.Unschedulable ? "unschedulable" : "error";
    }
}
