package io.dra4j.cli;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.whatif.LabelQuery;
import io.dra4j.sim.whatif.NodeTemplate;
import io.dra4j.sim.whatif.WhatIf;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * simulate's what-if questions: {@code --add-nodes TEMPLATE=N}, {@code --find-min TEMPLATE [--for SELECTOR]},
 * {@code --drain NODE}. A template is a node of the snapshot (cloned with its node-local slices) or a file holding
 * one Node and its ResourceSlices (scale from zero).
 */
final class WhatIfOptions {
    @Option(
            names = "--add-nodes",
            paramLabel = "TEMPLATE=N",
            description = "add N nodes like TEMPLATE (a node of the snapshot, or a file with a Node and its "
                    + "ResourceSlices), cloned as cluster-autoscaler sanitizes a template node; repeatable")
    List<String> addNodes = new ArrayList<>();

    @Option(
            names = "--find-min",
            paramLabel = "TEMPLATE",
            description = "the smallest number of nodes like TEMPLATE that places every pending pod (binary search, "
                    + "each step a simulation)")
    String findMin;

    @Option(
            names = "--for",
            paramLabel = "SELECTOR",
            description = "with --find-min: only the pending pods matching this label selector (kubectl -l syntax)")
    String forSelector;

    @Option(
            names = "--drain",
            paramLabel = "NODE",
            split = ",",
            description = "cordon these nodes and evict their pods (DaemonSet pods stay): do they fit elsewhere, with "
                    + "their claims re-allocated?")
    List<String> drain = new ArrayList<>();

    /** One question's answer: the simulation to print, and the what-if lines and JSON. */
    record Answer(SimulationResult result, List<String> lines, ObjectNode json) {}

    boolean asked() {
        return !addNodes.isEmpty() || findMin != null || !drain.isEmpty();
    }

