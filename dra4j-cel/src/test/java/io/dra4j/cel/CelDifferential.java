package io.dra4j.cel;

import io.dra4j.cel.CelExpressionGenerator.Attr;
import io.dra4j.cel.CelExpressionGenerator.Node;
import io.dra4j.cel.CelExpressionGenerator.Type;
import io.dra4j.cel.internal.SelectorProgram;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The generated CEL differential test: expressions from {@link CelExpressionGenerator} on generated devices, each
 * evaluated by dra4j ({@link DeviceSelectorEnvironment}) and by upstream (the CEL oracle, {@code oracle/cel}:
 * kube-scheduler's {@code cel.Cache}, {@code DeviceMatches}, {@code EnhanceRuntimeError}). Compared: the compile
 * error text, the runtime error text (value probes make the error text carry the values), the match, and the actual
 * cost of a match. Divergences are shrunk (subexpressions replaced by smaller ones of the same type, device entries
 * removed) and written, with upstream's outcome as the expectation, in the format of
 * {@code selector-upstream.jsonl}.
 *
 * <p>Usage: {@code CelDifferential SEED COUNT --oracle PATH [--out FILE] [--show N] [--shrink N]} ({@code --shrink}:
 * shrink at most N divergences). The last line printed is the summary
 * {@code cel-difftest: N expressions, D divergences, K known differences}: a known difference is one the README
 * lists with its reason ({@link #knownDifference}); a different cost of a match (both within the limit, so the limit
 * trips alike) is counted on the line before. Exit status 0 without divergences, 1 with, 2 on bad usage or when the
 * oracle fails.
 */
public final class CelDifferential {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Requests generated ahead of the oracle's answers. */
    private static final int PIPELINE = 256;

    private static final int SHRINK_TRIES = 400;

    private final DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(true, true));
    private final Map<String, Integer> outcomes = new LinkedHashMap<>();
    private final Map<String, Integer> kinds = new LinkedHashMap<>();
    private final Map<String, Integer> known = new LinkedHashMap<>();
    private long nondeterministic;
    private long costDifferences;
    private long slow;

    /** One generated case: the expression tree and the request (expression and device) sent to both sides. */
    record Case(Node expr, ObjectNode request) {}

    /** An outcome of one side: {@code compileError}, {@code error} or {@code match} with its text or value. */
    record Outcome(String kind, String text, Long cost) {
        static Outcome of(JsonNode o) {
            if (o.has("compileError")) {
                return new Outcome("compileError", o.get("compileError").asString(), null);
            }
            if (o.has("error")) {
                return new Outcome("error", o.get("error").asString(), null);
            }
            return new Outcome(
                    "match",
                    String.valueOf(o.get("match").asBoolean()),
                    o.has("cost") ? o.get("cost").asLong() : null);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            usage();
        }
        long seed;
        long count;
        try {
            seed = Long.parseLong(args[0]);
            count = Long.parseLong(args[1]);
        } catch (NumberFormatException e) {
            usage();
            return;
        }
        String oracle = null;
        Path out = Path.of("target/cel-difftest-divergences.jsonl");
        int show = 20;
        int shrinkLimit = Integer.MAX_VALUE;
        for (int i = 2; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--oracle" -> oracle = args[i + 1];
                case "--out" -> out = Path.of(args[i + 1]);
                case "--show" -> show = Integer.parseInt(args[i + 1]);
                case "--shrink" -> shrinkLimit = Integer.parseInt(args[i + 1]);
                default -> usage();
            }
        }
        if (oracle == null) {
            usage();
        }
        System.exit(new CelDifferential().run(seed, count, oracle, out, show, shrinkLimit));
    }

    private static void usage() {
        System.err.println("usage: CelDifferential SEED COUNT --oracle PATH [--out FILE] [--show N] [--shrink N]");
        System.exit(2);
    }

    private int run(long seed, long count, String oracle, Path out, int show, int shrinkLimit) throws Exception {
        List<Case> divergent = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        long started = System.nanoTime();
        try (Oracle upstream = new Oracle(oracle)) {
            BlockingQueue<Case> pending = new ArrayBlockingQueue<>(PIPELINE);
            Thread feeder = new Thread(() -> feed(seed, count, upstream, pending), "cel-difftest-feeder");
            feeder.setDaemon(true);
            feeder.start();
            for (long i = 0; i < count; i++) {
                Case c = pending.take();
                JsonNode answer = upstream.read();
                String reason = compare(c, answer, true);
                if (reason != null) {
                    String known = knownDifference(c, answer);
                    if (known != null) {
                        this.known.merge(known, 1, Integer::sum);
                    } else {
                        divergent.add(c);
                        reasons.add(reason);
                    }
                }
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        List<String> lines = new ArrayList<>();
        int divergences = divergent.size();
        try (Oracle upstream = new Oracle(oracle)) {
            for (int i = 0; i < divergent.size(); i++) {
                Case small = i < shrinkLimit ? shrink(divergent.get(i), upstream) : divergent.get(i);
                JsonNode answer = upstream.ask(small.request());
                String reason = compare(small, answer, false);
                ObjectNode fact = small.request().deepCopy();
                fact.set("expect", expectation(answer));
                lines.add(JSON.writeValueAsString(fact));
                if (i < show) {
                    System.out.println("divergence: " + (reason == null ? reasons.get(i) : reason));
                    System.out.println("  expr: " + small.request().get("expr").asString());
                    System.out.println("  device: " + JSON.writeValueAsString(deviceOnly(small.request())));
                }
            }
        }
        if (!lines.isEmpty()) {
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.write(out, lines, StandardCharsets.UTF_8);
            System.out.println("shrunk divergences written to " + out);
        }
        System.out.printf(
                "outcomes (upstream): %s; kinds: %s; nondeterministic %d; slow (> 1 s in dra4j) %d; %.0f s%n",
                outcomes, kinds, nondeterministic, slow, seconds);
        System.out.printf(
                "known differences (README, CEL): %s; cost differences within the limit: %d%n", known, costDifferences);
        System.out.printf(
                "cel-difftest: %d expressions, %d divergences, %d known differences%n",
                count,
                divergences,
                known.values().stream().mapToInt(Integer::intValue).sum());
        return divergences == 0 ? 0 : 1;
    }

    /** Generates the cases and streams their requests to the oracle, ahead of the comparison. */
    private static void feed(long seed, long count, Oracle upstream, BlockingQueue<Case> pending) {
        Random random = new Random(seed);
        CelExpressionGenerator generator = new CelExpressionGenerator(random);
        try {
            for (long i = 0; i < count; i++) {
                Case c = generate(random, generator);
                pending.put(c);
                upstream.write(c.request());
            }
            upstream.flush();
        } catch (IOException | InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.err.println("cel-difftest: the generator failed");
            System.exit(2);
        }
    }

    private static Case generate(Random random, CelExpressionGenerator generator) {
        String driver = generator.drivers()[random.nextInt(2)];
        ObjectNode request = JSON.createObjectNode();
        ObjectNode attrs = request.putObject("attrs");
        List<Attr> known = new ArrayList<>();
        addAttr(random, attrs, known, driver, "model", Type.STRING);
        addAttr(random, attrs, known, driver, "cores", Type.INT);
        addAttr(random, attrs, known, driver, "enabled", Type.BOOL);
        addAttr(random, attrs, known, driver, "driverVersion", Type.SEMVER);
        addAttr(random, attrs, known, driver, "numa", Type.list(Type.INT));
        addAttr(random, attrs, known, driver, "labels", Type.list(Type.STRING));
        addAttr(random, attrs, known, driver, "flags", Type.list(Type.BOOL));
        addAttr(random, attrs, known, driver, "versions", Type.list(Type.SEMVER));
        addAttr(random, attrs, known, generator.otherDomain(), "rack", Type.INT);
        ObjectNode capacity = request.putObject("capacity");
        String[] memory = {"80Gi", "1Gi", "500m", "0", "16", "1.5Ti", "123456789012345678901234567890"};
        if (random.nextInt(10) != 0) {
            capacity.put("memory", memory[random.nextInt(memory.length)]);
        }
        capacity.put("cores", String.valueOf(random.nextInt(128)));
        if (random.nextBoolean()) {
            capacity.put(generator.otherDomain() + "/bandwidth", "10G");
        }
        generator.device(driver, known);
        Node expr = generator.selector();
        request.put("expr", expr.render());
        request.put("driver", driver);
        if (random.nextInt(3) != 0) {
            request.put("multi", random.nextBoolean());
        }
        return new Case(expr, request);
    }

    private static void addAttr(
            Random random, ObjectNode attrs, List<Attr> known, String domain, String name, Type type) {
        boolean present = random.nextInt(5) != 0;
        known.add(new Attr(domain, name, type, present));
        if (!present) {
            return;
        }
        String key = domain.equals("other.example.com") ? domain + "/" + name : name;
        ObjectNode value = attrs.putObject(key);
        String[] strings = {"a100", "H100 80GB", "", "héllo", "gpu-0", "1.5", "v1", "a\"b\\c"};
        String[] versions = {"1.2.3", "2.0.0-rc.1", "0.1.0+build.7", "10.0.0", "1.0.0-alpha.beta"};
        long[] ints = {0, 1, 8, -3, 80, Long.MAX_VALUE, Long.MIN_VALUE};
        int size = 1 + random.nextInt(3);
        switch (type.name()) {
            case "string" -> value.put("string", strings[random.nextInt(strings.length)]);
            case "int" -> value.put("int", ints[random.nextInt(ints.length)]);
            case "bool" -> value.put("bool", random.nextBoolean());
            case "semver" ->
                value.put("version", random.nextInt(50) == 0 ? "1.2" : versions[random.nextInt(versions.length)]);
            default -> {
                var list = value.putArray(
                        switch (type.elem().name()) {
                            case "int" -> "ints";
                            case "string" -> "strings";
                            case "bool" -> "bools";
                            default -> "versions";
                        });
                for (int i = 0; i < size; i++) {
                    switch (type.elem().name()) {
                        case "int" -> list.add(ints[random.nextInt(ints.length)]);
                        case "string" -> list.add(strings[random.nextInt(strings.length)]);
                        case "bool" -> list.add(random.nextBoolean());
                        default -> list.add(versions[random.nextInt(versions.length)]);
                    }
                }
            }
        }
    }

    /**
     * The known difference (listed in the README with its reason) a divergent case shows, or null. Decided on the
     * case's construct or on upstream's outcome, not on dra4j's, except for the parser's expected tokens: that syntax
     * error is known only where dra4j's text is upstream's but for the tokens after "expecting".
     */
    private String knownDifference(Case c, JsonNode answer) {
        String expr = c.request().get("expr").asString();
        String upstream = String.valueOf(
                answer.path("error").asString(answer.path("compileError").asString("")));
        if (GO_ZONE.matcher(expr).find()) {
            return "time zone text";
        }
        if (upstream.contains("expected type 'bool' but found")) {
            return "logical operator type error text";
        }
        if (OFFSET_TIMESTAMP.matcher(upstream).find()) {
            return "timestamp offset";
        }
        if (upstream.startsWith("internal error:")) {
            return "upstream internal error";
        }
        if (answer.has("error") && OFFSET_TIMESTAMP.matcher(expr).find() && expr.contains("semver(")) {
            // string(t) of a timestamp with an offset, parsed as a version: the error names no timestamp.
            return "timestamp offset";
        }
        if (answer.has("compileError") && EXPECTED_TOKENS.matcher(upstream).find()) {
            Outcome actual = dra4j(c.request());
            if (actual.kind().equals("compileError")
                    && withoutExpectedTokens(actual.text()).equals(withoutExpectedTokens(upstream))) {
                return "parser expected tokens";
            }
        }
        return null;
    }

    /** A syntax error's list of the tokens the parser expected: to the end of the error's line. */
    private static final java.util.regex.Pattern EXPECTED_TOKENS =
            java.util.regex.Pattern.compile("(Syntax error: [^\\n]*?) expecting [^\\n]*");

    private static String withoutExpectedTokens(String text) {
        return EXPECTED_TOKENS.matcher(text).replaceAll("$1 expecting ...");
    }

    /** Zone arguments Go's time.LoadLocation or cel-go's offset parsing read otherwise than java.time. */
    private static final java.util.regex.Pattern GO_ZONE =
            java.util.regex.Pattern.compile("\\.get\\w+\\(\"(Z|local|\\+25:00)\"\\)");

    private static final java.util.regex.Pattern OFFSET_TIMESTAMP =
            java.util.regex.Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?[+-]\\d\\d:\\d\\d");

    /** Null when dra4j agrees with upstream, else what differs. {@code count} records the case in the statistics. */
    private String compare(Case c, JsonNode answer, boolean count) {
        if (answer.has("bad")) {
            throw new IllegalStateException(
                    "the CEL oracle rejected a request: " + answer.get("bad").asString());
        }
        Outcome expected = Outcome.of(answer);
        List<Outcome> allowed = new ArrayList<>();
        allowed.add(expected);
        for (JsonNode alt : answer.path("alternatives")) {
            allowed.add(Outcome.of(alt));
        }
        long t0 = System.nanoTime();
        Outcome actual = dra4j(c.request());
        if (count) {
            if ((System.nanoTime() - t0) > 1_000_000_000L) {
                slow++;
            }
            outcomes.merge(expected.kind(), 1, Integer::sum);
            kinds.merge(
                    c.expr().type().name().equals("bool")
                                    && c.request().get("expr").asString().startsWith("ip(\"%\"")
                            ? "probe"
                            : "bool",
                    1,
                    Integer::sum);
            if (allowed.size() > 1) {
                nondeterministic++;
            }
        }
        for (Outcome o : allowed) {
            if (o.kind().equals(actual.kind())
                    && o.text().equals(actual.text())
                    && (o.cost() == null || actual.cost() == null || o.cost().equals(actual.cost()))) {
                return null;
            }
        }
        if (expected.kind().equals(actual.kind()) && expected.text().equals(actual.text())) {
            // A match stayed within the cost limit on both sides, so the limit trips alike: counted, not a divergence.
            if (count) {
                costDifferences++;
                if (costDifferences <= 5) {
                    System.out.println("cost difference: upstream " + expected.cost() + ", dra4j " + actual.cost()
                            + ": " + c.request().get("expr").asString());
                }
            }
            return null;
        }
        return expected.kind() + " " + quoteText(expected.text()) + " (upstream) vs " + actual.kind() + " "
                + quoteText(actual.text()) + " (dra4j)";
    }

    private static String quoteText(String s) {
        return JSON.writeValueAsString(s);
    }

    private Outcome dra4j(ObjectNode request) {
        try {
            CompiledExpression compiled = env.compile(request.get("expr").asString());
            if (compiled.compileError().isPresent()) {
                return new Outcome("compileError", compiled.compileError().get(), null);
            }
            CelDevice device =
                    env.device(request.path("driver").asString(""), UpstreamSelectorFactsTest.device(request));
            EvalResult result = compiled.evaluate(device);
            if (result instanceof EvalResult.Failed failed) {
                return new Outcome("error", failed.message(), null);
            }
            boolean match = ((EvalResult.Matched) result).value();
            SelectorProgram program = compiled.program().orElseThrow();
            return new Outcome("match", String.valueOf(match), program.cost(device.view()));
        } catch (Exception | StackOverflowError e) {
            return new Outcome("exception", String.valueOf(e), null);
        }
    }

    /**
     * Whether a shrink candidate still shows an unknown divergence: one that shows a known difference instead would let
     * the shrinker drift away from what it shrinks.
     */
    private boolean stillDiverges(Case c, Oracle upstream) throws IOException {
        JsonNode answer = upstream.ask(c.request());
        return compare(c, answer, false) != null && knownDifference(c, answer) == null;
    }

    /** Smaller cases that still diverge: subexpressions replaced, then device entries removed. */
    private Case shrink(Case c, Oracle upstream) throws IOException {
        Case best = c;
        int tries = 0;
        boolean progress = true;
        while (progress && tries < SHRINK_TRIES) {
            progress = false;
            int size = best.expr().size();
            for (int at = 0; at < size && !progress && tries < SHRINK_TRIES; at++) {
                Node target = nodeAt(best.expr(), at);
                List<Node> candidates = new ArrayList<>();
                collectSameType(target, target.type(), candidates);
                candidates.add(CelExpressionGenerator.minimal(target.type()));
                for (Node candidate : candidates) {
                    if (candidate == target
                            || candidate.size() >= target.size()
                                    && !candidate.kids().isEmpty()) {
                        continue;
                    }
                    Node replaced = replaceAt(best.expr(), at, candidate);
                    if (replaced.render().equals(best.expr().render())
                            || replaced.size() > best.expr().size()) {
                        continue;
                    }
                    ObjectNode request = best.request().deepCopy();
                    request.put("expr", replaced.render());
                    Case next = new Case(replaced, request);
                    tries++;
                    if (stillDiverges(next, upstream)) {
                        best = next;
                        progress = true;
                        break;
                    }
                }
            }
        }
        for (String field : List.of("attrs", "capacity")) {
            List<String> names = new ArrayList<>();
            best.request().path(field).propertyNames().forEach(names::add);
            for (String name : names) {
                ObjectNode request = best.request().deepCopy();
                ((ObjectNode) request.get(field)).remove(name);
                Case next = new Case(best.expr(), request);
                if (stillDiverges(next, upstream)) {
                    best = next;
                }
            }
        }
        return best;
    }

    private static void collectSameType(Node node, Type type, List<Node> out) {
        for (Node kid : node.kids()) {
            if (kid.type().equals(type)) {
                out.add(kid);
            }
            collectSameType(kid, type, out);
        }
    }

    private static Node nodeAt(Node root, int index) {
        Iterator<Node> it = preorder(root).iterator();
        for (int i = 0; i < index; i++) {
            it.next();
        }
        return it.next();
    }

    private static List<Node> preorder(Node root) {
        List<Node> out = new ArrayList<>();
        out.add(root);
        for (Node kid : root.kids()) {
            out.addAll(preorder(kid));
        }
        return out;
    }

    private static Node replaceAt(Node root, int index, Node replacement) {
        int[] counter = {index};
        return replace(root, counter, replacement);
    }

    private static Node replace(Node node, int[] counter, Node replacement) {
        if (counter[0] == 0) {
            counter[0] = -1;
            return replacement;
        }
        counter[0]--;
        if (counter[0] < 0) {
            return node;
        }
        List<Node> kids = new ArrayList<>();
        for (Node kid : node.kids()) {
            kids.add(counter[0] < 0 ? kid : replace(kid, counter, replacement));
        }
        return new Node(node.type(), node.template(), kids);
    }

    private static JsonNode expectation(JsonNode answer) {
        ObjectNode expect = JSON.createObjectNode();
        for (String field : List.of("compileError", "error", "match", "cost")) {
            if (answer.has(field)) {
                expect.set(field, answer.get(field));
            }
        }
        return expect;
    }

    private static ObjectNode deviceOnly(ObjectNode request) {
        ObjectNode device = request.deepCopy();
        device.remove("expr");
        return device;
    }

    /** The CEL oracle process: JSON lines in, one JSON line out per request. */
    private static final class Oracle implements AutoCloseable {
        private final Process process;
        private final Writer in;
        private final BufferedReader out;

        Oracle(String path) throws IOException {
            process = new ProcessBuilder(path)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /** Writes one request; only one thread writes. */
        void write(JsonNode request) throws IOException {
            in.write(JSON.writeValueAsString(request));
            in.write('\n');
            in.flush();
        }

        void flush() throws IOException {
            in.flush();
        }

        /** Reads the next answer; only one thread reads. */
        JsonNode read() throws IOException {
            String line = out.readLine();
            if (line == null) {
                throw new IOException("the CEL oracle ended early");
            }
            return JSON.readTree(line);
        }

        JsonNode ask(JsonNode request) throws IOException {
            write(request);
            return read();
        }

        @Override
        public void close() throws IOException {
            in.close();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Objects.requireNonNull(out);
        }
    }
}
