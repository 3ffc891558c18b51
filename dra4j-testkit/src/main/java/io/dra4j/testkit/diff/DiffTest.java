package io.dra4j.testkit.diff;

import io.dra4j.testkit.gen.ScenarioGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Differential test of dra4j against the upstream Go allocator.
 *
 * <pre>
 * DiffTest SEED COUNT [--out DIR] [--oracle PATH] [--shrink-limit N] [--shrink-tries N] [--shrink-seconds N]
 * </pre>
 *
 * Generates COUNT scenarios from SEED ({@link ScenarioGenerator}), runs them through the oracle
 * ({@code oracle/bin/oracle -}, one process fed JSON lines) and through dra4j in this process (the code path of
 * {@code dra4j allocate}), and compares the outcomes ({@link OutcomeComparison}). Each divergence is shrunk
 * ({@link Shrinker}; at most {@code --shrink-limit} per class of divergence, default 3, the others are written as
 * generated, as are all once {@code --shrink-seconds} of shrinking, default 120, are spent) and written as a
 * scenario file to DIR (default {@code target/difftest-divergences}, whose gen-*.yaml files from an earlier run are
 * removed first), with one summary
 * line printed per divergence. The last line is {@code difftest: N scenarios, D divergences}; the exit status is 0
 * only when D is 0 (1 for divergences, 2 for bad usage or when the oracle cannot be run).
 */
public final class DiffTest {
    private static final String USAGE =
            "usage: DiffTest SEED COUNT [--out DIR] [--oracle PATH] [--shrink-limit N] [--shrink-tries N]"
                    + " [--shrink-seconds N]";
    private static final int SUMMARY_LIMIT = 300;
    private static final int STABLE_RETRIES = 30;

    private record Options(
            long seed, int count, Path out, Path oracle, int shrinkLimit, int shrinkTries, int shrinkSeconds) {}