    /** Answers the one question asked, or null; bad usage and unknown templates are ParameterExceptions. */
    Answer answer(CommandLine cl, ClusterSnapshot snapshot, SimulationOptions options) throws IOException {
        int asked = (addNodes.isEmpty() ? 0 : 1) + (findMin == null ? 0 : 1) + (drain.isEmpty() ? 0 : 1);
        if (asked > 1) {
            throw new CommandLine.ParameterException(
                    cl, "ask one what-if at a time: --add-nodes, --find-min or --drain");
        }
        if (forSelector != null && findMin == null) {
            throw new CommandLine.ParameterException(cl, "--for goes with --find-min");
        }
        WhatIf whatIf = new WhatIf(options);
        ObjectNode json = JsonMapper.builder().build().createObjectNode();
        List<String> lines = new ArrayList<>();
        try {
            if (!addNodes.isEmpty()) {
                Map<NodeTemplate, Integer> counts = new LinkedHashMap<>();
                for (String a : addNodes) {
                    int eq = a.lastIndexOf('=');
                    int n;
                    try {
                        n = eq < 0 ? -1 : Integer.parseInt(a.substring(eq + 1));
                    } catch (NumberFormatException e) {
                        n = -1;
                    }
                    if (eq <= 0 || n < 0) {
                        throw new CommandLine.ParameterException(
                                cl, "--add-nodes wants TEMPLATE=N with N >= 0, got " + a);
                    }
                    counts.put(template(snapshot, a.substring(0, eq)), n);
                }
                WhatIf.Added added = whatIf.addNodes(snapshot, counts);
                lines.add("What if: " + added.newNodes().size() + " node(s) added (" + String.join(", ", addNodes)
                        + "): pending " + added.pendingBefore() + " without them, "
                        + added.result().pending()
                        + " with them; " + added.placedOnNewNodes() + " pod(s) placed on the new nodes");
                added.incompletePools().forEach(p -> lines.add("  note: " + p));
                json.put("question", "add-nodes");
                json.set(
                        "newNodes",
                        json.arrayNode()
                                .addAll(added.newNodes().stream()
                                        .map(json::textNode)
                                        .toList()));
                json.put("pendingBefore", added.pendingBefore());
                json.put("pendingAfter", added.result().pending());
                json.put("placedOnNewNodes", added.placedOnNewNodes());
                json.set("incompletePools", strings(json, added.incompletePools()));
                return new Answer(added.result(), lines, json);
            }
            if (findMin != null) {
                NodeTemplate t = template(snapshot, findMin);
                LabelQuery query = forSelector == null ? null : LabelQuery.parse(forSelector);
                WhatIf.Minimum min = whatIf.findMin(
                        snapshot,
                        t,
                        p -> query == null || query.test(p.getMetadata().getLabels()));
                String which = min.targets().size() + " pending pod(s)"
                        + (forSelector == null ? "" : " matching " + forSelector);
                lines.add(
                        min.count() >= 0
                                ? "What if: " + min.count() + " node(s) like " + t.name() + " place all " + which + " ("
                                        + min.simulations() + " simulations)"
                                : "What if: no number of nodes like " + t.name() + " places all " + which + "; with "
                                        + min.tried() + ", "
                                        + min.stillPending().size() + " stay pending");
                min.stillPending().forEach((pod, why) -> lines.add("  " + pod + ": " + why));
                min.incompletePools().forEach(p -> lines.add("  cause: " + p));
                json.put("question", "find-min");
                json.put("template", t.name());
                if (min.count() >= 0) {
                    json.put("count", min.count());
                } else {
                    json.putNull("count");
                }
                json.set("targets", strings(json, min.targets()));
                ObjectNode left = json.putObject("stillPending");
                min.stillPending().forEach(left::put);
                json.set("incompletePools", strings(json, min.incompletePools()));
                json.put("simulations", min.simulations());
                SimulationResult shown = new io.dra4j.sim.Simulator(options)
                        .run(NodeTemplate.addTo(snapshot, WhatIf.clones(t, Math.max(min.count(), 0))));
                return new Answer(shown, lines, json);
            }
            if (!drain.isEmpty()) {
                WhatIf.Drained d = whatIf.drain(snapshot, drain);
                lines.add("What if: " + String.join(", ", drain) + " drained: "
                        + (d.moved().size() + d.pending().size())
                        + " pod(s) evicted, " + d.moved().size() + " fit elsewhere, "
                        + d.pending().size()
                        + " stay pending" + (d.fits() ? " (the nodes can be removed)" : ""));
                d.moved().forEach((pod, node) -> lines.add("  " + pod + " -> " + node));
                d.pending().forEach((pod, why) -> lines.add("  " + pod + ": " + why));
                d.notes().forEach(n -> lines.add("  note: " + n));
                json.put("question", "drain");
                json.set("nodes", strings(json, drain));
                json.put("fits", d.fits());
                ObjectNode moved = json.putObject("moved");
                d.moved().forEach(moved::put);
                ObjectNode pending = json.putObject("pending");
                d.pending().forEach(pending::put);
                return new Answer(d.result(), lines, json);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        return null;
    }

    private static tools.jackson.databind.node.ArrayNode strings(ObjectNode json, List<String> values) {
        var a = json.arrayNode();
        values.forEach(a::add);
        return a;
    }

    /** A node of the snapshot, or a file with exactly one Node and its ResourceSlices. */
    private static NodeTemplate template(ClusterSnapshot snapshot, String name) throws IOException {
        if (snapshot.nodes().stream().anyMatch(n -> n.getMetadata().getName().equals(name))
                || !Files.exists(Path.of(name))) {
            return NodeTemplate.of(snapshot, name);
        }
        Manifests m = ManifestReader.read(List.of(name), System.in);
        if (!m.problems().isEmpty()) {
            throw new IllegalArgumentException(
                    "template " + name + ": " + m.problems().get(0).describe());
        }
        if (m.nodes().size() != 1) {
            throw new IllegalArgumentException("template " + name + ": want exactly one Node, found "
                    + m.nodes().size());
        }
        String node = m.nodes().get(0).getMetadata().getName();
        return NodeTemplate.of(
                new ClusterSnapshot(
                        m.nodes(),
                        List.of(),
                        List.of(),
                        List.of(),
                        m.resourceSlices(),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of(),
                        List.of()),
                node);
    }

    static void print(Answer a, PrintWriter out) {
        out.println();
        a.lines().forEach(out::println);
    }
}
