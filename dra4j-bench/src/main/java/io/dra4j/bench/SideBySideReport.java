package io.dra4j.bench;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import tools.jackson.databind.JsonNode;

/**
 * Prints the side-by-side tables of upstream ({@code oracle -filter}) and dra4j ({@link FilterPassBenchmark}) for
 * one pod's whole Filter pass over every node, one table per {@link GateSet}, and checks that both engines reach the
 * same outcome with the same devices on every node.
 *
 * <pre>java -cp dra4j-benchmarks.jar io.dra4j.bench.SideBySideReport DIR</pre>
 *
 * For each gate set id G with a directory {@code DIR/G}: {@code upstream-filter.jsonl} is {@code oracle -filter}
 * output (every node's outcome and search steps), {@code upstream-filter-bench.jsonl} is {@code oracle -filter -bench}
 * output, and {@code jmh-*.json} are JMH result files ({@code -rf json}) of {@link FilterPassBenchmark}. dra4j's
 * per-node outcomes are computed here from the same workload objects. Exit status 1 when an outcome differs.
 */
public final class SideBySideReport {
    private SideBySideReport() {}

    /** Warm and cold time of one pass, in ns; -1 where not measured. */
    record Timing(double warm, double cold) {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: SideBySideReport DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        boolean allSame = true;
        StringBuilder out = new StringBuilder();
        for (GateSet gates : GateSet.values()) {
            Path sub = dir.resolve(gates.id());
            if (!Files.isDirectory(sub)) {
                continue;
            }
            out.append(out.isEmpty() ? "" : "\n").append(heading(gates)).append("\n\n");
            allSame &= table(gates, sub, out);
        }
        System.out.print(out);
        if (!allSame) {
            System.out.println("\nOUTCOMES DIFFER for at least one workload (see DIFFERENT above).");
            System.exit(1);
        }
    }

    private static String heading(GateSet gates) {
        return gates == GateSet.K8S_1_37
                ? "Kubernetes 1.37 default gates (plus the gates a workload needs): one pod's Filter pass over every node."
                : "Only the gates each workload needs (upstream's stable variant, as older releases ran), for the"
                        + " workloads where that is another variant than under 1.37's gates.";
    }

    /** Appends one gate set's table; returns whether every outcome agreed. */
    private static boolean table(GateSet gates, Path dir, StringBuilder out) throws IOException {
        Map<String, JsonNode> upstreamOutcomes = byScenario(dir.resolve("upstream-filter.jsonl"));
        Map<String, JsonNode> upstreamBench = byScenario(dir.resolve("upstream-filter-bench.jsonl"));
        Map<String, Timing> mine = jmh(dir);
        out.append(
                "| workload | nodes | outcome on every node (upstream / dra4j) | upstream warm | dra4j warm | speed-up"
                        + " | upstream cold | dra4j cold | speed-up | search steps (upstream / dra4j) |\n");
        out.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        boolean allSame = true;
        for (String name : Workloads.names()) {
            if (!upstreamOutcomes.containsKey(name) && !mine.containsKey(name)) {
                continue; // not part of this run (oracle/bench --workloads, or the same variant as 1.37)
            }
            Workload w = gates.apply(Workloads.byName(name));
            List<Allocator.Attempt> attempts =
                    FilterPass.attempts(w.clusterState(w.celEnvironment()), w.nodes(), w.claims());
            JsonNode theirs = upstreamOutcomes.get(name);
            Comparison c = compare(theirs, attempts);
            allSame &= c.same();
            JsonNode bench = upstreamBench.get(name);
            Timing up = bench == null
                    ? new Timing(-1, -1)
                    : new Timing(
                            bench.path("passNsPerOp").asDouble(-1),
                            bench.path("coldPassNsPerOp").asDouble(-1));
            Timing me = mine.getOrDefault(name, new Timing(-1, -1));
            long mySteps =
                    attempts.stream().mapToLong(Allocator.Attempt::searchSteps).sum();
            String theirSteps = theirs == null
                    ? "n/a"
                    : Long.toString(theirs.path("searchSteps").asLong());
            out.append("| ")
                    .append(name)
                    .append(" | ")
                    .append(w.nodes().size())
                    .append(" | ")
                    .append(cell(c.text()))
                    .append(" | ")
                    .append(time(up.warm()))
                    .append(" | ")
                    .append(time(me.warm()))
                    .append(" | ")
                    .append(ratio(up.warm(), me.warm()))
                    .append(" | ")
                    .append(time(up.cold()))
                    .append(" | ")
                    .append(time(me.cold()))
                    .append(" | ")
                    .append(ratio(up.cold(), me.cold()))
                    .append(" | ")
                    .append(theirSteps)
                    .append(" / ")
                    .append(mySteps)
                    .append(" |\n");
        }
        return allSame;
    }

    record Comparison(boolean same, String text) {}

