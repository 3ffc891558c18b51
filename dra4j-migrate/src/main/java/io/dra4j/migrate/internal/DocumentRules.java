package io.dra4j.migrate.internal;

import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.EstimatedCost;
import io.dra4j.migrate.Finding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The lint rules that look at one object by itself: the API version and whether the release serves it, fields behind
 * feature gates that are off (or alpha) in the release, and CEL selectors that are too long or do not compile.
 */
public final class DocumentRules {
    /** resource.CELSelectorExpressionMaxLength. */
    static final int CEL_MAX_LENGTH = 10 * 1024;

    private static final String GROUP = "resource.k8s.io/";

    /**
     * Where each v1 Go type sits below another: field name to the child's type, with {@code []} for a list of it and
     * {@code {}} for a map of it (from k8s.io/api resource/v1 types.go). The walk visits only these.
     */
    private static final Map<String, Map<String, String>> CHILDREN = Map.ofEntries(
            Map.entry("DeviceClass", Map.of("spec", "DeviceClassSpec")),
            Map.entry("ResourceClaim", Map.of("spec", "ResourceClaimSpec", "status", "ResourceClaimStatus")),
            Map.entry("ResourceClaimTemplate", Map.of("spec", "ResourceClaimTemplateSpec")),
            Map.entry("ResourceClaimTemplateSpec", Map.of("spec", "ResourceClaimSpec")),
            Map.entry("ResourceSlice", Map.of("spec", "ResourceSliceSpec")),
            Map.entry("ResourceClaimSpec", Map.of("devices", "DeviceClaim")),
            Map.entry("DeviceClaim", Map.of("requests", "[]DeviceRequest", "constraints", "[]DeviceConstraint")),
            Map.entry("DeviceRequest", Map.of("exactly", "ExactDeviceRequest", "firstAvailable", "[]DeviceSubRequest")),
            Map.entry("ResourceSliceSpec", Map.of("devices", "[]Device")),
            Map.entry(
                    "Device",
                    Map.of(
                            "attributes",
                            "{}DeviceAttribute",
                            "capacity",
                            "{}DeviceCapacity",
                            "consumesCounters",
                            "[]DeviceCounterConsumption")),
            Map.entry(
                    "ResourceClaimStatus",
                    Map.of("allocation", "AllocationResult", "devices", "[]AllocatedDeviceStatus")),
            Map.entry("AllocationResult", Map.of("devices", "DeviceAllocationResult")),
            Map.entry("DeviceAllocationResult", Map.of("results", "[]DeviceRequestAllocationResult")));

    private final LintTables tables = LintTables.get();
    private final String release;
    private final Map<String, Boolean> gateOverrides;
    private final DeviceSelectorEnvironment cel;

    public DocumentRules(String release, Map<String, Boolean> gateOverrides) {
        this.release = release;
        this.gateOverrides = Map.copyOf(gateOverrides);
        this.cel = DeviceSelectorEnvironment.create(
                new CelFeatures(enabled("DRAConsumableCapacity"), enabled("DRAListTypeAttributes")));
    }

    /** Whether a gate is on in the release, given the overrides. */
    boolean enabled(String gate) {
        Boolean set = gateOverrides.get(gate);
        if (set != null) {
            return set && tables.gate(gate, release).isPresent();
        }
        return tables.gate(gate, release).map(LintTables.GateState::defaultOn).orElse(false);
    }

    public void check(LintObjects.LintObject o, List<Finding> out) {
        apiVersion(o, out);
        if (!o.apiVersion().startsWith(GROUP)) {
            podGates(o, out);
            return;
        }
        gate(o, "", "DynamicResourceAllocation", o.kind(), out);
        if (o.kind().equals("DeviceTaintRule")) {
            // Until 1.35 split it off, DRADeviceTaints was the gate of DeviceTaintRules too.
            gate(
                    o,
                    "",
                    tables.gate("DRADeviceTaintRules", release).isPresent() ? "DRADeviceTaintRules" : "DRADeviceTaints",
                    o.kind(),
                    out);
        }
        walk(o, o.v1(), o.kind(), "", out);
        cel(o, out);
    }

