package io.dra4j.sim;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * Writes a simulation's outcome: a summary for people, JSON (schema in docs/simulate-json.md), the final cluster
 * state as multi-document YAML that can be read back, and the scheduling events.
 */
public final class Reports {
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .changeDefaultPropertyInclusion(v -> v.withValueInclusion(JsonInclude.Include.NON_NULL))
            .build();
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
            .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .disable(YAMLWriteFeature.SPLIT_LINES)
            .changeDefaultPropertyInclusion(v -> v.withValueInclusion(JsonInclude.Include.NON_EMPTY))
            .build();
    private static final int LIST_PLACED_UP_TO = 60;

    private Reports() {}

    /** The summary: counts, pending pods with their reasons, placements, devices in use, notes. */
    public static void text(SimulationResult r, PrintWriter out) {
        ClusterSnapshot s = r.finalState();
        out.printf(
                "%d nodes, %d pods: %d placed, %d pending, %d bound before%s%n",
                s.nodes().size(),
                r.pods().size(),
                r.placed(),
                r.pending(),
                r.boundBefore(),
                r.deleted() == 0 ? "" : ", " + r.deleted() + " deleted");
        List<PodResult> pending = r.pods().stream()
                .filter(p -> p.placement() == PodResult.Placement.PENDING)
                .toList();
        if (!pending.isEmpty()) {
            out.println();
            out.println("Pending:");
            for (PodResult p : pending) {
                out.printf("  %s/%s%s%n", p.namespace(), p.name(), workload(p));
                out.printf("    %s%n", p.reason());
                if (!p.draReason().isEmpty()) {
                    out.printf("    why (DRA): %s%n", p.draReason());
                }
                p.notes().forEach(n -> out.printf("    note: %s%n", n));
            }
        }
        gangs(r, out);
        List<PodResult> placed = r.pods().stream()
                .filter(p -> p.placement() == PodResult.Placement.PLACED)
                .toList();
        if (!placed.isEmpty()) {
            out.println();
            out.println("Placed:");
            if (placed.size() <= LIST_PLACED_UP_TO) {
                for (PodResult p : placed) {
                    out.printf(
                            "  %s/%s -> %s%s%n",
                            p.namespace(), p.name(), p.node().orElse(""), workload(p));
                    p.notes().forEach(n -> out.printf("    note: %s%n", n));
                }
            } else {
                Map<String, Long> perNode = new java.util.TreeMap<>();
                placed.forEach(p -> perNode.merge(p.node().orElse(""), 1L, Long::sum));
                perNode.forEach((n, c) -> out.printf("  %s: %d pod(s)%n", n, c));
            }
        }
        List<PodResult> gone = r.pods().stream()
                .filter(p ->
                        p.placement() == PodResult.Placement.PREEMPTED || p.placement() == PodResult.Placement.EVICTED)
                .toList();
        if (!gone.isEmpty()) {
            out.println();
            out.println("Deleted during the run:");
            gone.forEach(p -> out.printf(
                    "  %s/%s on %s%s: %s: %s%n",
                    p.namespace(),
                    p.name(),
                    p.node().orElse(""),
                    workload(p),
                    p.placement() == PodResult.Placement.PREEMPTED ? "preempted" : "evicted",
                    p.reason()));
        }
        List<PodResult> other = r.pods().stream()
                .filter(p -> p.placement() == PodResult.Placement.NOT_SCHEDULED)
                .toList();
        if (!other.isEmpty()) {
            out.println();
            out.println("Not for this scheduler:");
            other.forEach(p -> out.printf("  %s/%s: %s%n", p.namespace(), p.name(), p.reason()));
        }
        DeviceUsage u = DeviceUsage.of(s);
        out.println();
        out.println("Devices allocated per device class:");
        if (u.perClass().isEmpty() && u.adminAccessPerClass().isEmpty()) {
            out.println("  none");
        }
        new java.util.TreeMap<>(u.perClass()).forEach((c, n) -> out.printf("  %s: %d%n", c, n));
        new java.util.TreeMap<>(u.adminAccessPerClass())
                .forEach((c, n) -> out.printf("  %s: %d with admin access (monitoring, not taken)%n", c, n));
        out.println();
        out.println("Devices allocated per node pool (driver/pool: allocated of devices):");
        new java.util.TreeMap<>(u.perPool())
                .forEach((p, v) -> out.printf("  %s: %d of %d%n", p, v.used(), v.devices()));
        out.println();
        out.println("ResourceQuota usage per namespace (claims' requests, as quota counts them):");
        new java.util.TreeMap<>(u.quotaPerNamespace()).forEach((ns, m) -> {
            if (!m.isEmpty()) {
                out.printf("  %s:%n", ns);
                new java.util.TreeMap<>(m).forEach((k, v) -> out.printf("    %s: %d%n", k, v));
            }
        });
        List<String> notes = new ArrayList<>(r.notes());
        notes.add("not simulated: volumes");
        out.println();
        out.println("Notes:");
        notes.forEach(n -> out.printf("  %s%n", n));
        out.flush();
    }

