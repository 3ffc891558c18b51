package io.dra4j.testkit.diff;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.ApiValidator;
import io.dra4j.scenario.ManifestProblem;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.testkit.gen.ValidationObjectGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Differential test of dra4j's API validation ({@link ApiValidator}, reached through {@link ManifestReader} as
 * {@code dra4j allocate} reads manifests) against kube-apiserver 1.37's own create path ({@code oracle/validate}).
 *
 * <pre>
 * ValidationDiff SEED COUNT --oracle PATH [--feature-gates A=true,B=false]
 * </pre>
 *
 * With {@code --feature-gates} both API servers run with 1.37's defaults and those DRA gates set (the oracle through
 * its own {@code -feature-gates}, which refuses what kube-apiserver refuses), so that fields of alpha features are
 * validated instead of dropped.
 *
 * Generates COUNT objects from SEED ({@link ValidationObjectGenerator}), has the oracle and dra4j accept or reject
 * each, and compares: whether it is accepted, the set of field paths of the errors, per field path the messages, and
 * the order of the errors (the first one is what {@code dra4j allocate} names). Go iterates maps in random order, so
 * errors under one map (attributes, capacity, counters: a path up to its first {@code [key]}) that come one after
 * another are compared as a set. An object the API server cannot decode (a value of the wrong JSON type, an
 * unparsable quantity) gets a Bad Request without field causes: dra4j must report one problem with that text (after
 * context of its own, if any); a difference there counts as a message difference. Prints one line per difference (at most {@value #SHOWN}), then {@code validate
 * difftest: N objects (A accepted upstream), D differences (R accept/reject, F field paths, M messages, O order)}.
 * Exit status 0 when D is 0; 1 otherwise (a message or order difference fails as an accept/reject one does); 2 for
 * bad usage or when the oracle cannot be run.
 */
public final class ValidationDiff {
    private static final int SHOWN = 40;
    /** A map key in a field path and what follows it: {@code [gpu.example.com/model].string}. */
    private static final java.util.regex.Pattern MAP_KEY =
            java.util.regex.Pattern.compile("\\[[^\\]]*[^0-9\\]][^\\]]*\\].*$");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private ValidationDiff() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        boolean withGates = args.length == 6 && args[4].equals("--feature-gates");
        if (!(args.length == 4 || withGates) || !args[2].equals("--oracle")) {
            err.println("usage: ValidationDiff SEED COUNT --oracle PATH [--feature-gates A=true,B=false]");
            return 2;
        }
        FeatureGates gates = FeatureGates.defaults(KubernetesVersion.V1_37);
        List<String> oracleCommand = new ArrayList<>(List.of(args[3]));
        if (withGates) {
            for (String item : args[5].split(",")) {
                String[] kv = item.split("=", 2);
                java.util.Optional<DraFeature> gate = DraFeature.byGateName(kv[0].trim());
                if (kv.length != 2 || gate.isEmpty()) {
                    err.println("validate difftest: --feature-gates: not a DRA gate dra4j knows: " + item);
                    return 2;
                }
                gates = gates.with(gate.get(), Boolean.parseBoolean(kv[1].trim()));
            }
            oracleCommand.addAll(List.of("-feature-gates", args[5]));
        }
        long seed = Long.parseLong(args[0]);
        int count = Integer.parseInt(args[1]);
        ValidationObjectGenerator gen = new ValidationObjectGenerator(seed);
        List<ObjectNode> objects = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            objects.add(gen.next());
        }
        List<JsonNode> upstream = oracle(oracleCommand, objects, err);
        if (upstream == null) {
            return 2;
        }
        int accepted = 0;
        int acceptReject = 0;
        int fields = 0;
        int messages = 0;
        int order = 0;
        List<String> major = new ArrayList<>();
        List<String> minor = new ArrayList<>();
        for (int i = 0; i < objects.size(); i++) {
            JsonNode u = upstream.get(i);
            // A decode error (a Bad Request without field causes) names no field: it is compared by its text.
            String decodeError = u.has("error") ? u.get("error").asString() : null;
            List<Cause> wantInOrder = new ArrayList<>();
            for (JsonNode c : u.get("causes")) {
                wantInOrder.add(
                        new Cause(c.get("field").asString(), c.get("message").asString()));
            }
            Map<String, List<String>> want =
                    decodeError == null ? byField(wantInOrder) : Map.of("(decoding)", List.of(decodeError));
            boolean upstreamAccepts = u.get("accepted").asBoolean();
            accepted += upstreamAccepts ? 1 : 0;
            List<Cause> gotInOrder = dra4j(objects.get(i), gates);
            Map<String, List<String>> got = byField(gotInOrder);
            String kind;
            if (upstreamAccepts != got.isEmpty()) {
                acceptReject++;
                kind = "accept/reject";
            } else if (decodeError != null) {
                if (gotInOrder.size() == 1 && decodes(gotInOrder.get(0).message(), decodeError)) {
                    continue;
                }
                messages++;
                kind = "decode error";
            } else if (!want.keySet().equals(got.keySet())) {
                fields++;
                kind = "field paths";
            } else if (!sorted(want).equals(sorted(got))) {
                messages++;
                kind = "messages";
            } else if (!runs(wantInOrder).equals(runs(gotInOrder))) {
                order++;
                kind = "order";
                want = inOrder(wantInOrder);
                got = inOrder(gotInOrder);
            } else {
                continue;
            }
            String report =
                    "object " + i + " (" + kind + "): " + shorten(objects.get(i).toString()) + "\n"
                            + "  upstream: " + (upstreamAccepts ? "accepted" : shorten(want.toString())) + "\n"
                            + "  dra4j:    " + (got.isEmpty() ? "accepted" : shorten(got.toString()));
            (kind.equals("accept/reject") || kind.equals("field paths") ? major : minor).add(report);
        }
        // Accept/reject and field-path differences first.
        major.addAll(minor);
        major.stream().limit(SHOWN).forEach(out::println);
        int differences = acceptReject + fields + messages + order;
        out.println("validate difftest: " + objects.size() + " objects (" + accepted + " accepted upstream), "
                + differences + " differences (" + acceptReject + " accept/reject, " + fields + " field paths, "
                + messages + " messages, " + order + " order)");
        return differences == 0 ? 0 : 1;
    }

    /**
     * Whether dra4j's problem is the API server's decode error: the same text, or the text after dra4j's own
     * context (an unparsable quantity's {@code quantity "abc" cannot be parsed: }, which upstream leaves out).
     */
    private static boolean decodes(String dra4j, String upstream) {
        return dra4j.equals(upstream) || dra4j.endsWith(": " + upstream);
    }

    /** Long values (a 10 KiB expression, 254-character names) cut in the report. */
    private static String shorten(String s) {
        return s.replaceAll("(.)\\1{40,}", "$1$1$1...").replace("\n", "\\n");
    }

    /** One field error: its path and message. */
    private record Cause(String field, String message) {}

    private static Map<String, List<String>> byField(List<Cause> causes) {
        Map<String, List<String>> out = new TreeMap<>();
        causes.forEach(
                c -> out.computeIfAbsent(c.field(), k -> new ArrayList<>()).add(c.message()));
        return out;
    }

    /** The errors in order, numbered, for the report of an order difference. */
    private static Map<String, List<String>> inOrder(List<Cause> causes) {
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < causes.size(); i++) {
            out.put(i + " " + causes.get(i).field(), List.of(causes.get(i).message()));
        }
        return out;
    }

    /**
     * The errors as runs of neighbours under one map (the path up to its first non-numeric {@code [key]}), each run
     * sorted: the order that does not depend on Go's map iteration.
     */
    private static List<List<String>> runs(List<Cause> causes) {
        List<List<String>> out = new ArrayList<>();
        String runKey = null;
        for (Cause c : causes) {
            String key = MAP_KEY.matcher(c.field()).replaceFirst("");
            if (!key.equals(runKey)) {
                out.add(new ArrayList<>());
                runKey = key;
            }
            out.get(out.size() - 1).add(c.field() + ": " + c.message());
        }
        out.forEach(run -> run.sort(null));
        return out;
    }

    private static Map<String, List<String>> sorted(Map<String, List<String>> m) {
        Map<String, List<String>> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.stream().sorted().toList()));
        return out;
    }

    /**
     * dra4j's errors by field: the reader's problem for an object it cannot decode, else the validator's (given the
     * object's text, as the reader gives it its input). An object
     * without a name is decoded directly (the reader stops at the missing name; the validator reports it with the
     * other errors, as the API server does).
     */
    private static List<Cause> dra4j(ObjectNode object, FeatureGates gates) {
        Manifests m = ManifestReader.parse(
                List.of(new ManifestReader.Source("generated", object.toString().getBytes(StandardCharsets.UTF_8))),
                false);
        List<Cause> out = new ArrayList<>();
        List<HasMetadata> decoded =
                new ArrayList<>(m.objects().stream().map(o -> o.object()).toList());
        for (ManifestProblem p : m.problems()) {
            if (p.field().equals("metadata.name") && p.message().startsWith("Required value")) {
                decoded.add(SERIALIZATION.unmarshal(object.toString(), HasMetadata.class));
            } else {
                out.add(new Cause(p.field(), p.message()));
            }
        }
        for (HasMetadata value : decoded) {
            for (ApiValidator.FieldError e : ApiValidator.defaultAndValidate(value, object.toString(), gates)) {
                out.add(new Cause(e.field(), e.message()));
            }
        }
        return out;
    }

    /** The oracle's line per object, or null after saying why it could not be run. */
    private static List<JsonNode> oracle(List<String> command, List<ObjectNode> objects, PrintStream err)
            throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            err.println("validate difftest: cannot run the oracle " + command + ": " + e.getMessage());
            return null;
        }
        Thread writer = new Thread(() -> {
            try (Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
                for (ObjectNode o : objects) {
                    w.write(o.toString());
                    w.write('\n');
                }
            } catch (IOException e) {
                // the reader below sees the missing lines
            }
        });
        writer.start();
        List<JsonNode> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(JSON.readTree(line));
            }
        }
        writer.join();
        int status = p.waitFor();
        if (status != 0 || lines.size() != objects.size()) {
            err.println("validate difftest: the oracle exited with " + status + " after " + lines.size() + " of "
                    + objects.size() + " objects");
            return null;
        }
        return lines;
    }
}