    // Phase 1: the version. The release either serves the version (by default or only with --runtime-config) or not,
    // and beta versions are deprecated some releases before their removal.
    private void apiVersion(LintObjects.LintObject o, List<Finding> out) {
        String apiVersion = o.apiVersion();
        if (!apiVersion.startsWith(GROUP) || o.kind().isEmpty() || o.kind().endsWith("List")) {
            return;
        }
        String version = apiVersion.substring(GROUP.length());
        List<LintTables.Served> all = tables.servedVersions(release, o.kind());
        Optional<LintTables.Served> served = tables.served(release, version, o.kind());
        if (served.isEmpty()) {
            out.add(o.at(
                    "apiVersion",
                    Finding.Severity.ERROR,
                    "api-version-not-served",
                    o.label() + ": Kubernetes " + release + " does not serve " + o.kind() + " in " + apiVersion
                            + (all.isEmpty() ? " (it serves no version of it)" : "; it serves " + describe(all))));
            return;
        }
        LintTables.Served s = served.get();
        boolean deprecated = !s.deprecated().equals("-") && minor(s.deprecated()) <= minor(release);
        String removal = s.removed().equals("-") ? "" : ", removed in " + s.removed();
        String convert = version.equals("v1")
                ? ""
                : "; dra4j convert writes it as v1"
                        + (tables.served(release, "v1", o.kind()).isPresent() ? "" : " (served from 1.34)");
        if (!s.byDefault()) {
            out.add(o.at(
                    "apiVersion",
                    Finding.Severity.WARNING,
                    "api-version-off-by-default",
                    o.label() + ": Kubernetes " + release + " serves " + apiVersion + " only with "
                            + "--runtime-config=" + apiVersion + "=true"
                            + (deprecated ? " (deprecated since " + s.deprecated() + removal + ")" : "") + convert));
        } else if (deprecated) {
            out.add(o.at(
                    "apiVersion",
                    Finding.Severity.WARNING,
                    "api-version-deprecated",
                    o.label() + ": " + apiVersion + " " + o.kind() + " is deprecated since " + s.deprecated() + removal
                            + convert));
        }
    }

    private static String describe(List<LintTables.Served> versions) {
        List<String> parts = new ArrayList<>();
        for (LintTables.Served v : versions) {
            parts.add(GROUP + v.version() + (v.byDefault() ? "" : " (off by default)"));
        }
        return String.join(", ", parts);
    }

    static int minor(String release) {
        return Integer.parseInt(release.substring(release.indexOf('.') + 1));
    }

    // Phase 2: fields behind gates, found by walking the v1 object along the Go types that have gated fields.
    private void walk(LintObjects.LintObject o, JsonNode node, String type, String path, List<Finding> out) {
        if (node == null || !node.isObject()) {
            return;
        }
        for (Map.Entry<String, List<String>> f : tables.gatedFieldsOf(type).entrySet()) {
            JsonNode v = node.get(f.getKey());
            if (v != null && !v.isNull() && !(v.isBoolean() && !v.asBoolean())) {
                for (String g : f.getValue()) {
                    gate(o, Paths.field(path, f.getKey()), g, type + "." + f.getKey(), out);
                }
            }
        }
        for (Map.Entry<String, String> c : CHILDREN.getOrDefault(type, Map.of()).entrySet()) {
            JsonNode child = node.get(c.getKey());
            String childPath = Paths.field(path, c.getKey());
            String t = c.getValue();
            if (child == null) {
                continue;
            }
            if (t.startsWith("[]") && child.isArray()) {
                for (int i = 0; i < child.size(); i++) {
                    walk(o, child.get(i), t.substring(2), Paths.index(childPath, i), out);
                }
            } else if (t.startsWith("{}") && child.isObject()) {
                for (Map.Entry<String, JsonNode> e : child.properties()) {
                    walk(o, e.getValue(), t.substring(2), Paths.field(childPath, e.getKey()), out);
                }
            } else {
                walk(o, child, t, childPath, out);
            }
        }
    }

    /** Pods and workloads: {@code resourceClaims} needs DynamicResourceAllocation. */
    private void podGates(LintObjects.LintObject o, List<Finding> out) {
        PodSpecs.podSpecPath(o.kind()).ifPresent(p -> {
            JsonNode spec = PodSpecs.at(o.original(), p);
            if (spec != null && spec.has("resourceClaims")) {
                gate(
                        o,
                        String.join(".", p) + ".resourceClaims",
                        "DynamicResourceAllocation",
                        "PodSpec.resourceClaims",
                        out);
            }
        });
    }

