package io.dra4j.sim.whatif;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.Explanation;
import io.dra4j.scenario.ExplanationWriter;
import java.io.PrintWriter;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes a {@link PodExplanation}: a few lines for people (decisive reason first, one line per group of nodes,
 * the checked fixes), or JSON with the schema of docs/explain-pod-json.md.
 */
public final class WhyPendingReport {
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .changeDefaultPropertyInclusion(v -> v.withValueInclusion(JsonInclude.Include.NON_NULL))
            .build();
    /** How many node names a group's text line shows. */
    private static final int NAMES_SHOWN = 4;

    private WhyPendingReport() {}

    public static void text(PodExplanation x, PrintWriter out) {
        out.printf(
                "%s %s/%s%s: %s%n",
                x.kind(),
                x.namespace(),
                x.name(),
                x.workload().isEmpty() ? "" : " (" + x.workload() + ")",
                status(x.status()).replace('_', ' '));
        out.printf("  why: %s%n", x.decisive());
        if (!x.message().isEmpty() && x.status() == PodExplanation.Status.PENDING) {
            out.printf("  scheduler: %s%n", x.message());
        }
        x.gang()
                .ifPresent(g -> out.printf(
                        "  gang: %s%s: %s%n",
                        g.name(),
                        g.workload().isEmpty() ? "" : " (" + g.workload() + ")",
                        io.dra4j.sim.Reports.gangLine(g)));
        if (!x.groups().isEmpty()) {
            out.printf("%n  %,d node(s), closest first:%n", x.nodeCount());
            for (NodeGroup g : x.groups()) {
                String who = g.plugin().isEmpty() ? "fit" : g.plugin();
                out.printf("  %2d. %,6d node(s)  %s: %s%n", g.rank(), g.count(), who, g.reason());
                out.printf("        %s%n", names(g.nodes()));
                g.explanation().ifPresent(e -> funnels(e, out));
            }
        }
        if (!x.fixes().isEmpty()) {
            out.printf("%n  Would make it fit (each checked):%n");
            for (Fix f : x.fixes()) {
                out.printf("    - %s%n", f.description());
            }
        } else if (x.status() == PodExplanation.Status.PENDING) {
            out.printf("%n  No checked change makes it fit.%n");
        }
        x.notes().forEach(n -> out.printf("  note: %s%n", n));
    }

    private static String names(List<String> nodes) {
        String shown = String.join(", ", nodes.subList(0, Math.min(NAMES_SHOWN, nodes.size())));
        return nodes.size() > NAMES_SHOWN ? shown + ", ... (+" + (nodes.size() - NAMES_SHOWN) + ")" : shown;
    }

    /** One line per short request: the stages at which its candidates dropped. */
    private static void funnels(Explanation e, PrintWriter out) {
        for (Explanation.ClaimReport c : e.claims()) {
            for (Explanation.RequestReport r : c.requests()) {
                if (r.shortfall() == null) {
                    continue;
                }
                StringBuilder stages = new StringBuilder();
                int last = -1;
                for (Explanation.Stage s : r.funnel()) {
                    if (s.remaining() != last) {
                        stages.append(stages.length() == 0 ? "" : " -> ")
                                .append(s.stage())
                                .append(' ')
                                .append(s.remaining());
                        last = s.remaining();
                    }
                }
                out.printf(
                        "        claim %s, request %s (%s): %s%n",
                        c.claim(),
                        r.request(),
                        r.requested() < 0 ? "all devices" : r.requested() + " requested",
                        stages);
            }
        }
    }

    public static String json(PodExplanation x) {
        ObjectNode root = JSON.createObjectNode();
        root.put("kind", x.kind());
        root.put("namespace", x.namespace());
        root.put("name", x.name());
        root.put("status", status(x.status()));
        if (x.node().isPresent()) {
            root.put("node", x.node().get());
        } else {
            root.putNull("node");
        }
        root.put("workload", x.workload());
        root.put("message", x.message());
        root.put("decisive", x.decisive());
        root.put("nodeCount", x.nodeCount());
        ArrayNode groups = root.putArray("groups");
        for (NodeGroup g : x.groups()) {
            ObjectNode gn = groups.addObject();
            gn.put("rank", g.rank());
            gn.put("plugin", g.plugin());
            gn.put("code", g.code());
            gn.put("reason", g.reason());
            gn.put("count", g.count());
            gn.put("example", g.example());
            ArrayNode names = gn.putArray("nodes");
            g.nodes().forEach(names::add);
            g.explanation()
                    .ifPresent(e -> gn.set("explanation", JSON.readTree(ExplanationWriter.json(g.example(), e))));
        }
        ArrayNode fixes = root.putArray("fixes");
        for (Fix f : x.fixes()) {
            ObjectNode fn = fixes.addObject();
            fn.put("kind", f.kind().name());
            fn.put("description", f.description());
            fn.put("verifiedOn", f.verifiedOn());
            f.claim().ifPresent(c -> fn.put("claim", c));
            f.change().ifPresent(c -> fn.set("change", change(c)));
            if (!f.tolerations().isEmpty()) {
                fn.set("tolerations", JSON.valueToTree(f.tolerations()));
            }
            f.whatIfNode().ifPresent(n -> fn.set("whatIfNode", JSON.valueToTree(n)));
            if (!f.whatIfSlices().isEmpty()) {
                fn.set("whatIfSlices", JSON.valueToTree(f.whatIfSlices()));
            }
        }
        ArrayNode notes = root.putArray("notes");
        x.notes().forEach(notes::add);
        x.gang().ifPresent(g -> {
            ObjectNode gn = root.putObject("gang");
            gn.put("name", g.name());
            gn.put("workload", g.workload());
            gn.put("minCount", g.minCount());
            gn.put("members", g.members().size());
            gn.put("placed", g.placed());
            gn.put("fitted", g.fitted());
            gn.put("missing", g.missing());
            gn.put("fits", g.fits());
            gn.put("reason", g.reason());
            gn.put("firstUnfit", g.firstUnfit());
        });
        return JSON.writeValueAsString(root);
    }

    /** An allocator change as {@code {"type": "SetCount", "claim": 0, "request": "gpus", "count": 3}}. */
    private static JsonNode change(Explanation.Change c) {
        ObjectNode n = JSON.createObjectNode();
        n.put("type", c.getClass().getSimpleName());
        for (RecordComponent rc : c.getClass().getRecordComponents()) {
            Object v;
            try {
                v = rc.getAccessor().invoke(c);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("record component " + rc.getName() + " of " + c, e);
            }
            if (v instanceof DeviceId || (v instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof DeviceId)) {
                n.set(
                        rc.getName(),
                        JSON.valueToTree(
                                v instanceof List<?> l2
                                        ? l2.stream().map(Object::toString).toList()
                                        : v.toString()));
            } else {
                n.set(rc.getName(), JSON.valueToTree(v));
            }
        }
        return n;
    }

    static String status(PodExplanation.Status s) {
        return s.name().toLowerCase(Locale.ROOT);
    }
}