    /** The gangs: whether each fits whole, and for one that does not, what is missing and why. */
    private static void gangs(SimulationResult r, PrintWriter out) {
        if (r.gangs().isEmpty()) {
            return;
        }
        out.println();
        out.println("Gangs (placed all or nothing):");
        for (GangResult g : r.gangs()) {
            out.printf("  %s%s: %s%n", g.name(), g.workload().isEmpty() ? "" : " (" + g.workload() + ")", gangLine(g));
            if (!g.fits()) {
                out.printf("    %s%n", g.reason());
            }
            if (!g.firstUnfit().isEmpty()) {
                out.printf("    first member that did not fit: %s: %s%n", g.firstUnfit(), g.unfitReason());
                if (!g.unfitDraReason().isEmpty()) {
                    out.printf("    why (DRA): %s%n", g.unfitDraReason());
                }
            }
        }
    }

    /** {@code fits: 4 of 4 members placed (minCount 4)}, or what is missing. */
    public static String gangLine(GangResult g) {
        if (g.fits()) {
            return "fits: " + g.placed() + " of " + g.members().size() + " members placed (minCount " + g.minCount()
                    + ")";
        }
        return "pending: " + g.fitted() + " of the " + g.minCount() + " members needed fitted, " + g.missing()
                + " missing; " + g.placed() + " of " + g.members().size() + " placed";
    }

    private static String workload(PodResult p) {
        return p.workload().isEmpty() ? "" : " (" + p.workload() + ")";
    }

    /** Events in the order they happened, as {@code kubectl get events} shows type, reason, object, message. */
    public static void events(SimulationResult r, PrintWriter out) {
        for (SchedulingEvent e : r.events()) {
            out.printf("%s\t%s\tpod/%s\t%s%n", e.type(), e.reason(), e.pod(), e.message());
        }
        out.flush();
    }

    /** The JSON document of docs/simulate-json.md. */
    public static String json(SimulationResult r, boolean withEvents) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode summary = root.putObject("summary");
        summary.put("nodes", r.finalState().nodes().size());
        summary.put("pods", r.pods().size());
        summary.put("placed", r.placed());
        summary.put("pending", r.pending());
        summary.put("boundBefore", r.boundBefore());
        summary.put("deleted", r.deleted());
        ArrayNode pods = root.putArray("pods");
        for (PodResult p : r.pods()) {
            ObjectNode o = pods.addObject();
            o.put("namespace", p.namespace());
            o.put("name", p.name());
            if (p.node().isPresent()) {
                o.put("node", p.node().get());
            } else {
                o.putNull("node");
            }
            o.put("placement", p.placement().name());
            o.put("reason", p.reason());
            o.put("draReason", p.draReason());
            o.put("workload", p.workload());
            ArrayNode notes = o.putArray("notes");
            p.notes().forEach(notes::add);
        }
        ArrayNode gangs = root.putArray("gangs");
        for (GangResult g : r.gangs()) {
            ObjectNode o = gangs.addObject();
            o.put("name", g.name());
            o.put("workload", g.workload());
            o.put("minCount", g.minCount());
            ArrayNode members = o.putArray("members");
            g.members().forEach(members::add);
            o.put("placed", g.placed());
            o.put("fitted", g.fitted());
            o.put("missing", g.missing());
            o.put("fits", g.fits());
            o.put("reason", g.reason());
            o.put("firstUnfit", g.firstUnfit());
            o.put("unfitReason", g.unfitReason());
            o.put("unfitDraReason", g.unfitDraReason());
        }
        root.set("deviceUsage", JSON.valueToTree(DeviceUsage.of(r.finalState())));
        if (withEvents) {
            root.set("events", JSON.valueToTree(r.events()));
        }
        ArrayNode notes = root.putArray("notes");
        r.notes().forEach(notes::add);
        return JSON.writeValueAsString(root);
    }

    /**
     * The final cluster as multi-document YAML: every object of the state (pods with nodeName and claim statuses,
     * claims with allocation and reservedFor), readable by {@code dra4j simulate} again.
     */
    public static String state(SimulationResult r) {
        ClusterSnapshot s = r.finalState();
        List<HasMetadata> all = new ArrayList<>();
        all.addAll(s.priorityClasses());
        all.addAll(s.deviceClasses());
        all.addAll(s.nodes());
        all.addAll(s.resourceSlices());
        all.addAll(s.deviceTaintRules());
        all.addAll(s.resourceClaimTemplates());
        all.addAll(s.resourceClaims());
        all.addAll(s.deployments());
        all.addAll(s.replicaSets());
        all.addAll(s.statefulSets());
        all.addAll(s.jobs());
        all.addAll(s.daemonSets());
        all.addAll(s.podDisruptionBudgets());
        all.addAll(s.workloads());
        all.addAll(s.podGroups());
        all.addAll(s.pods());
        StringBuilder out = new StringBuilder();
        for (HasMetadata o : all) {
            String doc = YAML.writeValueAsString(o);
            out.append(doc.startsWith("---") ? doc : "---\n" + doc);
        }
        return out.toString();
    }
}