    private void gate(LintObjects.LintObject o, String path, String gate, String what, List<Finding> out) {
        Optional<LintTables.GateState> state = tables.gate(gate, release);
        Boolean set = gateOverrides.get(gate);
        String kep = "KEP-" + tables.kep(gate);
        if (state.isEmpty()) {
            out.add(o.at(
                    path,
                    Finding.Severity.ERROR,
                    "feature-gate-off",
                    o.label() + ": " + what + " needs the "
                            + gate + " feature gate (" + kep + "), which Kubernetes " + release
                            + " does not have; the API "
                            + "server " + consequence(path)));
            return;
        }
        LintTables.GateState s = state.get();
        boolean on = set == null ? s.defaultOn() : set;
        if (!on) {
            out.add(o.at(
                    path,
                    Finding.Severity.ERROR,
                    "feature-gate-off",
                    o.label() + ": " + what + " needs the "
                            + gate + " feature gate (" + kep + "), " + s.stage()
                            + (set == null ? " and off by default" : " and turned off") + " in Kubernetes " + release
                            + "; without it the API server "
                            + consequence(path)));
        } else if (s.stage().equals("Alpha")) {
            out.add(o.at(
                    path,
                    Finding.Severity.WARNING,
                    "feature-gate-alpha",
                    o.label() + ": " + what
                            + " needs the " + gate + " feature gate (" + kep + "), alpha in Kubernetes " + release
                            + ": it may change or go away, and needs the gate on in every component"));
        }
    }

    /** What the API server does without the gate: drops a field, or does not serve a whole kind. */
    private static String consequence(String path) {
        return path.isEmpty() ? "does not serve the kind (or refuses the object)" : "drops the field";
    }

    // Phase 3: CEL selectors, each checked as the API server does on create: the length first (a longer expression
    // is not compiled), then compilation in the DRA environment, then the static cost estimate.
    private void cel(LintObjects.LintObject o, List<Finding> out) {
        for (Selector s : selectors(o)) {
            String expr = s.expression();
            int bytes = expr.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > CEL_MAX_LENGTH) {
                out.add(o.at(
                        s.path(),
                        Finding.Severity.ERROR,
                        "cel-too-long",
                        o.label() + ": " + s.path() + ": Too long: may not be more than " + CEL_MAX_LENGTH
                                + " bytes (it has " + bytes + ")"));
                continue;
            }
            CompiledExpression c = cel.compile(expr);
            c.compileError()
                    .ifPresent(e -> out.add(o.at(
                            s.path(), Finding.Severity.ERROR, "cel-compile", o.label() + ": " + s.path() + ": " + e)));
            c.estimatedCost()
                    .filter(EstimatedCost::exceedsLimit)
                    .ifPresent(cost -> out.add(o.at(
                            s.path(),
                            Finding.Severity.ERROR,
                            "cel-cost",
                            o.label() + ": " + s.path()
                                    + ": Forbidden: too complex, exceeds cost limit (it can exceed the cost limit: estimated at most "
                                    + Long.toUnsignedString(cost.max()) + ", the limit is " + EstimatedCost.LIMIT
                                    + ")")));
        }
    }

    /** A CEL selector of an object: its field path and expression. */
    public record Selector(String path, String expression) {}

    /** The CEL selectors of a v1 DeviceClass, ResourceClaim or ResourceClaimTemplate, in field order. */
    public static List<Selector> selectors(LintObjects.LintObject o) {
        List<Selector> out = new ArrayList<>();
        JsonNode v1 = o.v1();
        switch (o.kind()) {
            case "DeviceClass" -> selectorList(v1.path("spec").path("selectors"), "spec.selectors", out);
            case "ResourceClaim" -> requests(v1.path("spec").path("devices"), "spec.devices", out);
            case "ResourceClaimTemplate" ->
                requests(v1.path("spec").path("spec").path("devices"), "spec.spec.devices", out);
            default -> {}
        }
        return out;
    }

    private static void requests(JsonNode devices, String path, List<Selector> out) {
        JsonNode requests = devices.path("requests");
        for (int i = 0; i < requests.size(); i++) {
            String rp = Paths.index(path + ".requests", i);
            selectorList(requests.get(i).path("exactly").path("selectors"), rp + ".exactly.selectors", out);
            JsonNode subs = requests.get(i).path("firstAvailable");
            for (int j = 0; j < subs.size(); j++) {
                selectorList(subs.get(j).path("selectors"), Paths.index(rp + ".firstAvailable", j) + ".selectors", out);
            }
        }
    }

    private static void selectorList(JsonNode selectors, String path, List<Selector> out) {
        for (int i = 0; i < selectors.size(); i++) {
            JsonNode e = selectors.get(i).path("cel").path("expression");
            if (e.isString()) {
                out.add(new Selector(Paths.index(path, i) + ".cel.expression", e.asString()));
            }
        }
    }
}
