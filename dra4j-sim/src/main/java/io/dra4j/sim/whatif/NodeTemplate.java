package io.dra4j.sim.whatif;

import io.dra4j.sim.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A node with its node-local ResourceSlices (those naming it in {@code spec.nodeName}), to be cloned into new nodes
 * as cluster-autoscaler sanitizes a template node: a new name (and {@code kubernetes.io/hostname}), no UID, no
 * provider ID, not cordoned, without the autoscaler's and the node lifecycle's taints; the slices renamed with the
 * node, their pools renamed per node (the old node name replaced in the pool name, or the new one appended), so
 * that every clone publishes pools of its own.
 */
public record NodeTemplate(Node node, List<ResourceSlice> slices) {
    /** Taints a new node does not carry: cluster-autoscaler's own, and those the node lifecycle sets from conditions. */
    private static final Set<String> SANITIZED_TAINT_PREFIXES = Set.of(
            "ToBeDeletedByClusterAutoscaler",
            "DeletionCandidateOfClusterAutoscaler",
            "node.kubernetes.io/",
            "node.cloudprovider.kubernetes.io/");

    public NodeTemplate {
        Objects.requireNonNull(node, "node");
        slices = List.copyOf(slices);
    }

    public String name() {
        return node.getMetadata().getName();
    }

    /** The node of that name with its node-local slices, or an error naming what the snapshot has. */
    public static NodeTemplate of(ClusterSnapshot snapshot, String nodeName) {
        for (Node n : snapshot.nodes()) {
            if (nodeName.equals(n.getMetadata().getName())) {
                List<ResourceSlice> local = snapshot.resourceSlices().stream()
                        .filter(s -> nodeName.equals(s.getSpec().getNodeName()))
                        .toList();
                return new NodeTemplate(n, local);
            }
        }
        throw new IllegalArgumentException("node " + nodeName + " is not in the snapshot ("
                + snapshot.nodes().size() + " nodes)");
    }

    /** A fresh node like this one, named {@code newName}, with its slices; nothing runs on it. */
    public NodeTemplate cloneAs(String newName) {
        String old = name();
        NodeBuilder b = new NodeBuilder(node)
                .editMetadata()
                .withName(newName)
                .withUid(null)
                .withResourceVersion(null)
                .withCreationTimestamp(null)
                .withManagedFields(List.of())
                .withOwnerReferences(List.of())
                .withLabels(relabel(node.getMetadata().getLabels(), old, newName))
                .endMetadata();
        if (node.getSpec() != null) {
            List<Taint> kept = new ArrayList<>();
            for (Taint t : node.getSpec().getTaints() == null
                    ? List.<Taint>of()
                    : node.getSpec().getTaints()) {
                if (SANITIZED_TAINT_PREFIXES.stream().noneMatch(p -> t.getKey().startsWith(p))) {
                    kept.add(t);
                }
            }
            b.editSpec()
                    .withProviderID(null)
                    .withUnschedulable(null)
                    .withTaints(kept)
                    .endSpec();
        }
        List<ResourceSlice> cloned = new ArrayList<>();
        for (ResourceSlice s : slices) {
            cloned.add(new ResourceSliceBuilder(s)
                    .editMetadata()
                    .withName(rename(s.getMetadata().getName(), old, newName))
                    .withUid(null)
                    .withResourceVersion(null)
                    .withCreationTimestamp(null)
                    .withManagedFields(List.of())
                    .withOwnerReferences(List.of())
                    .endMetadata()
                    .editSpec()
                    .withNodeName(newName)
                    .editPool()
                    .withName(rename(s.getSpec().getPool().getName(), old, newName))
                    .endPool()
                    .endSpec()
                    .build());
        }
        return new NodeTemplate(b.build(), cloned);
    }

    /**
     * The pools of the template that would be incomplete on a clone: a pool's newest generation declares more
     * slices ({@code resourceSliceCount}) than the template has, so the allocator cannot use it. As
     * {@code pool driver/name: generation G has S of N slices}.
     */
    public List<String> incompletePools() {
        Map<String, long[]> pools = new TreeMap<>();
        for (ResourceSlice s : slices) {
            String key = s.getSpec().getDriver() + "/" + s.getSpec().getPool().getName();
            long gen = s.getSpec().getPool().getGeneration() == null
                    ? 0
                    : s.getSpec().getPool().getGeneration();
            long count = s.getSpec().getPool().getResourceSliceCount() == null
                    ? 0
                    : s.getSpec().getPool().getResourceSliceCount();
            long[] g = pools.computeIfAbsent(key, k -> new long[] {Long.MIN_VALUE, 0, 0});
            if (gen > g[0]) {
                g[0] = gen;
                g[1] = 0;
                g[2] = count;
            }
            if (gen == g[0]) {
                g[1]++;
            }
        }
        List<String> out = new ArrayList<>();
        pools.forEach((pool, g) -> {
            if (g[1] < g[2]) {
                out.add("pool " + pool + ": generation " + g[0] + " has " + g[1] + " of " + g[2] + " slices");
            }
        });
        return out;
    }

    /** The snapshot with these nodes (and their slices) added. */
    public static ClusterSnapshot addTo(ClusterSnapshot s, List<NodeTemplate> added) {
        List<Node> nodes = new ArrayList<>(s.nodes());
        List<ResourceSlice> slices = new ArrayList<>(s.resourceSlices());
        for (NodeTemplate t : added) {
            nodes.add(t.node());
            slices.addAll(t.slices());
        }
        return s.with(nodes, s.pods(), slices, s.resourceClaims());
    }

    private static Map<String, String> relabel(Map<String, String> labels, String old, String newName) {
        Map<String, String> out = new LinkedHashMap<>();
        if (labels != null) {
            labels.forEach((k, v) -> out.put(k, k.equals("kubernetes.io/hostname") || v.equals(old) ? newName : v));
        }
        return out;
    }

    private static String rename(String name, String old, String newName) {
        return name.contains(old) ? name.replace(old, newName) : name + "-" + newName;
    }
}