    private DiffTest() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("difftest: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (!Files.isExecutable(options.oracle())) {
            err.println("difftest: oracle binary " + options.oracle()
                    + " not found or not executable (build it: cd oracle && go build -o bin/oracle ./cmd/oracle)");
            return 2;
        }
        try {
            Path scratch = Files.createTempDirectory("difftest");
            try (OracleProcess oracle = new OracleProcess(options.oracle())) {
                return compareAll(options, oracle, new Dra4jEngine(scratch), out);
            } finally {
                Files.deleteIfExists(scratch.resolve("scenario.yaml"));
                Files.deleteIfExists(scratch);
            }
        } catch (IOException | UncheckedIOException e) {
            err.println("difftest: " + e.getMessage());
            return 2;
        }
    }

    private static int compareAll(Options options, OracleProcess oracle, Engine dra4j, PrintStream out)
            throws IOException {
        // Phase 1: generate, and let the oracle answer the whole batch through its stream.
        List<ObjectNode> scenarios = new ArrayList<>(options.count());
        List<String> lines = new ArrayList<>(options.count());
        for (int i = 0; i < options.count(); i++) {
            ObjectNode scenario = ScenarioGenerator.generate(options.seed(), i);
            scenarios.add(scenario);
            lines.add(ScenarioGenerator.toJsonLine(scenario));
        }
        List<JsonNode> upstream = oracle.runAll(lines);

        // Phase 2: dra4j on the same scenarios, compared one by one.
        List<Divergence> divergences = new ArrayList<>();
        int unreadable = 0;
        int stableCount = 0;
        for (int i = 0; i < scenarios.size(); i++) {
            if (OracleProcess.isReadError(upstream.get(i))) {
                // The generator wrote something upstream cannot read: a generator bug, not an allocator divergence.
                unreadable++;
                out.println("generator: oracle cannot read "
                        + scenarios.get(i).path("name").asString("") + ": "
                        + upstream.get(i).path("error").asString(""));
                continue;
            }
            JsonNode mine = dra4j.run(scenarios.get(i));
            boolean stable = UpstreamVariant.isStable(scenarios.get(i));
            if (stable) {
                stableCount++;
            }
            Optional<OutcomeComparison.Difference> difference =
                    difference(scenarios.get(i), upstream.get(i), mine, oracle);
            if (difference.isPresent()) {
                divergences.add(new Divergence(scenarios.get(i), upstream.get(i), mine, difference.get()));
            }
        }

        // Phase 3: shrink (a few per kind of difference) and write each divergence.
        DivergenceWriter writer = new DivergenceWriter(options.out());
        Map<String, Integer> perClass = new LinkedHashMap<>();
        long shrinkDeadline = System.nanoTime() + options.shrinkSeconds() * 1_000_000_000L;
        for (Divergence divergence : divergences) {
            String aspect = divergence.difference().aspect();
            int seen = perClass.merge(
                    signature(divergence.difference(), divergence.upstream(), divergence.dra4j()), 1, Integer::sum);
            Divergence reported = divergence;
            boolean shrunk = seen <= options.shrinkLimit() && System.nanoTime() < shrinkDeadline;
            if (shrunk) {
                reported = shrink(divergence, oracle, dra4j, options.shrinkTries(), shrinkDeadline);
            }
            Path file = writer.write(reported, shrunk, "seed " + options.seed() + ", scenario " + divergence.name());
            out.println("divergence " + divergence.name() + ": " + aspect + ": "
                    + clip(reported.difference().detail()) + " -> " + file);
        }
        perClass.forEach((signature, n) -> out.println("  " + n + " x " + clip(signature)));
        Map<String, Integer> kinds = new TreeMap<>();
        upstream.forEach(o -> kinds.merge(o.path("outcome").asString("?"), 1, Integer::sum));
        out.println("coverage (scenarios per feature): " + Coverage.of(scenarios, upstream));
        out.println("upstream outcomes: " + kinds + "; stable variant (devices not compared): " + stableCount);
        if (unreadable > 0) {
            out.println("difftest: " + unreadable + " generated scenarios could not be read by the oracle");
        }
        out.println("difftest: " + scenarios.size() + " scenarios, " + divergences.size() + " divergences");
        return divergences.isEmpty() && unreadable == 0 ? 0 : 1;
    }

    /** The smallest scenario that still shows the same kind of difference, with its own outcomes. */
    private static Divergence shrink(
            Divergence divergence, OracleProcess oracle, Engine dra4j, int maxTries, long deadline) {
        String signature = signature(divergence.difference(), divergence.upstream(), divergence.dra4j());
        Divergence[] last = {divergence};
        Shrinker.shrink(
                divergence.scenario(),
                candidate -> {
                    if (System.nanoTime() > deadline) {
                        return false;
                    }
                    try {
                        JsonNode upstream = oracle.run(ScenarioGenerator.toJsonLine(candidate));
                        if (OracleProcess.isReadError(upstream)) {
                            return false;
                        }
                        JsonNode mine = dra4j.run(candidate);
                        Optional<OutcomeComparison.Difference> d = difference(candidate, upstream, mine, oracle);
                        if (d.isPresent() && signature(d.get(), upstream, mine).equals(signature)) {
                            last[0] = new Divergence(candidate, upstream, mine, d.get());
                            return true;
                        }
                        return false;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                maxTries);
        return last[0];
    }

    /**
     * How dra4j's outcome differs from upstream's. Upstream's stable variant visits pools in Go map order, so there
     * the outcome itself (not only the devices) can change from run to run; a difference then counts only when none
     * of {@value #STABLE_RETRIES} further oracle runs gives dra4j's outcome.
     */
    private static Optional<OutcomeComparison.Difference> difference(
            ObjectNode scenario, JsonNode upstream, JsonNode mine, OracleProcess oracle) throws IOException {
        boolean stable = UpstreamVariant.isStable(scenario);
        Optional<OutcomeComparison.Difference> difference = OutcomeComparison.compare(upstream, mine, stable);
        if (difference.isEmpty() || !stable) {
            return difference;
        }
        String line = ScenarioGenerator.toJsonLine(scenario);
        for (int i = 0; i < STABLE_RETRIES; i++) {
            if (OutcomeComparison.compare(oracle.run(line), mine, true).isEmpty()) {
                return Optional.empty();
            }
        }
        return difference;
    }

    /**
     * What must stay the same while shrinking: the kind of difference and the shape of both outcomes (the kind, and
     * for errors the message with names and numbers blanked out), so that shrinking does not drift from one
     * divergence to another.
     */
    static String signature(OutcomeComparison.Difference difference, JsonNode upstream, JsonNode dra4j) {
        return difference.aspect() + " | " + shape(upstream) + " | " + shape(dra4j);
    }

    private static String shape(JsonNode outcome) {
        String kind = outcome.path("outcome").asString("");
        if (!kind.equals("error")) {
            return kind;
        }
        String message =
                outcome.path("error").asString("").strip().replaceAll("[A-Za-z0-9_./-]*[0-9][A-Za-z0-9_./-]*", "#");
        return "error: " + (message.length() <= 80 ? message : message.substring(0, 80));
    }

    private static Options parse(String[] args) {
        List<String> positional = new ArrayList<>();
        Path out = Path.of("target", "difftest-divergences");
        Path oracle = Path.of("oracle", "bin", "oracle");
        int shrinkLimit = 3;
        int shrinkTries = 2000;
        int shrinkSeconds = 120;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--out" -> out = Path.of(value(args, ++i, arg));
                case "--oracle" -> oracle = Path.of(value(args, ++i, arg));
                case "--shrink-limit" -> shrinkLimit = number(value(args, ++i, arg), arg);
                case "--shrink-tries" -> shrinkTries = number(value(args, ++i, arg), arg);
                case "--shrink-seconds" -> shrinkSeconds = number(value(args, ++i, arg), arg);
                default -> {
                    if (arg.startsWith("--")) {
                        throw new IllegalArgumentException("unknown option " + arg);
                    }
                    positional.add(arg);
                }
            }
        }
        if (positional.size() != 2) {
            throw new IllegalArgumentException("expected SEED and COUNT, got " + positional);
        }
        long seed;
        try {
            seed = Long.parseLong(positional.get(0));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("SEED must be an integer, got '" + positional.get(0) + "'");
        }
        return new Options(
                seed, number(positional.get(1), "COUNT"), out, oracle, shrinkLimit, shrinkTries, shrinkSeconds);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int number(String text, String what) {
        try {
            int n = Integer.parseInt(text);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a non-negative integer, got '" + text + "'");
        }
    }

    private static String clip(String text) {
        String s = text.replace("\n", " \\n ");
        return s.length() <= SUMMARY_LIMIT ? s : s.substring(0, SUMMARY_LIMIT) + "...";
    }
}
