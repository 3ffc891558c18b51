package io.dra4j.migrate;

import io.dra4j.migrate.internal.ClusterRules;
import io.dra4j.migrate.internal.DocumentRules;
import io.dra4j.migrate.internal.LintObjects;
import io.dra4j.migrate.internal.LintTables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks manifests against a Kubernetes release (1.32 to 1.37): API versions it does not serve or serves only when
 * enabled, fields behind feature gates that are off or alpha there, CEL selectors the API server would reject, and,
 * given a snapshot of the cluster, classes and requests that match no device, claims no node can satisfy, devices
 * advertised twice, duplicate classes, hardware asked for by node label and quota that no longer limits. The rules
 * are in {@link #RULES} and docs/lint.md. Immutable and thread-safe; every call works on its own state.
 */
public final class Lint {
    /** A text to lint and the name findings give it. */
    public record Input(String source, String text) {
        public Input {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(text, "text");
        }
    }

    /** A rule: its name, the severity of its findings and what it checks. */
    public record Rule(String id, Finding.Severity severity, String summary) {}

    /** Every rule lint applies, with the severity of its findings. */
    public static final List<Rule> RULES = List.of(
            new Rule("invalid-yaml", Finding.Severity.ERROR, "the document is not YAML that kubectl reads"),
            new Rule("not-kubernetes", Finding.Severity.ERROR, "the document is not a Kubernetes object"),
            new Rule("no-v1-form", Finding.Severity.ERROR, "a resource.k8s.io object or field has no v1 form"),
            new Rule("invalid-field", Finding.Severity.ERROR, "a field of an old-version object has the wrong shape"),
            new Rule("unknown-field", Finding.Severity.ERROR, "an old-version object has a field its version lacks"),
            new Rule("invalid-object", Finding.Severity.ERROR, "the API server would reject the object (validation)"),
            new Rule(
                    "api-version-not-served",
                    Finding.Severity.ERROR,
                    "the release does not serve the object's resource.k8s.io version"),
            new Rule(
                    "api-version-off-by-default",
                    Finding.Severity.WARNING,
                    "the release serves the version only with --runtime-config"),
            new Rule("api-version-deprecated", Finding.Severity.WARNING, "the version is deprecated in the release"),
            new Rule(
                    "feature-gate-off",
                    Finding.Severity.ERROR,
                    "a field needs a feature gate that is off (or absent) in the release"),
            new Rule("feature-gate-alpha", Finding.Severity.WARNING, "a field needs an alpha feature gate"),
            new Rule("cel-too-long", Finding.Severity.ERROR, "a CEL selector is longer than 10 KiB"),
            new Rule("cel-compile", Finding.Severity.ERROR, "a CEL selector does not compile"),
            new Rule("cel-cost", Finding.Severity.ERROR, "a CEL selector can exceed the cost limit"),
            new Rule(
                    "class-not-found",
                    Finding.Severity.ERROR,
                    "a request names a DeviceClass neither the manifests nor the snapshot have"),
            new Rule(
                    "class-matches-nothing",
                    Finding.Severity.WARNING,
                    "no device of the snapshot passes a DeviceClass's selectors"),
            new Rule(
                    "selector-matches-nothing",
                    Finding.Severity.WARNING,
                    "no device of the snapshot passes a request's class and own selectors"),
            new Rule(
                    "claim-unsatisfiable",
                    Finding.Severity.ERROR,
                    "no node of the snapshot can satisfy a claim or template, even with every device free"),
            new Rule(
                    "device-double-advertised",
                    Finding.Severity.WARNING,
                    "a node offers the same devices through a device plugin and a DRA driver"),
            new Rule(
                    "duplicate-device-class",
                    Finding.Severity.WARNING,
                    "two DeviceClasses have the same selectors and config"),
            new Rule(
                    "node-label-hardware",
                    Finding.Severity.INFO,
                    "a workload asks for hardware through GPU node labels instead of claim selectors"),
            new Rule(
                    "quota-no-longer-limits",
                    Finding.Severity.WARNING,
                    "a ResourceQuota limits an extended resource whose devices DRA claims are charged elsewhere"));

    private final String release;
    private final Map<String, Boolean> featureGates;

    private Lint(String release, Map<String, Boolean> featureGates) {
        this.release = release;
        this.featureGates = Map.copyOf(featureGates);
    }

    /**
     * A linter for a release ({@code 1.35}, {@code v1.35} or {@code 1.35.2}) with feature gates set as
     * {@code --feature-gates} sets them (others at the release's defaults).
     *
     * @throws IllegalArgumentException for a release outside 1.32-1.37, or gates that release's kube-scheduler refuses
     *     ({@link FeatureGateFlag#refusal}, with its message)
     */
    public static Lint forRelease(String version, Map<String, Boolean> featureGates) {
        String v = version.startsWith("v") ? version.substring(1) : version;
        String[] parts = v.split("\\.");
        String minor = parts.length >= 2 ? parts[0] + "." + parts[1] : v;
        if (!LintTables.RELEASES.contains(minor)) {
            throw new IllegalArgumentException("Kubernetes version " + version + " is not one lint knows ("
                    + String.join(", ", LintTables.RELEASES) + ")");
        }
        FeatureGateFlag.refusal(minor, featureGates).ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        return new Lint(minor, FeatureGateFlag.overrides(minor, featureGates));
    }

    /** The release checked against, e.g. {@code 1.35}. */
    public String release() {
        return release;
    }

    /**
     * The findings for the manifests, in file and line order. {@code snapshot} (may be empty) is what the cluster
     * holds: its Nodes, ResourceSlices, DeviceClasses, DeviceTaintRules and ResourceQuotas; with it, the rules that
     * need devices run too ({@code hasSnapshot} says one was given, even an empty one).
     */
    public List<Finding> lint(List<Input> manifests, List<Input> snapshot, boolean hasSnapshot) {
        List<Finding> findings = new ArrayList<>();
        DocumentRules documentRules = new DocumentRules(release, featureGates);
        List<LintObjects.LintObject> objects = new ArrayList<>();
        java.util.Set<LintObjects.LintObject> broken =
                java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Input in : manifests) {
            for (LintObjects.LintObject o : LintObjects.read(in.source(), in.text(), findings)) {
                objects.add(o);
                List<Finding> own = new ArrayList<>();
                documentRules.check(o, own);
                if (o.typed() == null || own.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR)) {
                    broken.add(o);
                }
                findings.addAll(own);
            }
        }
        List<Finding> snapshotProblems = new ArrayList<>();
        List<LintObjects.LintObject> cluster = new ArrayList<>();
        for (Input in : snapshot) {
            cluster.addAll(LintObjects.read(in.source(), in.text(), snapshotProblems));
        }
        snapshotProblems.stream()
                .filter(f -> f.severity() == Finding.Severity.ERROR)
                .forEach(findings::add);
        new ClusterRules(documentRules, objects, cluster, hasSnapshot).check(broken, findings);
        findings.sort(Comparator.comparing(Finding::source)
                .thenComparingInt(Finding::line)
                .thenComparingInt(Finding::column));
        return List.copyOf(dropRepeats(findings));
    }

    /**
     * The API server's validation also rejects an over-long CEL selector and one over the cost limit; cel-too-long
     * and cel-cost say it once.
     */
    private static List<Finding> dropRepeats(List<Finding> findings) {
        List<Finding> out = new ArrayList<>();
        for (Finding f : findings) {
            boolean repeat = f.rule().equals("invalid-object")
                    && (repeats(f, findings, ".cel.expression: Too long", "cel-too-long")
                            || repeats(f, findings, "exceeds cost limit", "cel-cost"));
            if (!repeat) {
                out.add(f);
            }
        }
        return out;
    }

    private static boolean repeats(Finding f, List<Finding> findings, String text, String rule) {
        return f.message().contains(text)
                && findings.stream()
                        .anyMatch(g -> g.rule().equals(rule) && g.source().equals(f.source()) && g.line() == f.line());
    }

    /** The findings as a SARIF 2.1.0 log, one run of the tool {@code dra4j lint}, for code-scanning UIs. */
    public static String sarif(List<Finding> findings, String toolVersion) {
        JsonMapper json =
                JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
        ObjectNode log = json.createObjectNode();
        log.put("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
        log.put("version", "2.1.0");
        ObjectNode run = log.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", "dra4j lint");
        driver.put("version", toolVersion);
        Map<String, Integer> index = new LinkedHashMap<>();
        ArrayNode rules = driver.putArray("rules");
        List<Rule> all = new ArrayList<>(RULES);
        for (Finding f : findings) {
            if (all.stream().noneMatch(r -> r.id().equals(f.rule()))) {
                all.add(new Rule(f.rule(), f.severity(), f.rule()));
            }
        }
        for (Rule r : all) {
            index.put(r.id(), index.size());
            ObjectNode rule = rules.addObject();
            rule.put("id", r.id());
            rule.putObject("shortDescription").put("text", r.summary());
            rule.putObject("help").put("text", "See docs/lint.md, rule " + r.id() + ".");
            rule.putObject("defaultConfiguration").put("level", level(r.severity()));
        }
        ArrayNode results = run.putArray("results");
        for (Finding f : findings) {
            ObjectNode r = results.addObject();
            r.put("ruleId", f.rule());
            r.put("ruleIndex", index.get(f.rule()));
            r.put("level", level(f.severity()));
            r.putObject("message").put("text", f.message());
            ObjectNode physical = r.putArray("locations").addObject().putObject("physicalLocation");
            physical.putObject("artifactLocation").put("uri", f.source().replace('\\', '/'));
            ObjectNode region = physical.putObject("region");
            region.put("startLine", Math.max(1, f.line()));
            region.put("startColumn", Math.max(1, f.column()));
        }
        return json.writeValueAsString(log) + "\n";
    }

    private static String level(Finding.Severity s) {
        return switch (s) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case INFO -> "note";
        };
    }
}
