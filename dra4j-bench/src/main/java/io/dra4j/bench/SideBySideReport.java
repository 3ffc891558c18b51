package io.dra4j.bench;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints the side-by-side table of upstream (Go oracle, {@code testing.Benchmark}) and dra4j (JMH) time per
 * allocation, and checks that both engines reach the same outcome with the same devices.
 *
 * <pre>java -cp dra4j-benchmarks.jar io.dra4j.bench.SideBySideReport UPSTREAM_BENCH.jsonl UPSTREAM_OUTCOMES.jsonl JMH.json...</pre>
 *
 * UPSTREAM_BENCH is {@code oracle -bench} output, UPSTREAM_OUTCOMES plain {@code oracle} output for the same
 * scenario files, JMH.json one or more JMH result files ({@code -rf json}) of {@link AllocatorBenchmark} and
 * optionally {@link FilterPassBenchmark}. Exit status 1 when an outcome differs.
 */
public final class SideBySideReport {
    private SideBySideReport() {
    }

    /** The two timings of one engine for one workload, in ns per allocation; -1 where not measured. */
    record Timing(double buildAndAllocate, double allocate) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: SideBySideReport UPSTREAM_BENCH.jsonl UPSTREAM_OUTCOMES.jsonl JMH.json...");
            System.exit(2);
        }
        Map<String, Timing> upstream = new HashMap<>();
        for (JsonNode n : jsonLines(Path.of(args[0]))) {
            upstream.put(n.path("scenario").asString(),
                    new Timing(n.path("nsPerOp").asDouble(-1), n.path("allocateNsPerOp").asDouble(-1)));
        }
        Map<String, JsonNode> upstreamOutcomes = new HashMap<>();
        for (JsonNode n : jsonLines(Path.of(args[1]))) {
            upstreamOutcomes.put(n.path("scenario").asString(), n);
        }
        Map<String, double[]> jmh = new HashMap<>();
        Map<String, Double> filterPass = new HashMap<>();
        List<JsonNode> results = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            ScenarioFiles.json().readTree(Files.readString(Path.of(args[i]))).forEach(results::add);
        }
        for (JsonNode r : results) {
            String bench = r.path("benchmark").asString();
            String workload = r.path("params").path("workload").asString();
            double score = r.path("primaryMetric").path("score").asDouble();
            if (bench.endsWith("FilterPassBenchmark.filterAllNodes")) {
                filterPass.put(workload, score);
                continue;
            }
            double[] t = jmh.computeIfAbsent(workload, k -> new double[]{-1, -1});
            if (bench.endsWith(".buildAndAllocate")) {
                t[0] = score;
            } else if (bench.endsWith(".allocate")) {
                t[1] = score;
            }
        }

        boolean allSame = true;
        StringBuilder out = new StringBuilder();
        out.append("| workload | outcome (upstream / dra4j) | upstream build+allocate | dra4j build+allocate | speed-up"
                + " | upstream allocate | dra4j allocate | speed-up | dra4j search steps |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String name : Workloads.names()) {
            if (!upstreamOutcomes.containsKey(name) && !jmh.containsKey(name)) {
                continue; // not part of this run (oracle/bench --workloads)
            }
            Workload w = Workloads.byName(name);
            Allocator.Attempt attempt = w.allocatorBuilder(w.allocatedState()).build()
                    .allocateWithStats(w.node(), w.claims());
            String mine = describe(attempt.outcome());
            JsonNode theirs = upstreamOutcomes.get(name);
            String theirsText = theirs == null ? "missing" : describe(theirs);
            boolean same = mine.equals(theirsText);
            allSame &= same;
            Timing up = upstream.getOrDefault(name, new Timing(-1, -1));
            double[] me = jmh.getOrDefault(name, new double[]{-1, -1});
            out.append("| ").append(name)
                    .append(" | ").append(same ? sameText(mine) : cell("DIFFERENT: upstream " + theirsText
                            + " / dra4j " + mine))
                    .append(" | ").append(time(up.buildAndAllocate())).append(" | ").append(time(me[0]))
                    .append(" | ").append(ratio(up.buildAndAllocate(), me[0]))
                    .append(" | ").append(time(up.allocate())).append(" | ").append(time(me[1]))
                    .append(" | ").append(ratio(up.allocate(), me[1]))
                    .append(" | ").append(attempt.searchSteps()).append(" |\n");
        }
        if (!filterPass.isEmpty()) {
            out.append("\nFull Filter pass (build once, allocate on every node). dra4j measured; upstream estimated as"
                    + " build+allocate + (nodes-1) x allocate on the representative node.\n\n");
            out.append("| workload | nodes | upstream (estimate) | dra4j (measured) | speed-up |\n");
            out.append("|---|---:|---:|---:|---:|\n");
            for (String name : Workloads.names()) {
                Double mine = filterPass.get(name);
                if (mine == null) {
                    continue;
                }
                int nodes = Workloads.byName(name).nodes().size();
                Timing up = upstream.getOrDefault(name, new Timing(-1, -1));
                double estimate = up.buildAndAllocate() < 0 || up.allocate() < 0 ? -1
                        : up.buildAndAllocate() + (nodes - 1) * up.allocate();
                out.append("| ").append(name).append(" | ").append(nodes).append(" | ").append(time(estimate))
                        .append(" | ").append(time(mine)).append(" | ").append(ratio(estimate, mine)).append(" |\n");
            }
        }
        System.out.print(out);
        if (!allSame) {
            System.out.println("\nOUTCOMES DIFFER for at least one workload (see DIFFERENT above).");
            System.exit(1);
        }
    }

    private static List<JsonNode> jsonLines(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                out.add(ScenarioFiles.json().readTree(line));
            }
        }
        return out;
    }

    private static String sameText(String described) {
        return described.startsWith("allocated") ? "allocated, same devices"
                : described.startsWith("error") ? "error, same message" : described + ", same";
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
                    sb.append(d.getRequest()).append('=').append(d.getPool()).append('/').append(d.getDevice()).append(' ');
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
                    sb.append(d.path("request").asString()).append('=').append(d.path("pool").asString()).append('/')
                            .append(d.path("device").asString()).append(' ');
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