    /** Compares every node's outcome; the text counts the nodes per outcome or names the first difference. */
    static Comparison compare(JsonNode upstream, List<Allocator.Attempt> mine) {
        if (upstream == null) {
            return new Comparison(false, "DIFFERENT: upstream missing");
        }
        if (!upstream.path("error").asString("").isEmpty()) {
            return new Comparison(
                    false,
                    "DIFFERENT: upstream could not build its allocator: "
                            + upstream.path("error").asString());
        }
        JsonNode nodes = upstream.path("nodes");
        if (nodes.size() != mine.size()) {
            return new Comparison(false, "DIFFERENT: upstream tried " + nodes.size() + " nodes, dra4j " + mine.size());
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        int differing = 0;
        String first = null;
        for (int i = 0; i < mine.size(); i++) {
            String theirs = describe(nodes.get(i));
            String ours = describe(mine.get(i).outcome());
            if (!theirs.equals(ours)) {
                differing++;
                if (first == null) {
                    first = "node " + nodes.get(i).path("node").asString() + ": upstream " + theirs + " / dra4j "
                            + ours;
                }
            }
            counts.merge(kind(ours), 1, Integer::sum);
        }
        if (differing > 0) {
            return new Comparison(false, "DIFFERENT on " + differing + " of " + mine.size() + " nodes, first " + first);
        }
        StringJoiner text = new StringJoiner(", ", "same on every node: ", "");
        counts.forEach((kind, n) -> text.add(kind + " " + n));
        return new Comparison(true, text.toString());
    }

    private static String kind(String described) {
        int colon = described.indexOf(':');
        return colon < 0 ? described : described.substring(0, colon);
    }

    private static Map<String, JsonNode> byScenario(Path file) throws IOException {
        Map<String, JsonNode> out = new HashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                JsonNode n = ScenarioFiles.json().readTree(line);
                out.put(n.path("scenario").asString(), n);
            }
        }
        return out;
    }

    /** The warm and cold scores of every JMH result file in the directory, by workload. */
    private static Map<String, Timing> jmh(Path dir) throws IOException {
        List<JsonNode> results = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "jmh-*.json")) {
            for (Path f : files) {
                ScenarioFiles.json().readTree(Files.readString(f)).forEach(results::add);
            }
        }
        Map<String, Timing> out = new HashMap<>();
        for (JsonNode r : results) {
            String bench = r.path("benchmark").asString();
            String workload = r.path("params").path("workload").asString();
            double score = r.path("primaryMetric").path("score").asDouble();
            Timing t = out.getOrDefault(workload, new Timing(-1, -1));
            if (bench.endsWith(".warm")) {
                t = new Timing(score, t.cold());
            } else if (bench.endsWith(".cold")) {
                t = new Timing(t.warm(), score);
            }
            out.put(workload, t);
        }
        return out;
    }

    /** Makes text safe for one Markdown table cell. */
    private static String cell(String text) {
        String flat = text.replaceAll("\\s+", " ").replace("|", "\\|");
        return flat.length() > 300 ? flat.substring(0, 300) + "..." : flat;
    }

    /** {@code allocated: claim[request=pool/device ...]}, {@code unschedulable} or {@code error: message}. */
    static String describe(AllocationOutcome outcome) {
        if (outcome instanceof AllocationOutcome.Allocated a) {
            StringBuilder sb = new StringBuilder("allocated:");
            for (AllocationResult r : a.results()) {
                sb.append(" [");
                for (DeviceRequestAllocationResult d : r.getDevices().getResults()) {
                    sb.append(d.getRequest())
                            .append('=')
                            .append(d.getPool())
                            .append('/')
                            .append(d.getDevice())
                            .append(' ');
                }
                sb.append(']');
            }
            return sb.toString();
        }
        if (outcome instanceof AllocationOutcome.Failed f) {
            return "error: " + f.message();
        }
        return "unschedulable";
    }

    static String describe(JsonNode upstream) {
        String outcome = upstream.path("outcome").asString();
        if (outcome.equals("allocated")) {
            StringBuilder sb = new StringBuilder("allocated:");
            for (JsonNode a : upstream.path("allocations")) {
                sb.append(" [");
                for (JsonNode d : a.path("results")) {
                    sb.append(d.path("request").asString())
                            .append('=')
                            .append(d.path("pool").asString())
                            .append('/')
                            .append(d.path("device").asString())
                            .append(' ');
                }
                sb.append(']');
            }
            return sb.toString();
        }
        if (outcome.equals("error")) {
            return "error: " + upstream.path("error").asString();
        }
        return outcome;
    }

    static String time(double ns) {
        if (ns < 0) {
            return "n/a";
        }
        if (ns < 1_000) {
            return String.format(Locale.ROOT, "%.0f ns", ns);
        }
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f µs", ns / 1_000);
        }
        if (ns < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.2f ms", ns / 1_000_000);
        }
        return String.format(Locale.ROOT, "%.2f s", ns / 1_000_000_000);
    }

    /** How many times faster dra4j is: upstream / dra4j; below 1 means dra4j is slower. */
    static String ratio(double upstream, double dra4j) {
        if (upstream <= 0 || dra4j <= 0) {
            return "n/a";
        }
        double r = upstream / dra4j;
        return r >= 10 ? String.format(Locale.ROOT, "%.0fx", r) : String.format(Locale.ROOT, "%.2fx", r);
    }
}
