package io.dra4j.testkit.simdiff;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Differential test of {@code dra4j simulate}'s scheduling against kube-scheduler v1.37.2's framework.
 *
 * <pre>
 * SimDiffTest SEED COUNT [--from INDEX] [--oracle PATH] [--out DIR] [--shrink-limit N] [--shrink-seconds N] [--without F,...]
 * </pre>
 *
 * {@code --from INDEX} runs the COUNT snapshots from that index on (default 0), so that one snapshot of a long run can
 * be run alone ({@code SEED 1 --from INDEX}): each snapshot depends only on SEED and its index.
 *
 * {@code --gangs heavy} gives every snapshot gangs ({@link FleetGenerator.Gangs}; default {@code some}: a third of
 * them). {@code --replicas some} follows some pods by copies of the same shape ({@link FleetGenerator.Replicas}). {@code --without} leaves generator features out ({@link FleetGenerator.Feature}, e.g. {@code POD_AFFINITY}); the
 * run says which on its last lines.
 *
 * Generates COUNT snapshots from SEED ({@link FleetGenerator}), runs each through the oracle's scheduler mode
 * ({@code oracle/scheduler/bin/scheduler -}, one process for the run) and through dra4j's simulator with its
 * trace, and compares every attempt ({@link TraceComparison}). Each divergence (at most {@code --shrink-limit}
 * per signature, default 2, within {@code --shrink-seconds} in all, default 120) is shrunk by dropping objects
 * while the same kind of difference remains, and written to DIR (default {@code target/sim-difftest-divergences})
 * as {@code sim-SEED-INDEX.yaml} (the snapshot, headed by the difference) with {@code sim-SEED-INDEX.oracle.jsonl}
 * (upstream's attempts, then its {@code done} line with the run's outcome). The last line is {@code sim-difftest: N snapshots, D divergences}; exit status 0 only
 * when D is 0 and the oracle ran every snapshot (1 otherwise, 2 for bad usage or when the oracle cannot start).
 */
public final class SimDiffTest {
    private static final String USAGE =
            "usage: SimDiffTest SEED COUNT [--from INDEX] [--oracle PATH] [--out DIR] [--shrink-limit N] [--shrink-seconds N]"
                    + " [--without FEATURE,...] [--gangs some|heavy] [--replicas none|some]";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private record Options(
            long seed,
            int count,
            int from,
            Path oracle,
            Path out,
            int shrinkLimit,
            int shrinkSeconds,
            java.util.Set<FleetGenerator.Feature> without,
            FleetGenerator.Gangs gangs,
            FleetGenerator.Replicas replicas) {}

    private record Divergence(
            int index,
            ObjectNode snapshot,
            List<ObjectNode> upstream,
            ObjectNode done,
            TraceComparison.Difference difference) {}

