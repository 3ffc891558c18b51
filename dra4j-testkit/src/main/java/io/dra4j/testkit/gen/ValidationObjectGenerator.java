package io.dra4j.testkit.gen;

import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generates {@code resource.k8s.io/v1} objects for the validation differential ({@code oracle/validate}): a valid
 * DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice or DeviceTaintRule, then, for most objects, one
 * to three mutations that each break one rule the API server checks (a name, a count, a limit, a reference, a type;
 * in slices also node selectors, shared counters and their limits, counter consumption, device taints, binding
 * conditions (also explicitly empty), per-device node selection, and fields that 1.37's default gates drop:
 * list-type attributes, node allocatable resources and skipped node operations; in claims derived attributes, which
 * DRADerivedAttributes keeps), and for some objects last one
 * value of the wrong JSON type (which the API server's decoder refuses).
 * The same seed gives the same objects. Objects are JSON trees with only fields the v1 schema has.
 */
public final class ValidationObjectGenerator {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> KINDS =
            List.of("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule");
    private static final List<String> BAD_NAMES = List.of(
            "Upper",
            "under_score",
            "-dash",
            "dash-",
            "dots.are.ok",
            "a..b",
            "",
            "x".repeat(64),
            "x".repeat(254),
            "sp ace",
            "ünï");
    private static final List<String> BAD_IDENTIFIERS = List.of("1abc", "a-b", "", "a.b", "x".repeat(33), "ok_name");
    private static final List<String> EXPRESSIONS = List.of(
            "device.driver == \"gpu.example.com\"",
            "device.attributes[\"gpu.example.com\"].model == \"a100\"",
            "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"10Gi\")) >= 0",
            "true",
            // Costly but within CELSelectorExpressionMaxCost (estimates 28,931 and 563,395).
            "device.attributes.all(d, device.attributes[d].all(k, "
                    + "device.attributes[\"gpu.example.com\"].model.matches(\"^a[0-9]+$\")))",
            "device.attributes.all(a, device.attributes.all(b, device.attributes.exists(c, "
                    + "device.driver == device.attributes[\"gpu.example.com\"].model)))");
    private static final List<String> BAD_EXPRESSIONS = List.of(
            "device.driver == ",
            "device.nosuchfield",
            "1 + \"a\"",
            "device.attributes[\"x\"].y.z(",
            "\"x\".repeat(10)",
            "device.driver == \"" + "a".repeat(10 * 1024) + "\"",
            // Over the estimated cost limit (estimates 6,070,467 and more): regular expressions in nested loops.
            "device.attributes.all(a, device.attributes.all(c, device.attributes[a].all(b, "
                    + "device.driver.matches(b + c))))",
            "device.attributes.all(a, device.attributes.all(b, device.attributes.exists(c, "
                    + "device.attributes[\"gpu.example.com\"].model.matches(\"^a[0-9]+$\"))))");

    /** Derived attributes' expressions that compile and fit their result types (a list only with list types). */
    private static final List<String> DERIVED_EXPRESSIONS = List.of(
            "device.attributes[\"gpu.example.com\"].model",
            "device.driver",
            "1",
            "true",
            "semver(\"1.2.3\")",
            "[\"a\", \"b\"]",
            // Within the limit alone (estimate 563,395), over the claim's total twice.
            "device.attributes.all(a, device.attributes.all(b, device.attributes.exists(c, "
                    + "device.driver == device.attributes[\"gpu.example.com\"].model)))");
    /** Derived attributes' expressions that do not compile, have another result type, or cost too much. */
    private static final List<String> BAD_DERIVED_EXPRESSIONS = List.of(
            "1.5",
            "device.capacity[\"gpu.example.com\"].memory",
            "{\"a\": 1}",
            "[1.5]",
            "device.driver == ",
            "device.nosuchfield",
            "device.driver == \"" + "a".repeat(10 * 1024) + "\"",
            "device.attributes.all(a, device.attributes.all(b, device.attributes.exists(c, "
                    + "device.attributes[\"gpu.example.com\"].model.matches(\"^a[0-9]+$\"))))");

    private final Random random;

    public ValidationObjectGenerator(long seed) {
        this.random = new Random(seed);
    }

    /** The next object: valid with probability about 1/4, otherwise with one to three mutations. */
    public ObjectNode next() {
        String kind = pick(KINDS);
        ObjectNode o = NODES.objectNode();
        o.put("apiVersion", "resource.k8s.io/v1");
        o.put("kind", kind);
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name());
        boolean namespaced = kind.equals("ResourceClaim") || kind.equals("ResourceClaimTemplate");
        if (namespaced) {
            meta.put("namespace", "team-" + random.nextInt(3));
        }
        switch (kind) {
            case "DeviceClass" -> deviceClass(o.putObject("spec"));
            case "ResourceClaim" -> claimSpec(o.putObject("spec"));
            case "ResourceClaimTemplate" -> claimSpec(o.putObject("spec").putObject("spec"));
            case "ResourceSlice" -> slice(o.putObject("spec"));
            default -> taintRule(o.putObject("spec"));
        }
        if (random.nextInt(4) != 0) {
            int mutations = 1 + random.nextInt(3);
            for (int i = 0; i < mutations; i++) {
                mutate(o, kind);
            }
        }
        // Last, as the other mutations expect the schema's shapes.
        if (random.nextInt(6) == 0) {
            wrongType(o);
        }
        return o;
    }

    // --- valid objects ---

    private String name() {
        return pick(List.of("gpu", "gpu-a", "a100.example.com", "x1", "claim-" + random.nextInt(100)));
    }

    private void deviceClass(ObjectNode spec) {
        ArrayNode selectors = spec.putArray("selectors");
        for (int i = random.nextInt(3); i > 0; i--) {
            selectors.addObject().putObject("cel").put("expression", pick(EXPRESSIONS));
        }
        if (random.nextBoolean()) {
            opaque(spec.putArray("config").addObject());
        }
        if (random.nextInt(4) == 0) {
            spec.put("extendedResourceName", "example.com/gpu");
        }
    }

    private void opaque(ObjectNode config) {
        ObjectNode opaque = config.putObject("opaque");
        opaque.put("driver", "gpu.example.com");
        opaque.putObject("parameters").put("mode", "fast");
    }

    private void claimSpec(ObjectNode spec) {
        ObjectNode devices = spec.putObject("devices");
        ArrayNode requests = devices.putArray("requests");
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            ObjectNode r = requests.addObject();
            r.put("name", "req-" + i);
            if (random.nextInt(3) == 0) {
                ArrayNode subs = r.putArray("firstAvailable");
                for (int j = 0; j <= random.nextInt(3); j++) {
                    ObjectNode sub = subs.addObject();
                    sub.put("name", "sub-" + j);
                    exact(sub);
                }
            } else {
                exact(r.putObject("exactly"));
            }
        }
        if (n > 1 && random.nextBoolean()) {
            ObjectNode c = devices.putArray("constraints").addObject();
            c.putArray("requests").add("req-0").add("req-1");
            c.put(random.nextBoolean() ? "matchAttribute" : "distinctAttribute", "gpu.example.com/model");
        }
        if (random.nextBoolean()) {
            ObjectNode c = devices.putArray("config").addObject();
            c.putArray("requests").add("req-0");
            opaque(c);
        }
        if (random.nextInt(4) == 0) {
            derivedAttribute(devices, pick(DERIVED_EXPRESSIONS));
        }
    }

    /**
     * A derived attribute (dropped while DRADerivedAttributes is off, 1.37's default) on one request or subrequest,
     * and a constraint that uses its name: one of that request, of its parent request, or of every request.
     */
    private void derivedAttribute(ObjectNode devices, String expression) {
        ArrayNode requests = devices.withArray("requests");
        if (requests.isEmpty()) {
            return;
        }
        int i = random.nextInt(requests.size());
        ObjectNode r = (ObjectNode) requests.get(i);
        String ref = r.path("name").isString() ? r.get("name").asString() : "req-" + i;
        ObjectNode target;
        if (r.has("firstAvailable")
                && !r.get("firstAvailable").isEmpty()
                && r.get("firstAvailable").get(0).isObject()) {
            target = (ObjectNode) r.get("firstAvailable").get(0);
            if (random.nextBoolean() && target.path("name").isString()) {
                ref = ref + "/" + target.get("name").asString();
            }
        } else if (r.path("exactly").isObject()) {
            target = (ObjectNode) r.get("exactly");
        } else {
            return;
        }
        String name = pick(List.of("derived/numa", "gpu.example.com/model", "example.com/pcie_root"));
        target.withArray("derivedAttributes").addObject().put("name", name).put("expression", expression);
        ObjectNode c = devices.withArray("constraints").addObject();
        if (random.nextInt(4) != 0) {
            c.putArray("requests").add(ref);
        }
        c.put(random.nextBoolean() ? "matchAttribute" : "distinctAttribute", name);
    }

    /** A derived attribute's rule broken (or its edge probed): names, references, duplicates, limits, expressions. */
    private void mutateDerivedAttributes(ObjectNode devices, ObjectNode exact) {
        ArrayNode attrs = exact.withArray("derivedAttributes");
        switch (random.nextInt(10)) {
            case 0 -> attrs.addObject().put("name", "derived/unused").put("expression", "1");
            case 1 ->
                attrs.addObject()
                        .put("name", pick(List.of("model", "bad name", "", "a/b/c", "/x", "gpu.example.com/")))
                        .put("expression", "1");
            case 2 -> attrs.addObject().put("name", "derived/numa");
            case 3 -> {
                derivedAttribute(devices, "1");
                derivedAttribute(devices, "2");
                if (!attrs.isEmpty()) {
                    attrs.add(attrs.get(0).deepCopy());
                }
            }
            case 4 ->
                repeat(
                        33,
                        () -> attrs.addObject()
                                .put("name", "derived/a" + attrs.size())
                                .put("expression", "1"));
            case 5 ->
                repeat(
                        2,
                        () -> derivedAttribute(
                                devices,
                                "device.attributes.all(a, device.attributes.all(b, device.attributes.exists(c, "
                                        + "device.driver == device.attributes[\"gpu.example.com\"].model)))"));
            case 6 -> attrs.addObject().put("expression", "1");
            default -> derivedAttribute(devices, pick(BAD_DERIVED_EXPRESSIONS));
        }
    }

    private void exact(ObjectNode e) {
        e.put("deviceClassName", pick(List.of("gpu", "gpu.example.com")));
        switch (random.nextInt(3)) {
            case 0 -> e.put("count", 1 + random.nextInt(4));
            case 1 -> e.put("allocationMode", "All");
            default -> {}
        }
        if (random.nextBoolean()) {
            e.putArray("selectors").addObject().putObject("cel").put("expression", pick(EXPRESSIONS));
        }
    }

    private void slice(ObjectNode spec) {
        spec.put("driver", "gpu.example.com");
        ObjectNode pool = spec.putObject("pool");
        pool.put("name", pick(List.of("node-1", "pool/a", "fabric")));
        pool.put("generation", random.nextInt(3));
        pool.put("resourceSliceCount", 1 + random.nextInt(2));
        switch (random.nextInt(3)) {
            case 0 -> spec.put("nodeName", "node-1");
            case 1 -> spec.put("allNodes", true);
            default -> {
                ObjectNode term = spec.putObject("nodeSelector")
                        .putArray("nodeSelectorTerms")
                        .addObject();
                term.putArray("matchExpressions")
                        .addObject()
                        .put("key", "topology.example.com/zone")
                        .put("operator", "In")
                        .putArray("values")
                        .add("a");
                if (random.nextBoolean()) {
                    term.putArray("matchFields")
                            .addObject()
                            .put("key", "metadata.name")
                            .put("operator", "In")
                            .putArray("values")
                            .add("node-1");
                }
            }
        }
        if (random.nextInt(5) == 0) {
            ArrayNode sets = spec.putArray("sharedCounters");
            for (int i = 1 + random.nextInt(2); i > 0; i--) {
                sets.addObject()
                        .put("name", "set-" + i)
                        .putObject("counters")
                        .putObject("memory")
                        .put("value", pick(List.of("40Gi", "1", "1000m")));
            }
            return;
        }
        ArrayNode devices = spec.putArray("devices");
        for (int i = random.nextInt(4); i > 0; i--) {
            ObjectNode d = devices.addObject();
            d.put("name", "gpu-" + i);
            ObjectNode attrs = d.putObject("attributes");
            attrs.putObject("model").put("string", "a100");
            attrs.putObject("gpu.example.com/index").put("int", i);
            if (random.nextBoolean()) {
                attrs.putObject("driverVersion").put("version", "1.2.3");
            }
            if (random.nextBoolean()) {
                ObjectNode memory = d.putObject("capacity").putObject("memory").put("value", "40Gi");
                if (random.nextInt(3) == 0) {
                    // Consumable capacity with a valid request policy.
                    d.put("allowMultipleAllocations", true);
                    ObjectNode policy = memory.putObject("requestPolicy");
                    if (random.nextBoolean()) {
                        policy.put("default", "10Gi")
                                .putArray("validValues")
                                .add("10Gi")
                                .add("20Gi")
                                .add("40Gi");
                    } else {
                        policy.put("default", "2Gi")
                                .putObject("validRange")
                                .put("min", "1Gi")
                                .put("max", "40Gi")
                                .put("step", "1Gi");
                    }
                }
            }
            if (random.nextInt(4) == 0) {
                d.putArray("taints")
                        .addObject()
                        .put("key", "example.com/unhealthy")
                        .put("value", "true")
                        .put("effect", pick(List.of("NoSchedule", "NoExecute", "None")));
            }
            if (random.nextInt(4) == 0) {
                d.putArray("consumesCounters")
                        .addObject()
                        .put("counterSet", "set-1")
                        .putObject("counters")
                        .putObject("memory")
                        .put("value", "10Gi");
            }
            if (random.nextInt(4) == 0) {
                d.putArray("bindingConditions").add("example.com/attached");
                d.putArray("bindingFailureConditions").add("example.com/failed");
            }
        }
    }

    private void taintRule(ObjectNode spec) {
        ObjectNode selector = spec.putObject("deviceSelector");
        selector.put("driver", "gpu.example.com");
        if (random.nextBoolean()) {
            selector.put("pool", "node-1");
        }
        if (random.nextBoolean()) {
            selector.put("device", "gpu-0");
        }
        ObjectNode taint = spec.putObject("taint");
        taint.put("key", pick(List.of("example.com/unhealthy", "maintenance")));
        if (random.nextBoolean()) {
            taint.put("value", "true");
        }
        taint.put("effect", pick(List.of("NoSchedule", "NoExecute", "None")));
    }

    // --- mutations: each breaks (or probes the edge of) one rule ---

    private void mutate(ObjectNode o, String kind) {
        if (random.nextInt(5) == 0) {
            ObjectNode meta = (ObjectNode) o.get("metadata");
            String bad = pick(BAD_NAMES);
            if (bad.isEmpty() && random.nextBoolean()) {
                meta.remove("name");
                meta.put("generateName", "gen-");
            } else {
                meta.put("name", bad);
            }
            return;
        }
        switch (kind) {
            case "DeviceClass" -> mutateClass((ObjectNode) o.get("spec"));
            case "ResourceClaim" -> mutateClaim((ObjectNode) o.get("spec").get("devices"));
            case "ResourceClaimTemplate" ->
                mutateClaim((ObjectNode) o.get("spec").get("spec").get("devices"));
            case "ResourceSlice" -> mutateSlice((ObjectNode) o.get("spec"));
            default -> mutateTaintRule((ObjectNode) o.get("spec"));
        }
    }

    private void mutateClass(ObjectNode spec) {
        ArrayNode selectors = spec.withArray("selectors");
        switch (random.nextInt(5)) {
            case 0 -> selectors.addObject().putObject("cel").put("expression", pick(BAD_EXPRESSIONS));
            case 1 -> repeat(33, () -> selectors.addObject().putObject("cel").put("expression", "true"));
            case 2 -> selectors.addObject();
            case 3 -> spec.withArray("config").addObject().putObject("opaque").put("driver", pick(BAD_NAMES));
            default ->
                spec.put("extendedResourceName", pick(List.of("gpu", "example.com/", "-x/y", "kubernetes.io/gpu")));
        }
    }

    private void mutateClaim(ObjectNode devices) {
        ArrayNode requests = devices.withArray("requests");
        ObjectNode r =
                requests.isEmpty() ? requests.addObject() : (ObjectNode) requests.get(random.nextInt(requests.size()));
        ObjectNode exact = r.has("exactly")
                ? (ObjectNode) r.get("exactly")
                : r.has("firstAvailable") && !r.get("firstAvailable").isEmpty()
                        ? (ObjectNode) r.get("firstAvailable").get(0)
                        : r.putObject("exactly");
        switch (random.nextInt(21)) {
            case 0 -> exact.put("count", pick(List.of(-3, 0, -1)));
            case 19, 20 -> mutateDerivedAttributes(devices, exact);
            case 17 ->
                devices.withArray("constraints")
                        .addObject()
                        .putArray("requests")
                        .add("req-0");
            case 18 ->
                devices.withArray("constraints")
                        .addObject()
                        .put("matchAttribute", pick(List.of("model", "a/b/c")))
                        .put("distinctAttribute", pick(List.of("gpu.example.com/model", "bad name")));
            case 1 -> exact.put("allocationMode", pick(List.of("Some", "all", "")));
            case 2 -> {
                exact.put("allocationMode", "All");
                exact.put("count", 2);
            }
            case 3 -> exact.put("deviceClassName", pick(BAD_NAMES));
            case 4 -> exact.remove("deviceClassName");
            case 5 -> r.put("name", pick(BAD_NAMES));
            case 6 ->
                requests.addObject()
                        .put(
                                "name",
                                r.get("name") == null ? "req-0" : r.get("name").asString())
                        .putObject("exactly")
                        .put("deviceClassName", "gpu");
            case 7 ->
                repeat(
                        33,
                        () -> requests.addObject()
                                .put("name", "r" + requests.size())
                                .putObject("exactly")
                                .put("deviceClassName", "gpu"));
            case 8 ->
                exact.withArray("selectors").addObject().putObject("cel").put("expression", pick(BAD_EXPRESSIONS));
            case 9 -> {
                r.putObject("exactly").put("deviceClassName", "gpu");
                r.putArray("firstAvailable").addObject().put("name", "s").put("deviceClassName", "gpu");
            }
            case 10 -> {
                r.remove("exactly");
                r.remove("firstAvailable");
            }
            case 11 ->
                devices.withArray("constraints")
                        .addObject()
                        .put("matchAttribute", "gpu.example.com/model")
                        .putArray("requests")
                        .add(pick(List.of("nope", "req-0/nope", "req-0")));
            case 12 ->
                devices.withArray("constraints")
                        .addObject()
                        .put(
                                random.nextBoolean() ? "matchAttribute" : "distinctAttribute",
                                pick(List.of(
                                        "model",
                                        "bad name",
                                        "a/b/c",
                                        "/x",
                                        "Example.com/model",
                                        "-x/model",
                                        "x".repeat(64) + "/model",
                                        "gpu.example.com/",
                                        "gpu.example.com/" + "m".repeat(33))));
            case 13 ->
                devices.withArray("config").addObject().putArray("requests").add("nope");
            case 14 ->
                repeat(
                        9,
                        () -> r.withArray("firstAvailable")
                                .addObject()
                                .put("name", "s" + r.get("firstAvailable").size())
                                .put("deviceClassName", "gpu"));
            case 15 -> {
                r.remove("exactly");
                ArrayNode subs = r.withArray("firstAvailable");
                ObjectNode sub = subs.addObject().put("name", "dup").put("deviceClassName", pick(BAD_NAMES));
                subs.addObject()
                        .put("name", "dup")
                        .put("deviceClassName", "gpu")
                        .put("count", 2)
                        .putArray("selectors")
                        .addObject()
                        .putObject("cel")
                        .put("expression", "device.driver != \"<x>\"");
                sub.put("allocationMode", "All");
            }
            default ->
                exact.withArray("tolerations")
                        .addObject()
                        .put("key", pick(BAD_NAMES))
                        .put("operator", pick(List.of("Exists", "Equal", "Bogus")))
                        .put("effect", pick(List.of("NoSchedule", "Bogus")));
        }
    }

    private void mutateSlice(ObjectNode spec) {
        if (spec.has("sharedCounters")) {
            if (random.nextInt(8) == 0) {
                // An explicitly empty device list beside the counter sets: both fields are set.
                spec.putArray("devices");
            } else {
                mutateCounterSets((ArrayNode) spec.get("sharedCounters"));
            }
            return;
        }
        ArrayNode devices = spec.withArray("devices");
        ObjectNode d = devices.isEmpty() ? devices.addObject().put("name", "gpu-9") : (ObjectNode) devices.get(0);
        ObjectNode attrs = d.has("attributes") ? (ObjectNode) d.get("attributes") : d.putObject("attributes");
        switch (random.nextInt(32)) {
            case 0 -> spec.remove("driver");
            case 1 -> spec.put("driver", pick(BAD_NAMES));
            case 2 ->
                ((ObjectNode) spec.get("pool")).put("name", pick(List.of("", "Bad", "a//b", "/a", "x".repeat(254))));
            case 3 -> ((ObjectNode) spec.get("pool")).put("resourceSliceCount", pick(List.of(0, -1)));
            case 4 -> ((ObjectNode) spec.get("pool")).put("generation", -1);
            case 5 -> {
                spec.put("nodeName", "node-1");
                spec.put("allNodes", true);
            }
            case 6 -> {
                spec.remove("nodeName");
                spec.remove("allNodes");
            }
            case 7 -> repeat(129, () -> devices.addObject().put("name", "d" + devices.size()));
            case 8 -> devices.addObject().put("name", d.get("name").asString());
            case 9 -> attrs.putObject(pick(BAD_IDENTIFIERS)).put("int", 1);
            case 10 -> attrs.putObject("both").put("int", 1).put("string", "x");
            case 11 -> attrs.putObject("long").put("string", "x".repeat(65));
            case 12 -> attrs.putObject("v").put("version", pick(List.of("1.2", "v1.2.3", "01.2.3")));
            case 13 -> d.put("name", pick(BAD_NAMES));
            case 15 -> {
                ObjectNode taint = d.withArray("taints")
                        .addObject()
                        .put("key", pick(List.of("k", "example.com/k", "bad key", "", "Upper/k")))
                        .put("effect", pick(List.of("Bogus", "", "noschedule", "None")));
                if (random.nextBoolean()) {
                    taint.put("value", pick(List.of("ok", "bad value!", "x".repeat(64))));
                }
            }
            case 16 ->
                repeat(
                        17,
                        () -> d.withArray("taints")
                                .addObject()
                                .put("key", "k" + d.withArray("taints").size())
                                .put("effect", "NoSchedule"));
            case 17 ->
                d.withArray("consumesCounters")
                        .addObject()
                        .put("counterSet", pick(BAD_NAMES))
                        .putObject("counters")
                        .putObject(pick(List.of("memory", "Bad", "a.b")))
                        .put("value", "1");
            case 18 ->
                repeat(
                        2,
                        () -> d.withArray("consumesCounters")
                                .addObject()
                                .put("counterSet", "dup")
                                .putObject("counters")
                                .putObject("memory")
                                .put("value", pick(List.of("1", "1000m", "2Ki"))));
            case 19 -> {
                ArrayNode ok = d.withArray("bindingConditions");
                repeat(4 + random.nextInt(2), () -> ok.add("cond-" + ok.size()));
                ArrayNode failed = d.withArray("bindingFailureConditions");
                repeat(1 + random.nextInt(5), () -> failed.add("failed-" + failed.size()));
            }
            case 20 -> {
                ArrayNode ok = d.withArray("bindingConditions");
                ArrayNode failed = d.withArray("bindingFailureConditions");
                switch (random.nextInt(3)) {
                    case 0 -> ok.add("a").add("a");
                    case 1 -> ok.add(pick(List.of("bad key", "", "Upper/x", "example.com/x")));
                    default -> failed.add("b");
                }
                if (random.nextBoolean()) {
                    failed.add(pick(List.of("a", "b", "b", "-x")));
                }
                // An explicitly empty list (which the fabric8 model reads as an absent one) or none.
                if (ok.isEmpty() && random.nextBoolean()) {
                    d.remove("bindingConditions");
                }
                if (failed.isEmpty() && random.nextBoolean()) {
                    d.remove("bindingFailureConditions");
                }
            }
            case 21 -> {
                spec.remove("nodeName");
                spec.remove("allNodes");
                ObjectNode term = spec.putObject("nodeSelector")
                        .putArray("nodeSelectorTerms")
                        .addObject();
                ObjectNode r = random.nextBoolean()
                        ? term.putArray("matchExpressions").addObject()
                        : term.putArray("matchFields").addObject();
                r.put("key", pick(List.of("metadata.name", "metadata.uid", "bad key", "", "zone")));
                r.put("operator", pick(List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Bogus")));
                ArrayNode values = r.putArray("values");
                repeat(random.nextInt(3), () -> values.add(pick(List.of("a", "Bad_", "bad value!", "1"))));
                if (values.isEmpty()) {
                    r.remove("values");
                }
            }
            case 23 -> perDeviceNodeSelection(spec, devices);
            case 24 -> {
                // Per-device node selection without the slice's perDeviceNodeSelection.
                deviceNodeSelection(d);
                if (random.nextBoolean()) {
                    spec.put("perDeviceNodeSelection", false);
                }
            }
            case 25 ->
                d.withArray("consumesCounters")
                        .addObject()
                        .put("counterSet", "set-1")
                        .set("counters", counters(random.nextBoolean() ? 33 : 32));
            case 26 -> {
                // List-type attributes: dropped while DRAListTypeAttributes is off (1.37's default).
                ObjectNode a = attrs.putObject(pick(List.of("list", "model")));
                switch (random.nextInt(7)) {
                    case 0 -> a.putArray("strings").add("a").add("b");
                    case 6 -> {
                        // An element of any JSON type, mostly the wrong one: the decoder's error, whatever the gate.
                        JsonNode element = pick(List.of(
                                NODES.numberNode(1),
                                NODES.numberNode(1.5),
                                NODES.booleanNode(true),
                                NODES.stringNode("1.2.3"),
                                NODES.objectNode(),
                                NODES.nullNode()));
                        a.putArray(pick(List.of("ints", "bools", "strings", "versions")))
                                .add(element);
                    }
                    case 1 -> a.putArray(pick(List.of("ints", "bools", "strings", "versions")));
                    case 2 -> a.put("int", 1).putArray("bools").add(true);
                    case 3 -> a.putArray("strings").add("x".repeat(random.nextBoolean() ? 64 : 65));
                    case 4 -> a.putArray("versions").add("1.2.3").add(pick(List.of("1.2.4", "v1")));
                    default -> a.putArray("versions").add(pick(List.of("1.2.3", "1.2")));
                }
            }
            case 27 -> {
                // Node allocatable resources: dropped while DRANodeAllocatableResources is off (1.37's default).
                ObjectNode r = d.putObject("nodeAllocatableResources")
                        .putObject(pick(List.of("cpu", "memory", "bogus", "hugepages-2Mi", "ephemeral-storage")));
                if (random.nextBoolean()) {
                    ObjectNode m = r.putObject("mapping");
                    if (random.nextBoolean()) {
                        m.put("capacityKey", pick(List.of("memory", "", "nope")));
                    }
                    if (random.nextBoolean()) {
                        m.put("capacityMultiplier", pick(List.of("1", "0", "-1", "500m")));
                    }
                    if (random.nextInt(3) == 0) {
                        m.put("deviceMultiplier", pick(List.of("2", "0", "-2")));
                    }
                }
                if (random.nextInt(3) == 0) {
                    ObjectNode o = r.putObject("overhead");
                    if (random.nextBoolean()) {
                        o.put("perPod", pick(List.of("1Gi", "0", "-1")));
                    }
                    if (random.nextBoolean()) {
                        o.put("perContainer", pick(List.of("100Mi", "-5")));
                    }
                }
            }
            case 28 -> {
                // An explicitly empty list of the other kind: both fields are set.
                spec.putArray("sharedCounters");
                if (devices.isEmpty()) {
                    devices.addObject().put("name", "gpu-9");
                }
            }
            case 29 -> {
                // Skipped node operations: dropped while DRAOptionalNodeOperations is off (1.37's default).
                ArrayNode ops = spec.putArray("skipNodeOperations");
                for (int i = random.nextInt(4); i > 0; i--) {
                    ops.add(pick(List.of("*", "NodePrepareResources", "NodeUnprepareResources", "bogus")));
                }
            }
            case 30, 31 -> requestPolicy(d);
            default -> attrs.putObject("empty");
        }
    }

    /**
     * One value of the wrong JSON type, which the API server's decoder refuses: mostly a number or boolean where a
     * string belongs (a quantity takes a number), else any value given as another kind (a list as a string, a
     * string as an object, ...). apiVersion and kind, which select the decoder, and free-form opaque parameters keep
     * theirs.
     */
    private void wrongType(ObjectNode o) {
        List<Slot> strings = new java.util.ArrayList<>();
        List<Slot> all = new java.util.ArrayList<>();
        o.properties().forEach(e -> {
            if (!e.getKey().equals("apiVersion") && !e.getKey().equals("kind")) {
                slots(new Slot(o, e.getKey(), -1), e.getValue(), strings, all);
            }
        });
        boolean scalarForString = !strings.isEmpty() && random.nextInt(4) != 0;
        Slot slot = scalarForString ? pick(strings) : pick(all);
        JsonNode old = slot.get();
        List<JsonNode> values = List.of(
                NODES.numberNode(5),
                NODES.numberNode(-2),
                NODES.numberNode(1.5),
                NODES.booleanNode(true),
                NODES.booleanNode(false),
                NODES.stringNode("x"),
                NODES.arrayNode(),
                NODES.arrayNode().add(1),
                NODES.objectNode(),
                NODES.objectNode().put("a", 1));
        JsonNode value;
        do {
            value = pick(values);
        } while (value.getNodeType() == old.getNodeType() || (scalarForString && !value.isValueNode()));
        slot.set(value);
    }

    /** A place in the tree: a property of an object or an element of a list. */
    private record Slot(JsonNode parent, String key, int index) {
        JsonNode get() {
            return key == null ? parent.get(index) : parent.get(key);
        }

        void set(JsonNode value) {
            if (key == null) {
                ((ArrayNode) parent).set(index, value);
            } else {
                ((ObjectNode) parent).set(key, value);
            }
        }
    }

    private static void slots(Slot slot, JsonNode node, List<Slot> strings, List<Slot> all) {
        all.add(slot);
        if (node.isString()) {
            strings.add(slot);
        } else if (node.isObject() && !"parameters".equals(slot.key())) {
            node.properties().forEach(e -> slots(new Slot(node, e.getKey(), -1), e.getValue(), strings, all));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                slots(new Slot(node, null, i), node.get(i), strings, all);
            }
        }
    }

    /**
     * A consumable capacity's request policy, mostly broken: both or neither of validValues and validRange, a missing
     * or inadmissible default, values unsorted, duplicated (also as integers: 1.5 and 2), too many or above the
     * capacity, a range without min, bounds crossed or above the capacity, steps that are not positive, too large,
     * not a divisor, fractional or beyond int64; on a device with or without allowMultipleAllocations.
     */
    private void requestPolicy(ObjectNode d) {
        ObjectNode capacity = d.has("capacity") ? (ObjectNode) d.get("capacity") : d.putObject("capacity");
        ObjectNode memory = capacity.putObject("memory").put("value", pick(List.of("40Gi", "40Gi", "10", "1500m")));
        switch (random.nextInt(4)) {
            case 0 -> d.put("allowMultipleAllocations", false);
            case 1 -> d.remove("allowMultipleAllocations");
            default -> d.put("allowMultipleAllocations", true);
        }
        ObjectNode policy = memory.putObject("requestPolicy");
        String byDefault = pick(List.of("", "10Gi", "1Gi", "2Gi", "0", "50Gi", "1.5", "500m", "-1"));
        if (!byDefault.isEmpty()) {
            policy.put("default", byDefault);
        }
        int shape = random.nextInt(5);
        if (shape == 0 || shape == 1 || shape == 4) {
            ArrayNode values = policy.putArray("validValues");
            for (int i = random.nextInt(12); i > 0; i--) {
                values.add(pick(List.of("1Gi", "10Gi", "20Gi", "40Gi", "50Gi", "10Gi", "1.5", "1500m", "2", "-1")));
            }
        }
        if (shape == 2 || shape == 3 || shape == 4) {
            ObjectNode range = policy.putObject("validRange");
            String min = pick(List.of("", "0", "1Gi", "1Gi", "41Gi", "-1", "500m"));
            String max = pick(List.of("", "40Gi", "20Gi", "50Gi", "1Gi"));
            String step = pick(List.of("", "1Gi", "1Gi", "0", "-1Gi", "3Gi", "500m", "1.5", "40Gi", "1n", "10E"));
            if (!min.isEmpty()) {
                range.put("min", min);
            }
            if (!max.isEmpty()) {
                range.put("max", max);
            }
            if (!step.isEmpty()) {
                range.put("step", step);
            }
        }
    }

    /** perDeviceNodeSelection on the slice, and each device's own node selection (mostly one of the three). */
    private void perDeviceNodeSelection(ObjectNode spec, ArrayNode devices) {
        spec.remove("nodeName");
        spec.remove("allNodes");
        spec.remove("nodeSelector");
        spec.put("perDeviceNodeSelection", true);
        if (devices.isEmpty()) {
            devices.addObject().put("name", "gpu-9");
        }
        for (int i = 0; i < devices.size(); i++) {
            ObjectNode d = (ObjectNode) devices.get(i);
            if (random.nextInt(3) != 0) {
                deviceNodeSelection(d);
            }
        }
    }

    private void deviceNodeSelection(ObjectNode d) {
        for (int k = random.nextInt(4) == 0 ? 2 : 1; k > 0; k--) {
            switch (random.nextInt(3)) {
                case 0 -> d.put("nodeName", pick(List.of("node-1", "", "Bad_Node", "node.example.com")));
                case 1 -> d.put("allNodes", random.nextInt(4) != 0);
                default -> {
                    ArrayNode terms = d.putObject("nodeSelector").putArray("nodeSelectorTerms");
                    for (int t = random.nextInt(3); t > 0; t--) {
                        ObjectNode r =
                                terms.addObject().putArray("matchExpressions").addObject();
                        r.put("key", pick(List.of("topology.example.com/zone", "bad key")));
                        r.put("operator", pick(List.of("In", "Exists", "Bogus")));
                        r.putArray("values").add("a");
                    }
                }
            }
        }
    }

    /** {@code n} counters with valid names. */
    private ObjectNode counters(int n) {
        ObjectNode counters = NODES.objectNode();
        for (int i = 0; i < n; i++) {
            counters.putObject("c" + i).put("value", "1");
        }
        return counters;
    }

    private void mutateCounterSets(ArrayNode sets) {
        ObjectNode set = sets.isEmpty() ? sets.addObject().put("name", "set-1") : (ObjectNode) sets.get(0);
        if (!set.has("counters")) {
            set.set("counters", counters(1));
        }
        switch (random.nextInt(7)) {
            case 0 -> set.put("name", pick(BAD_NAMES));
            case 4 ->
                repeat(
                        random.nextBoolean() ? 8 : 7,
                        () -> sets.addObject()
                                .put("name", "more-" + sets.size())
                                .set("counters", counters(1)));
            case 5 -> set.set("counters", counters(random.nextBoolean() ? 33 : 32));
            case 6 -> sets.addObject();
            case 1 ->
                sets.addObject()
                        .put("name", set.get("name").asString())
                        .putObject("counters")
                        .putObject(pick(List.of("memory", "cores")))
                        .put("value", pick(List.of("1", "1000m", "2Ki")));
            case 2 -> set.putObject("counters");
            default ->
                ((ObjectNode) set.get("counters")).putObject(pick(BAD_NAMES)).put("value", "1");
        }
    }

    private void mutateTaintRule(ObjectNode spec) {
        ObjectNode taint = spec.has("taint") ? (ObjectNode) spec.get("taint") : spec.putObject("taint");
        switch (random.nextInt(6)) {
            case 0 -> taint.put("effect", pick(List.of("Bogus", "", "noschedule")));
            case 1 -> taint.put("key", pick(BAD_NAMES));
            case 2 -> taint.remove("key");
            case 3 -> taint.put("value", pick(List.of("bad value", "x".repeat(64))));
            case 4 -> ((ObjectNode) spec.get("deviceSelector")).put("driver", pick(BAD_NAMES));
            default -> ((ObjectNode) spec.get("deviceSelector")).put("pool", pick(List.of("", "Bad", "a//b")));
        }
    }

    private void repeat(int times, Runnable action) {
        for (int i = 0; i < times; i++) {
            action.run();
        }
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
