package io.dra4j.scenario;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * The outcome as plain maps and lists in the shape of the CLI contract, which is the shape the Go oracle prints:
 * keys in the order of its structs, empty optional fields left out, quantities in canonical form, map keys sorted
 * where Go sorts them. The JSON, YAML and comparison code all work on this view, so they agree by construction.
 */
final class OutcomeView {
    private OutcomeView() {}

    static Map<String, Object> of(ScenarioOutcome o) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("scenario", o.scenario());
        AllocationOutcome outcome = o.outcome();
        if (outcome instanceof AllocationOutcome.Failed f) {
            out.put("outcome", "error");
            if (f.message() != null && !f.message().isEmpty()) {
                out.put("error", f.message());
            }
        } else if (outcome instanceof AllocationOutcome.Unschedulable) {
            out.put("outcome", "unschedulable");
        } else if (outcome instanceof AllocationOutcome.Allocated a) {
            out.put("outcome", "allocated");
            List<Object> allocations = new ArrayList<>();
            for (int i = 0; i < a.results().size(); i++) {
                allocations.add(allocation(o.claims().get(i), a.results().get(i)));
            }
            out.put("allocations", allocations);
        }
        return out;
    }

    static Map<String, Object> allocation(String claim, AllocationResult r) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("claim", claim);
        List<Object> results = new ArrayList<>();
        List<DeviceAllocationConfiguration> config = List.of();
        if (r.getDevices() != null) {
            for (DeviceRequestAllocationResult d : nonNull(r.getDevices().getResults())) {
                results.add(result(d));
            }
            config = nonNull(r.getDevices().getConfig());
        }
        out.put("results", results);
        out.put("nodeSelector", r.getNodeSelector() == null ? null : nodeSelector(r.getNodeSelector()));
        if (!config.isEmpty()) {
            List<Object> configs = new ArrayList<>();
            for (DeviceAllocationConfiguration c : config) {
                configs.add(config(c));
            }
            out.put("config", configs);
        }
        return out;
    }

    private static Map<String, Object> result(DeviceRequestAllocationResult d) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("request", Objects.toString(d.getRequest(), ""));
        out.put("driver", Objects.toString(d.getDriver(), ""));
        out.put("pool", Objects.toString(d.getPool(), ""));
        out.put("device", Objects.toString(d.getDevice(), ""));
        if (Boolean.TRUE.equals(d.getAdminAccess())) {
            out.put("adminAccess", true);
        }
        if (!nonNull(d.getTolerations()).isEmpty()) {
            List<Object> tolerations = new ArrayList<>();
            for (DeviceToleration t : d.getTolerations()) {
                tolerations.add(toleration(t));
            }
            out.put("tolerations", tolerations);
        }
        if (!nonNull(d.getBindingConditions()).isEmpty()) {
            out.put("bindingConditions", List.copyOf(d.getBindingConditions()));
        }
        if (!nonNull(d.getBindingFailureConditions()).isEmpty()) {
            out.put("bindingFailureConditions", List.copyOf(d.getBindingFailureConditions()));
        }
        if (d.getShareID() != null && !d.getShareID().isEmpty()) {
            out.put("shareID", d.getShareID());
        }
        if (d.getConsumedCapacity() != null && !d.getConsumedCapacity().isEmpty()) {
            Map<String, Object> consumed = new TreeMap<>();
            for (Map.Entry<String, Quantity> e : d.getConsumedCapacity().entrySet()) {
                consumed.put(e.getKey(), canonical(e.getValue()));
            }
            out.put("consumedCapacity", consumed);
        }
        return out;
    }

    private static String canonical(Quantity q) {
        try {
            return KubeQuantity.fromFabric8(q).canonical();
        } catch (IllegalArgumentException e) {
            return q.toString();
        }
    }

    private static Map<String, Object> toleration(DeviceToleration t) {
        Map<String, Object> out = new LinkedHashMap<>();
        putIfNotEmpty(out, "key", t.getKey());
        putIfNotEmpty(out, "operator", t.getOperator());
        putIfNotEmpty(out, "value", t.getValue());
        putIfNotEmpty(out, "effect", t.getEffect());
        if (t.getTolerationSeconds() != null) {
            out.put("tolerationSeconds", t.getTolerationSeconds());
        }
        return out;
    }

    private static Map<String, Object> nodeSelector(NodeSelector s) {
        List<Object> terms = new ArrayList<>();
        for (NodeSelectorTerm t : nonNull(s.getNodeSelectorTerms())) {
            Map<String, Object> term = new LinkedHashMap<>();
            if (!nonNull(t.getMatchExpressions()).isEmpty()) {
                term.put("matchExpressions", requirements(t.getMatchExpressions()));
            }
            if (!nonNull(t.getMatchFields()).isEmpty()) {
                term.put("matchFields", requirements(t.getMatchFields()));
            }
            terms.add(term);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("nodeSelectorTerms", terms);
        return out;
    }

    private static List<Object> requirements(List<NodeSelectorRequirement> reqs) {
        List<Object> out = new ArrayList<>();
        for (NodeSelectorRequirement r : reqs) {
            Map<String, Object> req = new LinkedHashMap<>();
            req.put("key", Objects.toString(r.getKey(), ""));
            req.put("operator", Objects.toString(r.getOperator(), ""));
            if (!nonNull(r.getValues()).isEmpty()) {
                req.put("values", List.copyOf(r.getValues()));
            }
            out.add(req);
        }
        return out;
    }

    private static Map<String, Object> config(DeviceAllocationConfiguration c) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("source", Objects.toString(c.getSource(), ""));
        if (!nonNull(c.getRequests()).isEmpty()) {
            out.put("requests", List.copyOf(c.getRequests()));
        }
        if (c.getOpaque() != null) {
            Map<String, Object> opaque = new LinkedHashMap<>();
            opaque.put("driver", Objects.toString(c.getOpaque().getDriver(), ""));
            opaque.put(
                    "parameters",
                    sortedPlain(Mappers.READER.valueToTree(c.getOpaque().getParameters())));
            out.put("opaque", opaque);
        }
        return out;
    }

    /** Free-form JSON with object keys sorted, as Go prints parameters it decoded from YAML. */
    private static Object sortedPlain(JsonNode node) {
        if (node != null && node.isObject()) {
            Map<String, Object> out = new TreeMap<>();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                out.put(e.getKey(), sortedPlain(e.getValue()));
            }
            return out;
        }
        if (node != null && node.isArray()) {
            List<Object> out = new ArrayList<>();
            for (JsonNode e : node) {
                out.add(sortedPlain(e));
            }
            return out;
        }
        return Json.plain(node);
    }

    private static void putIfNotEmpty(Map<String, Object> out, String key, String value) {
        if (value != null && !value.isEmpty()) {
            out.put(key, value);
        }
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }
}
