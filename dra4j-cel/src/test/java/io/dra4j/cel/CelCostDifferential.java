package io.dra4j.cel;

import io.dra4j.cel.CelExpressionGenerator.Attr;
import io.dra4j.cel.CelExpressionGenerator.Type;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The differential test of the static cost estimate: expressions from {@link CelExpressionGenerator} (the generator
 * of the CEL differential) and from {@link #costHeavy}, each estimated by dra4j ({@link CompiledExpression#estimatedCost})
 * and by upstream (the CEL oracle in {@code -cost} mode: {@code CompilationResult.MaxCost}). Compared: whether the
 * expression compiles, the estimated maximum cost exactly, and so whether it exceeds the API server's limit.
 *
 * <p>Usage: {@code CelCostDifferential SEED COUNT --oracle PATH [--show N]}. The last line is
 * {@code cel-cost-difftest: N expressions (C compiled, O over the limit upstream), D divergences}; exit status 0
 * without divergences, 1 with, 2 on bad usage.
 */
public final class CelCostDifferential {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(true, true));

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            usage();
        }
        long seed = Long.parseLong(args[0]);
        long count = Long.parseLong(args[1]);
        String oracle = null;
        int show = 20;
        for (int i = 2; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--oracle" -> oracle = args[i + 1];
                case "--show" -> show = Integer.parseInt(args[i + 1]);
                default -> usage();
            }
        }
        if (oracle == null) {
            usage();
        }
        System.exit(new CelCostDifferential().run(seed, count, oracle, show));
    }

    private static void usage() {
        System.err.println("usage: CelCostDifferential SEED COUNT --oracle PATH [--show N]");
        System.exit(2);
    }

    private int run(long seed, long count, String oracle, int show) throws IOException, InterruptedException {
        Random random = new Random(seed);
        CelExpressionGenerator generator = new CelExpressionGenerator(random);
        Process process = new ProcessBuilder(oracle, "-cost")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        long compiled = 0;
        long over = 0;
        long divergences = 0;
        long compileMismatches = 0;
        Map<String, Integer> byKind = new LinkedHashMap<>();
        try (Writer in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (long i = 0; i < count; i++) {
                boolean heavy = random.nextInt(4) == 0;
                String expr = heavy ? costHeavy(random) : generated(random, generator);
                byKind.merge(heavy ? "cost-heavy" : "generated", 1, Integer::sum);
                ObjectNode request = JSON.createObjectNode().put("expr", expr);
                in.write(JSON.writeValueAsString(request));
                in.write('\n');
                in.flush();
                String line = out.readLine();
                if (line == null) {
                    throw new IOException("the CEL oracle ended early");
                }
                JsonNode answer = JSON.readTree(line);
                if (answer.has("bad")) {
                    throw new IllegalStateException("the CEL oracle rejected a request: "
                            + answer.get("bad").asString());
                }
                String upstream = answer.has("compileError")
                        ? "compile error"
                        : answer.get("maxCost").asString();
                CompiledExpression mine = env.compile(expr);
                String dra4j = mine.estimatedCost()
                        .map(c -> Long.toUnsignedString(c.max()))
                        .orElse("compile error");
                if (!answer.has("compileError")) {
                    compiled++;
                    if (Long.compareUnsigned(Long.parseUnsignedLong(upstream), EstimatedCost.LIMIT) > 0) {
                        over++;
                    }
                }
                if (upstream.equals("compile error") != dra4j.equals("compile error")) {
                    // Whether it compiles is the CEL differential's concern (oracle/cel-difftest); counted, not
                    // compared.
                    compileMismatches++;
                } else if (!upstream.equals(dra4j)) {
                    divergences++;
                    if (divergences <= show) {
                        System.out.println("divergence: upstream " + upstream + ", dra4j " + dra4j + ": " + expr);
                    }
                }
            }
        }
        process.waitFor();
        System.out.printf(
                "cases: %s; compiled on one side only (left to oracle/cel-difftest): %d%n", byKind, compileMismatches);
        System.out.printf(
                "cel-cost-difftest: %d expressions (%d compiled, %d over the limit upstream), %d divergences%n",
                count, compiled, over, divergences);
        return divergences == 0 ? 0 : 1;
    }

    private static String generated(Random random, CelExpressionGenerator generator) {
        String driver = generator.drivers()[random.nextInt(2)];
        List<Attr> known = new ArrayList<>();
        known.add(new Attr(driver, "model", Type.STRING, true));
        known.add(new Attr(driver, "cores", Type.INT, true));
        known.add(new Attr(driver, "enabled", Type.BOOL, true));
        known.add(new Attr(driver, "driverVersion", Type.SEMVER, true));
        known.add(new Attr(driver, "numa", Type.list(Type.INT), true));
        known.add(new Attr(driver, "labels", Type.list(Type.STRING), true));
        known.add(new Attr(generator.otherDomain(), "rack", Type.INT, true));
        generator.device(driver, known);
        return generator.selector().render();
    }

    /**
     * Expressions whose estimate is large: nested comprehensions over attribute maps and list attributes, string
     * functions on attribute values (whose declared length is 64), regular expressions, sorting, joins and splits.
     */
    static String costHeavy(Random random) {
        String[] ranges = {
            "device.attributes",
            "device.attributes[\"dra.example.com\"]",
            "device.capacity",
            "device.attributes[\"dra.example.com\"].labels",
            "device.attributes[\"dra.example.com\"].numa",
            "[1, 2, 3]",
            "device.capacity[\"dra.example.com\"]"
        };
        String[] strings = {
            "device.driver",
            "device.attributes[\"dra.example.com\"].model",
            "device.attributes[\"dra.example.com\"][\"model\"]",
            "string(device.attributes[\"d\"].x)",
            "\"abc\"",
            "device.attributes[\"dra.example.com\"].model.lowerAscii()"
        };
        String s1 = strings[random.nextInt(strings.length)];
        String s2 = strings[random.nextInt(strings.length)];
        String r1 = ranges[random.nextInt(ranges.length)];
        String r2 = ranges[random.nextInt(ranges.length)];
        String[] shapes = {
            r1 + ".all(a, " + r2 + ".exists(b, " + s1 + ".matches(" + s2 + ")))",
            r1 + ".all(a, " + r2 + ".all(b, " + ranges[random.nextInt(ranges.length)] + ".exists(c, " + s1 + " == " + s2
                    + ")))",
            s1 + ".matches(" + s2 + ") && " + s2 + ".contains(" + s1 + ")",
            "device.attributes.exists(d, device.attributes[d].exists(k, " + s1 + ".startsWith(k)))",
            "device.attributes[\"dra.example.com\"].labels.sort().join(\",\").split(" + s1 + ").size() > 2",
            r1 + ".map(a, " + r2 + ".filter(b, " + s1 + ".endsWith(" + s2 + "))).size() > 0",
            "cel.bind(x, " + r1 + ", x.exists_one(y, " + r2 + ".exists(z, " + s1 + " < " + s2 + ")))",
            s1 + ".replace(" + s2 + ", " + s1 + ").size() > 3",
            "device.attributes[\"dra.example.com\"].labels.all(l, l.matches(" + s1 + ") && " + s2 + ".matches(l))",
            "sets.contains(device.attributes[\"dra.example.com\"].labels, device.attributes[\"d\"].labels)",
            "device.attributes[\"dra.example.com\"].numa.distinct().size() == 1",
            "device.attributes[\"dra.example.com\"].labels.transformList(i, v, v + " + s1 + ").all(w, w.size() > i)",
            "device.attributes.all(k, v, v.all(k2, v2, " + s1 + ".indexOf(k2) >= 0))",
            "lists.range(100).all(i, " + s1 + ".matches(" + s2 + "))",
            "device.attributes[\"dra.example.com\"].labels.slice(1, 3).all(l, l.split(\"-\").size() > 1)",
            "url(" + s1 + ").getHost() == " + s2 + " && quantity(" + s2 + ").isGreaterThan(quantity(\"1\"))",
            "[" + s1 + ", " + s2 + "].exists(s, s.matches(\"^a+$\") || s.find(\"[0-9]+\") == " + s1 + ")",
            "(" + s1 + " + " + s2 + ").matches(" + s1 + " + " + s2 + ")",
            "(true ? " + r1 + " : " + r2 + ").exists(e, " + s1 + ".contains(" + s2 + "))",
        };
        return shapes[random.nextInt(shapes.length)];
    }
}
