package io.dra4j.migrate;

import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Random resource.k8s.io objects in v1beta1, v1beta2 and v1alpha3 shape (DeviceClass, ResourceClaim,
 * ResourceClaimTemplate, ResourceSlice, DeviceTaintRule, their lists), for the differential test of {@code convert}
 * against upstream's conversion code. It leans on the cases the conversion distinguishes: request fields at their
 * zero value or set, null and empty lists, {@code nodeName: ""} and {@code allNodes: false}, devices without
 * {@code basic}; and it mixes in inputs upstream rejects (kinds a version lacks, v1 shapes under an old version,
 * wrongly typed fields). One instance per run; not thread-safe.
 */
final class OldObjects {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> QUANTITIES = List.of("1Gi", "40Gi", "100m", "2", "1.5Gi", "80G", "0", "1k");
    private static final List<String> NAMES = List.of("gpu", "gpu-0", "a", "mig-1g", "nic", "x1");
    private static final List<String> ATTRS = List.of(
            "model", "index", "gpu.example.com/memory", "driverVersion", "resource.kubernetes.io/pcieRoot", "numa");

    private final Random r;
    /** Generating a 1.32 v1alpha3 object: only fields 1.32 had, capacities as plain quantities. */
    private boolean legacy;

    OldObjects(long seed) {
        this.r = new Random(seed);
    }

    /** One object: v1beta1 most often, as it is the version with real conversion work. */
    ObjectNode next() {
        int pick = r.nextInt(20);
        String version = pick < 11 ? "v1beta1" : pick < 17 ? "v1beta2" : "v1alpha3";
        List<String> kinds = switch (version) {
            case "v1beta1" ->
                List.of(
                        "DeviceClass",
                        "ResourceClaim",
                        "ResourceClaimTemplate",
                        "ResourceSlice",
                        "ResourceSlice",
                        "ResourceClaim");
            case "v1beta2" ->
                List.of("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule");
            default ->
                List.of(
                        "DeviceTaintRule",
                        "DeviceClass",
                        "ResourceClaim",
                        "ResourceClaimTemplate",
                        "ResourceSlice",
                        "ResourceSlice",
                        "ResourceClaim");
        };
        String kind = pick(kinds);
        if (r.nextInt(40) == 0) {
            kind = pick(List.of("DeviceTaintRule", "PodSchedulingContext", "ResourceClass", "Frobnicator"));
        }
        boolean list = r.nextInt(15) == 0;
        if (list) {
            ObjectNode l = NODES.objectNode();
            l.put("apiVersion", "resource.k8s.io/" + version);
            l.put("kind", kind + "List");
            l.putObject("metadata");
            ArrayNode items = l.putArray("items");
            for (int i = r.nextInt(3); i > 0; i--) {
                ObjectNode item = object(version, kind);
                if (r.nextBoolean()) {
                    item.remove("apiVersion");
                    item.remove("kind");
                }
                items.add(item);
            }
            return l;
        }
        return object(version, kind);
    }

    private ObjectNode object(String version, String kind) {
        legacy = version.equals("v1alpha3") && !kind.equals("DeviceTaintRule");
        ObjectNode o = NODES.objectNode();
        o.put("apiVersion", "resource.k8s.io/" + version);
        o.put("kind", kind);
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", pick(NAMES) + "-" + r.nextInt(100));
        if (!kind.equals("DeviceClass")
                && !kind.equals("ResourceSlice")
                && !kind.equals("DeviceTaintRule")
                && r.nextBoolean()) {
            meta.put("namespace", "team-" + r.nextInt(3));
        }
        if (r.nextInt(4) == 0) {
            meta.putObject("labels").put("app", "train");
        }
        boolean beta1 = version.equals("v1beta1") || legacy;
        switch (kind) {
            case "DeviceClass" -> o.set("spec", classSpec());
            case "ResourceClaim" -> {
                o.set("spec", claimSpec(beta1));
                if (r.nextInt(3) == 0) {
                    o.set("status", claimStatus());
                }
            }
            case "ResourceClaimTemplate" -> {
                ObjectNode spec = o.putObject("spec");
                if (r.nextBoolean()) {
                    spec.putObject("metadata").putObject("labels").put("claim", "yes");
                }
                spec.set("spec", claimSpec(beta1));
            }
            case "ResourceSlice" -> o.set("spec", sliceSpec(beta1));
            case "DeviceTaintRule" -> o.set("spec", taintRuleSpec());
            default -> o.putObject("spec").put("whatever", 1);
        }
        if (r.nextInt(40) == 0) {
            typo(o);
        }
        return o;
    }

