package io.dra4j.sim.whatif;

import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.EvalResult;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Who holds which device: every device of the snapshot's slices with its node, pool, the DeviceClasses whose
 * selectors it satisfies, its taints (as published in the slice), whether it is a partition (consumes shared
 * counters) or shareable, and the claims (and the pods they are reserved for) that hold it.
 */
public final class DeviceInventory {
    private DeviceInventory() {}

    /** One device. {@code node} is empty for a device of a slice that names no node. */
    public record Row(
            String node,
            String nodePool,
            String driver,
            String pool,
            String device,
            List<String> classes,
            List<String> taints,
            String kind,
            List<String> claims,
            List<String> pods,
            Map<String, String> attributes) {
        public Row {
            classes = List.copyOf(classes);
            taints = List.copyOf(taints);
            claims = List.copyOf(claims);
            pods = List.copyOf(pods);
            attributes = Map.copyOf(attributes);
        }

        public boolean held() {
            return !claims.isEmpty();
        }
    }

    /**
     * The devices, slice by slice, of nodes matching {@code nodes} (devices of slices without a node are kept
     * only when every node matches, i.e. no selection) and of class {@code deviceClass} (null: any).
     *
     * @param poolLabel the node label that names a node's node pool (its value, or "" when the node lacks it)
     */
    public static List<Row> of(
            ClusterSnapshot s,
            Predicate<Map<String, String>> nodes,
            boolean selecting,
            String deviceClass,
            String poolLabel) {
        if (deviceClass != null
                && s.deviceClasses().stream()
                        .noneMatch(c -> c.getMetadata().getName().equals(deviceClass))) {
            throw new IllegalArgumentException("deviceclass " + deviceClass + " not found in the snapshot");
        }
        DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(true, true));
        Map<String, List<CompiledExpression>> selectors = new TreeMap<>();
        for (DeviceClass c : s.deviceClasses()) {
            List<CompiledExpression> compiled = new ArrayList<>();
            for (DeviceSelector sel : c.getSpec() == null || c.getSpec().getSelectors() == null
                    ? List.<DeviceSelector>of()
                    : c.getSpec().getSelectors()) {
                if (sel.getCel() != null) {
                    compiled.add(env.compile(sel.getCel().getExpression()));
                }
            }
            selectors.put(c.getMetadata().getName(), compiled);
        }
        Map<String, Node> nodeByName = new HashMap<>();
        s.nodes().forEach(n -> nodeByName.put(n.getMetadata().getName(), n));
        Map<String, List<ResourceClaim>> holders = new HashMap<>();
        for (ResourceClaim c : s.resourceClaims()) {
            if (c.getStatus() == null
                    || c.getStatus().getAllocation() == null
                    || c.getStatus().getAllocation().getDevices() == null) {
                continue;
            }
            for (DeviceRequestAllocationResult r :
                    c.getStatus().getAllocation().getDevices().getResults()) {
                List<ResourceClaim> list = holders.computeIfAbsent(
                        r.getDriver() + "/" + r.getPool() + "/" + r.getDevice(), k -> new ArrayList<>());
                if (!list.contains(c)) {
                    list.add(c);
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (ResourceSlice slice : s.resourceSlices()) {
            String nodeName =
                    slice.getSpec().getNodeName() == null ? "" : slice.getSpec().getNodeName();
            Node node = nodeByName.get(nodeName);
            Map<String, String> labels = node == null || node.getMetadata().getLabels() == null
                    ? Map.of()
                    : node.getMetadata().getLabels();
            if (selecting && (node == null || !nodes.test(labels))) {
                continue;
            }
            String driver = slice.getSpec().getDriver();
            String pool = slice.getSpec().getPool().getName();
            for (Device d : slice.getSpec().getDevices() == null
                    ? List.<Device>of()
                    : slice.getSpec().getDevices()) {
                List<String> classes = new ArrayList<>();
                selectors.forEach((cls, compiled) -> {
                    var device = env.device(driver, d);
                    if (compiled.stream()
                            .allMatch(e -> e.evaluate(device) instanceof EvalResult.Matched m && m.value())) {
                        classes.add(cls);
                    }
                });
                if (deviceClass != null && !classes.contains(deviceClass)) {
                    continue;
                }
                List<String> taints = new ArrayList<>();
                for (DeviceTaint t : d.getTaints() == null ? List.<DeviceTaint>of() : d.getTaints()) {
                    taints.add(t.getKey() + (t.getValue() == null ? "" : "=" + t.getValue()) + ":" + t.getEffect());
                }
                String kind = d.getConsumesCounters() != null
                                && !d.getConsumesCounters().isEmpty()
                        ? "partition of "
                                + String.join(
                                        "+",
                                        d.getConsumesCounters().stream()
                                                .map(c -> c.getCounterSet())
                                                .toList())
                        : Boolean.TRUE.equals(d.getAllowMultipleAllocations()) ? "shared" : "device";
                List<String> claims = new ArrayList<>();
                List<String> pods = new ArrayList<>();
                for (ResourceClaim c : holders.getOrDefault(driver + "/" + pool + "/" + d.getName(), List.of())) {
                    String ns = Manifests.namespaceOf(c);
                    claims.add(ns + "/" + c.getMetadata().getName());
                    for (ResourceClaimConsumerReference r : c.getStatus().getReservedFor() == null
                            ? List.<ResourceClaimConsumerReference>of()
                            : c.getStatus().getReservedFor()) {
                        if ("pods".equals(r.getResource())) {
                            pods.add(ns + "/" + r.getName());
                        }
                    }
                }
                Map<String, String> attributes = new LinkedHashMap<>();
                if (d.getAttributes() != null) {
                    new TreeMap<>(d.getAttributes())
                            .forEach((k, v) -> attributes.put(
                                    k,
                                    v.getString() != null
                                            ? v.getString()
                                            : v.getInt() != null
                                                    ? String.valueOf(v.getInt())
                                                    : v.getBool() != null
                                                            ? String.valueOf(v.getBool())
                                                            : v.getVersion() != null
                                                                    ? v.getVersion()
                                                                    : String.valueOf(v)));
                }
                rows.add(new Row(
                        nodeName,
                        labels.getOrDefault(poolLabel, ""),
                        driver,
                        pool,
                        d.getName(),
                        classes,
                        taints,
                        kind,
                        claims,
                        pods,
                        attributes));
            }
        }
        return rows;
    }
}