    private SimDiffTest() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("sim-difftest: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (!Files.isExecutable(o.oracle())) {
            err.println("sim-difftest: oracle binary " + o.oracle() + " not found or not executable"
                    + " (build it: cd oracle/scheduler && go build -o bin/scheduler .)");
            return 2;
        }
        try (SchedulerOracle oracle = new SchedulerOracle(o.oracle())) {
            return runAll(o, oracle, out);
        } catch (IOException e) {
            err.println("sim-difftest: " + e.getMessage());
            return 2;
        }
    }

    private static int runAll(Options o, SchedulerOracle oracle, PrintStream out) throws IOException {
        List<Divergence> divergences = new ArrayList<>();
        int oracleErrors = 0;
        int nodeTies = 0;
        int nominationTies = 0;
        long attempts = 0;
        long placed = 0;
        Map<String, Integer> podGroups = new java.util.TreeMap<>();
        for (int i = o.from(); i < o.from() + o.count(); i++) {
            ObjectNode snapshot = FleetGenerator.generate(o.seed(), i, o.without(), o.gangs(), o.replicas());
            SchedulerOracle.Answer upstream = oracle.run(snapshot);
            if (!upstream.error().isEmpty()) {
                oracleErrors++;
                out.println("oracle: snapshot " + i + ": " + upstream.error());
                continue;
            }
            attempts += upstream.attempts().size();
            placed += upstream.attempts().stream()
                    .filter(a -> !a.path("node").asString("").isEmpty())
                    .count();
            countPodGroups(upstream.done(), podGroups);
            TraceComparison.Result r = compare(snapshot, upstream, i);
            if (r.tie() == TraceComparison.Tie.NODE) {
                nodeTies++;
            } else if (r.tie() == TraceComparison.Tie.NOMINATION) {
                nominationTies++;
            }
            if (r.difference().isPresent()) {
                divergences.add(new Divergence(
                        i,
                        snapshot,
                        upstream.attempts(),
                        upstream.done(),
                        r.difference().get()));
            }
        }
        Map<String, Integer> perSignature = new LinkedHashMap<>();
        long deadline = System.nanoTime() + o.shrinkSeconds() * 1_000_000_000L;
        for (Divergence d : divergences) {
            int seen = perSignature.merge(d.difference().signature(), 1, Integer::sum);
            Divergence reported = d;
            if (seen <= o.shrinkLimit() && System.nanoTime() < deadline) {
                reported = shrink(d, oracle, deadline);
            }
            Path file = write(o, reported);
            out.println("divergence " + d.index() + ": " + reported.difference().aspect() + ": "
                    + clip(reported.difference().detail()) + " -> " + file);
        }
        perSignature.forEach((s, n) -> out.println("  " + n + " x " + s));
        out.println("upstream: " + attempts + " attempts, " + placed + " placements; " + nodeTies
                + " snapshots compared up to a tie broken differently among the best nodes, " + nominationTies
                + " among the preemption candidates");
        out.println("upstream's PodGroups: " + podGroups);
        if (o.gangs() != FleetGenerator.Gangs.SOME) {
            out.println("gangs: " + o.gangs().name().toLowerCase(java.util.Locale.ROOT));
        }
        if (o.replicas() != FleetGenerator.Replicas.NONE) {
            out.println("replicas: " + o.replicas().name().toLowerCase(java.util.Locale.ROOT));
        }
        if (!o.without().isEmpty()) {
            out.println("generator features left out: " + o.without());
        }
        if (oracleErrors > 0) {
            out.println("sim-difftest: the oracle could not run " + oracleErrors + " snapshots");
        }
        out.println("sim-difftest: " + o.count() + " snapshots, " + divergences.size() + " divergences");
        return divergences.isEmpty() && oracleErrors == 0 ? 0 : 1;
    }

    /**
     * Counts upstream's PodGroups by how they ended: {@code fit}, {@code held} (PreEnqueue, fewer members than
     * minCount), {@code invalid} (validatePodGroup), {@code unschedulable} (the last cycle's status), and the pods
     * held for a {@code missing} PodGroup.
     */
    private static void countPodGroups(ObjectNode done, Map<String, Integer> counts) {
        JsonNode outcome = done.path("outcome");
        for (Map.Entry<String, JsonNode> e : outcome.path("podGroups").properties()) {
            String status = e.getValue().path("status").asString("");
            String kind = status.isEmpty()
                    ? "fit"
                    : status.startsWith("waiting for minCount")
                            ? "held"
                            : status.startsWith("all pods in a single pod group") ? "invalid" : "unschedulable";
            counts.merge(kind, 1, Integer::sum);
        }
        for (JsonNode m : outcome.path("preEnqueue")) {
            if (m.asString("").startsWith("waiting for pods's pod group")) {
                counts.merge("missing (pods)", 1, Integer::sum);
            }
        }
    }

    private static TraceComparison.Result compare(ObjectNode snapshot, SchedulerOracle.Answer upstream, int index) {
        Dra4jTrace.Run mine;
        try {
            mine = Dra4jTrace.run(snapshot, "gen-" + index);
        } catch (RuntimeException e) {
            return TraceComparison.Result.of(new TraceComparison.Difference(
                    "dra4j", "dra4j " + e.getClass().getSimpleName(), "dra4j failed: " + e));
        }
        return TraceComparison.compare(upstream.attempts(), upstream.done(), mine);
    }

    /** Drops objects one at a time, last first, keeping each drop after which the same difference remains. */
    private static Divergence shrink(Divergence d, SchedulerOracle oracle, long deadline) throws IOException {
        Divergence best = d;
        boolean changed = true;
        while (changed && System.nanoTime() < deadline) {
            changed = false;
            ArrayNode items = (ArrayNode) best.snapshot().get("items");
            for (int i = items.size() - 1; i >= 0 && System.nanoTime() < deadline; i--) {
                ObjectNode candidate = best.snapshot().deepCopy();
                ((ArrayNode) candidate.get("items")).remove(i);
                SchedulerOracle.Answer upstream = oracle.run(candidate);
                if (!upstream.error().isEmpty()) {
                    continue;
                }
                TraceComparison.Result r = compare(candidate, upstream, d.index());
                if (r.difference().isPresent()
                        && r.difference()
                                .get()
                                .signature()
                                .equals(d.difference().signature())) {
                    best = new Divergence(
                            d.index(),
                            candidate,
                            upstream.attempts(),
                            upstream.done(),
                            r.difference().get());
                    items = (ArrayNode) best.snapshot().get("items");
                    changed = true;
                }
            }
        }
        return best;
    }

    private static Path write(Options o, Divergence d) throws IOException {
        Files.createDirectories(o.out());
        String base = "sim-" + o.seed() + "-" + d.index();
        Path yaml = o.out().resolve(base + ".yaml");
        String header = "# sim-difftest seed " + o.seed() + ", snapshot " + d.index() + "\n# "
                + d.difference().aspect() + ": " + d.difference().detail().replace("\n", " ") + "\n";
        Files.writeString(yaml, header + YAML.writeValueAsString(d.snapshot()), StandardCharsets.UTF_8);
        StringBuilder lines = new StringBuilder();
        for (JsonNode a : d.upstream()) {
            lines.append(JSON.writeValueAsString(a)).append('\n');
        }
        lines.append(JSON.writeValueAsString(d.done())).append('\n');
        Files.writeString(o.out().resolve(base + ".oracle.jsonl"), lines.toString(), StandardCharsets.UTF_8);
        return yaml;
    }

    private static String clip(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "…" : s;
    }

    private static Options parse(String[] args) {
        if (args.length < 2) {
            throw new IllegalArgumentException("SEED and COUNT are required");
        }
        long seed;
        int count;
        try {
            seed = Long.parseLong(args[0]);
            count = Integer.parseInt(args[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("SEED and COUNT must be numbers: " + e.getMessage());
        }
        if (count < 0) {
            throw new IllegalArgumentException("COUNT must not be negative");
        }
        int from = 0;
        Path oracle = Path.of("oracle/scheduler/bin/scheduler");
        Path out = Path.of("target/sim-difftest-divergences");
        int shrinkLimit = 2;
        int shrinkSeconds = 120;
        java.util.Set<FleetGenerator.Feature> without = java.util.EnumSet.noneOf(FleetGenerator.Feature.class);
        FleetGenerator.Gangs gangs = FleetGenerator.Gangs.SOME;
        FleetGenerator.Replicas replicas = FleetGenerator.Replicas.NONE;
        for (int i = 2; i < args.length; i++) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String v = args[++i];
            switch (args[i - 1]) {
                case "--from" -> from = Integer.parseInt(v);
                case "--oracle" -> oracle = Path.of(v);
                case "--out" -> out = Path.of(v);
                case "--shrink-limit" -> shrinkLimit = Integer.parseInt(v);
                case "--shrink-seconds" -> shrinkSeconds = Integer.parseInt(v);
                case "--gangs" -> gangs = FleetGenerator.Gangs.parse(v);
                case "--replicas" -> replicas = FleetGenerator.Replicas.parse(v);
                case "--without" -> without.addAll(FleetGenerator.features(v));
                default -> throw new IllegalArgumentException("unknown option " + args[i - 1]);
            }
        }
        if (from < 0) {
            throw new IllegalArgumentException("--from must not be negative");
        }
        return new Options(seed, count, from, oracle, out, shrinkLimit, shrinkSeconds, without, gangs, replicas);
    }
}