    /** A misspelt or misplaced field, which strict decoding rejects. */
    private void typo(ObjectNode o) {
        switch (r.nextInt(4)) {
            case 0 -> ((ObjectNode) o.get("metadata")).putObject("lables").put("app", "x");
            case 1 -> ((ObjectNode) o.get("spec")).put("devicesClassName", "gpu.example.com");
            case 2 -> ((ObjectNode) o.get("metadata")).put("name", 42);
            default -> o.put("status", "Ready");
        }
    }

    private ObjectNode classSpec() {
        ObjectNode spec = NODES.objectNode();
        maybe(spec, "selectors", this::selectors);
        if (r.nextBoolean()) {
            ArrayNode config = spec.putArray("config");
            config.addObject().set("opaque", opaque());
        }
        if (!legacy && r.nextInt(3) == 0) {
            spec.put("extendedResourceName", "example.com/gpu");
        }
        return spec;
    }

    private ObjectNode claimSpec(boolean beta1) {
        ObjectNode spec = NODES.objectNode();
        ObjectNode devices = spec.putObject("devices");
        ArrayNode requests = devices.putArray("requests");
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            requests.add(beta1 ? flatRequest("req-" + i) : nestedRequest("req-" + i));
        }
        if (r.nextInt(3) == 0) {
            ObjectNode c = devices.putArray("constraints").addObject();
            c.putArray("requests").add("req-0");
            c.put(r.nextBoolean() ? "matchAttribute" : "distinctAttribute", "gpu.example.com/numa");
        }
        if (r.nextInt(3) == 0) {
            ObjectNode c = devices.putArray("config").addObject();
            if (r.nextBoolean()) {
                c.putArray("requests").add("req-0");
            }
            c.set("opaque", opaque());
        }
        return spec;
    }

    /** A v1beta1 request: the main fields at the request, each absent, at its zero value, or set. */
    private ObjectNode flatRequest(String name) {
        ObjectNode req = NODES.objectNode();
        req.put("name", name);
        if (!legacy && r.nextInt(6) == 0) {
            ArrayNode first = req.putArray("firstAvailable");
            for (int i = 1 + r.nextInt(2); i > 0; i--) {
                first.add(subRequest("sub-" + i));
            }
            if (r.nextInt(3) != 0) {
                return req;
            }
        }
        fieldVariant(req, "deviceClassName", () -> NODES.stringNode(r.nextBoolean() ? "gpu.example.com" : ""));
        fieldVariant(req, "selectors", this::selectorsOrEmpty);
        fieldVariant(req, "allocationMode", () -> NODES.stringNode(pick(List.of("ExactCount", "All", ""))));
        fieldVariant(req, "count", () -> NODES.numberNode(pick(List.of(0, 1, 2, 8))));
        fieldVariant(req, "adminAccess", () -> NODES.booleanNode(r.nextBoolean()));
        if (!legacy) {
            fieldVariant(req, "tolerations", this::tolerations);
            fieldVariant(req, "capacity", this::capacityRequirements);
        }
        if (r.nextInt(30) == 0) {
            req.put("count", "2");
        }
        if (r.nextInt(30) == 0) {
            req.putObject("exactly").put("deviceClassName", "gpu.example.com");
        }
        return req;
    }

    private ObjectNode subRequest(String name) {
        ObjectNode sub = NODES.objectNode();
        sub.put("name", name);
        sub.put("deviceClassName", "gpu.example.com");
        maybe(sub, "selectors", this::selectors);
        if (r.nextBoolean()) {
            sub.put("allocationMode", "ExactCount");
            sub.put("count", 1 + r.nextInt(2));
        }
        maybe(sub, "tolerations", this::tolerations);
        maybe(sub, "capacity", this::capacityRequirements);
        return sub;
    }

    /** A v1beta2 request: exactly or firstAvailable. */
    private ObjectNode nestedRequest(String name) {
        ObjectNode req = NODES.objectNode();
        req.put("name", name);
        if (r.nextInt(4) == 0) {
            ArrayNode first = req.putArray("firstAvailable");
            for (int i = 1 + r.nextInt(2); i > 0; i--) {
                first.add(subRequest("sub-" + i));
            }
            return req;
        }
        ObjectNode exactly = req.putObject("exactly");
        exactly.put("deviceClassName", "gpu.example.com");
        maybe(exactly, "selectors", this::selectors);
        if (r.nextBoolean()) {
            exactly.put("allocationMode", r.nextBoolean() ? "All" : "ExactCount");
        }
        if (r.nextBoolean()) {
            exactly.put("count", 1 + r.nextInt(4));
        }
        maybe(exactly, "adminAccess", () -> NODES.booleanNode(true));
        maybe(exactly, "tolerations", this::tolerations);
        maybe(exactly, "capacity", this::capacityRequirements);
        return req;
    }

    /** Absent (half the time), null, the zero value written out, or a value from {@code value}. */
    private void fieldVariant(ObjectNode obj, String field, Supplier<JsonNode> value) {
        int v = r.nextInt(8);
        if (v < 4) {
            return;
        }
        if (v == 4) {
            obj.putNull(field);
            return;
        }
        obj.set(field, value.get());
    }

    private void maybe(ObjectNode obj, String field, Supplier<JsonNode> value) {
        if (r.nextBoolean()) {
            obj.set(field, value.get());
        }
    }

    private JsonNode selectorsOrEmpty() {
        return r.nextInt(3) == 0 ? NODES.arrayNode() : selectors();
    }

    private ArrayNode selectors() {
        ArrayNode a = NODES.arrayNode();
        for (int i = 1 + r.nextInt(2); i > 0; i--) {
            a.addObject()
                    .putObject("cel")
                    .put(
                            "expression",
                            pick(List.of(
                                    "device.driver == \"gpu.example.com\"",
                                    "device.attributes[\"gpu.example.com\"].model == \"A100\"",
                                    "device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0")));
        }
        return a;
    }

    private ArrayNode tolerations() {
        ArrayNode a = NODES.arrayNode();
        for (int i = r.nextInt(3); i > 0; i--) {
            ObjectNode t = a.addObject();
            t.put("key", "example.com/unhealthy");
            t.put("operator", r.nextBoolean() ? "Exists" : "Equal");
            if (r.nextBoolean()) {
                t.put("value", "true");
            }
            t.put("effect", pick(List.of("NoSchedule", "NoExecute")));
            if (r.nextInt(3) == 0) {
                t.put("tolerationSeconds", 300);
            }
        }
        return a;
    }

    private ObjectNode capacityRequirements() {
        ObjectNode c = NODES.objectNode();
        c.putObject("requests").put("memory", pick(QUANTITIES));
        return c;
    }

    private ObjectNode opaque() {
        ObjectNode o = NODES.objectNode();
        o.put("driver", "gpu.example.com");
        ObjectNode p = o.putObject("parameters");
        p.put("apiVersion", "gpu.example.com/v1");
        p.put("kind", "GpuConfig");
        p.putObject("sharing").put("strategy", "TimeSlicing");
        return o;
    }

    private ObjectNode claimStatus() {
        ObjectNode status = NODES.objectNode();
        ObjectNode alloc = status.putObject("allocation");
        ArrayNode results = alloc.putObject("devices").putArray("results");
        ObjectNode res = results.addObject();
        res.put("request", "req-0");
        res.put("driver", "gpu.example.com");
        res.put("pool", "node-1");
        res.put("device", "gpu-0");
        if (r.nextBoolean()) {
            res.put("adminAccess", false);
        }
        if (!legacy && r.nextBoolean()) {
            res.putObject("consumedCapacity").put("memory", "10Gi");
            res.put("shareID", "6f3d2c1b-0000-4000-8000-000000000001");
        }
        if (r.nextBoolean()) {
            ObjectNode term = alloc.putObject("nodeSelector")
                    .putArray("nodeSelectorTerms")
                    .addObject();
            ObjectNode expr = term.putArray("matchFields").addObject();
            expr.put("key", "metadata.name");
            expr.put("operator", "In");
            expr.putArray("values").add("node-1");
        }
        if (!legacy && r.nextBoolean()) {
            alloc.put("allocationTimestamp", "2026-05-01T10:00:00Z");
        }
        if (r.nextBoolean()) {
            ObjectNode ref = status.putArray("reservedFor").addObject();
            ref.put("resource", "pods");
            ref.put("name", "train-0");
            ref.put("uid", "6f3d2c1b-0000-4000-8000-000000000002");
        }
        if (r.nextInt(3) == 0) {
            ObjectNode d = status.putArray("devices").addObject();
            d.put("driver", "gpu.example.com");
            d.put("pool", "node-1");
            d.put("device", "gpu-0");
            ObjectNode net = d.putObject("networkData");
            net.put("interfaceName", "eth1");
            net.putArray("ips").add("10.0.0.5/24");
        }
        return status;
    }

    private ObjectNode sliceSpec(boolean beta1) {
        ObjectNode spec = NODES.objectNode();
        spec.put("driver", "gpu.example.com");
        ObjectNode pool = spec.putObject("pool");
        pool.put("name", "node-1");
        pool.put("generation", r.nextInt(3));
        pool.put("resourceSliceCount", 1 + r.nextInt(2));
        switch (r.nextInt(legacy ? 4 : 6)) {
            case 0 -> spec.put("nodeName", "node-1");
            case 1 -> spec.put("nodeName", "");
            case 2 -> spec.put("allNodes", r.nextBoolean());
            case 3 -> spec.set("nodeSelector", nodeSelector());
            case 4 -> spec.put("perDeviceNodeSelection", true);
            case 5 -> {
                spec.put("nodeName", "node-1");
                spec.put("allNodes", false);
            }
        }
        if (!legacy && r.nextInt(5) == 0) {
            ObjectNode set = spec.putArray("sharedCounters").addObject();
            set.put("name", "gpu-0-counters");
            set.putObject("counters").putObject("memory").put("value", pick(QUANTITIES));
            if (r.nextBoolean()) {
                return spec;
            }
        }
        ArrayNode devices = spec.putArray("devices");
        for (int i = r.nextInt(4); i > 0; i--) {
            ObjectNode fields = deviceFields();
            ObjectNode device = devices.addObject();
            device.put("name", "gpu-" + i);
            if (!beta1) {
                device.setAll(fields);
            } else if (r.nextInt(25) == 0) {
                device.setAll(fields);
                device.put("bindsToNode", true);
            } else {
                switch (r.nextInt(8)) {
                    case 0 -> {}
                    case 1 -> device.putNull("basic");
                    case 2 -> device.putObject("basic");
                    default -> device.set("basic", fields);
                }
            }
        }
        return spec;
    }

    private ObjectNode deviceFields() {
        return legacy ? legacyDeviceFields() : currentDeviceFields();
    }

    /** 1.32's basic device: attributes, and capacities as plain quantities. */
    private ObjectNode legacyDeviceFields() {
        ObjectNode d = currentDeviceFields();
        d.retain("attributes", "capacity");
        if (d.get("capacity") instanceof ObjectNode cap) {
            cap.put("memory", cap.path("memory").path("value").asString("1Gi"));
        }
        return d;
    }

    private ObjectNode currentDeviceFields() {
        ObjectNode d = NODES.objectNode();
        if (r.nextInt(4) != 0) {
            ObjectNode attrs = d.putObject("attributes");
            for (int i = r.nextInt(4); i > 0; i--) {
                ObjectNode a = attrs.putObject(pick(ATTRS));
                switch (r.nextInt(4)) {
                    case 0 -> a.put("int", r.nextInt(8));
                    case 1 -> a.put("bool", r.nextBoolean());
                    case 2 -> a.put("string", "A100");
                    default -> a.put("version", "570.158.1");
                }
            }
        }
        if (r.nextBoolean()) {
            ObjectNode cap = d.putObject("capacity");
            ObjectNode mem = cap.putObject("memory");
            mem.put("value", pick(QUANTITIES));
            if (r.nextInt(4) == 0) {
                ObjectNode policy = mem.putObject("requestPolicy");
                policy.put("default", "1Gi");
                ObjectNode range = policy.putObject("validRange");
                range.put("min", "1Gi");
                range.put("step", "1Gi");
            }
        }
        if (r.nextInt(4) == 0) {
            ObjectNode use = d.putArray("consumesCounters").addObject();
            use.put("counterSet", "gpu-0-counters");
            use.putObject("counters").putObject("memory").put("value", "10Gi");
        }
        switch (r.nextInt(8)) {
            case 0 -> d.put("nodeName", r.nextBoolean() ? "node-1" : "");
            case 1 -> d.put("allNodes", r.nextBoolean());
            case 2 -> d.set("nodeSelector", nodeSelector());
            default -> {}
        }
        if (r.nextInt(4) == 0) {
            ObjectNode t = d.putArray("taints").addObject();
            t.put("key", "example.com/unhealthy");
            t.put("effect", pick(List.of("NoSchedule", "NoExecute", "None")));
            if (r.nextBoolean()) {
                t.put("value", "ecc");
            }
            if (r.nextBoolean()) {
                t.put("timeAdded", "2026-05-01T10:00:00Z");
            }
        }
        if (r.nextInt(5) == 0) {
            d.put("bindsToNode", true);
            d.putArray("bindingConditions").add("Attached");
            d.putArray("bindingFailureConditions").add("AttachFailed");
        }
        if (r.nextInt(5) == 0) {
            d.put("allowMultipleAllocations", r.nextBoolean());
        }
        return d;
    }

    private ObjectNode nodeSelector() {
        ObjectNode sel = NODES.objectNode();
        ObjectNode expr = sel.putArray("nodeSelectorTerms")
                .addObject()
                .putArray("matchExpressions")
                .addObject();
        expr.put("key", "nvidia.com/gpu.product");
        expr.put("operator", "In");
        expr.putArray("values").add("NVIDIA-A100-SXM4-40GB");
        return sel;
    }

    private ObjectNode taintRuleSpec() {
        ObjectNode spec = NODES.objectNode();
        if (r.nextInt(4) != 0) {
            ObjectNode sel = spec.putObject("deviceSelector");
            sel.put("driver", "gpu.example.com");
            if (r.nextBoolean()) {
                sel.put("pool", "node-1");
            }
            if (r.nextBoolean()) {
                sel.put("device", "gpu-0");
            }
            if (r.nextInt(15) == 0) {
                sel.put("deviceClassName", "gpu.example.com");
            }
        }
        ObjectNode taint = spec.putObject("taint");
        taint.put("key", "example.com/maintenance");
        taint.put("effect", pick(List.of("NoSchedule", "NoExecute", "None")));
        if (r.nextBoolean()) {
            taint.put("value", "planned");
        }
        return spec;
    }

    private <T> T pick(List<T> options) {
        return options.get(r.nextInt(options.size()));
    }
}
