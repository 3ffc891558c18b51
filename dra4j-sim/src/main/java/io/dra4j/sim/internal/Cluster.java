package io.dra4j.sim.internal;

import io.dra4j.allocator.FeatureGates;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The simulated cluster as the scheduler's cache sees it during a run: nodes in the scheduler's node-tree order,
 * the claims (mutable copies, updated as pods are bound), device classes and the DRA allocator access.
 * Single-threaded, owned by one simulation.
 */
final class Cluster {
    static final String IMPLICIT_EXTENDED_RESOURCE_PREFIX = "deviceclass.resource.kubernetes.io/";

    final FeatureGates gates;
    final DraAllocation dra;
    final List<NodeInfo> nodes;
    /** What Filter reads about each node, versioned: pods and the pools it sees. */
    final NodeVersions versions;

    final Map<String, NodeInfo> nodesByName = new HashMap<>();
    /** The images of the nodes' status, as the scheduler cache's image states (ImageLocality). */
    final ImageLocality images;

    private final Map<String, ResourceClaim> claims = new LinkedHashMap<>();
    private final Map<String, DeviceClass> classes = new TreeMap<>();
    private final Map<String, DeviceClass> extendedResourceClasses = new HashMap<>();
    /** Claims added, removed or changed since the allocator's state was last brought up to date, by key. */
    private java.util.Set<String> changed = new java.util.LinkedHashSet<>();

    private final java.util.Set<String> nodesWithLocalSlices = new java.util.HashSet<>();

    /** @param timeout the bound on each allocation (kube-scheduler's filterTimeout), null for none */
    Cluster(
            FeatureGates gates,
            Duration timeout,
            List<Node> nodes,
            List<DeviceClass> classes,
            List<ResourceSlice> slices,
            List<DeviceTaintRule> rules,
            List<ResourceClaim> claims) {
        this.gates = gates;
        this.nodes = nodeTreeOrder(nodes);
        this.versions = new NodeVersions(this.nodes, slices);
        this.nodes.forEach(n -> n.versions = versions);
        this.dra = new DraAllocation(gates, timeout, classes, slices, rules, versions, this.nodes.size());
        this.images = new ImageLocality(nodes);
        for (NodeInfo n : this.nodes) {
            nodesByName.put(n.name, n);
        }
        for (DeviceClass c : classes) {
            this.classes.put(c.getMetadata().getName(), c);
        }
        // Explicit extendedResourceName first, by class name; then every class's implicit name.
        for (DeviceClass c : this.classes.values()) {
            String explicit = c.getSpec() == null ? null : c.getSpec().getExtendedResourceName();
            if (explicit != null && !explicit.isEmpty()) {
                extendedResourceClasses.putIfAbsent(explicit, c);
            }
        }
        for (DeviceClass c : this.classes.values()) {
            extendedResourceClasses.putIfAbsent(
                    IMPLICIT_EXTENDED_RESOURCE_PREFIX + c.getMetadata().getName(), c);
        }
        for (ResourceClaim c : claims) {
            addClaim(c);
        }
        for (ResourceSlice s : slices) {
            if (s.getSpec().getNodeName() != null) {
                nodesWithLocalSlices.add(s.getSpec().getNodeName());
            }
        }
    }

    /** Whether a ResourceSlice names this node in spec.nodeName. */
    boolean hasLocalSlices(String node) {
        return nodesWithLocalSlices.contains(node);
    }

    /**
     * The node tree's order (pkg/scheduler/backend/cache/node_tree.go): zones in the order their first node
     * appears, nodes of a zone in input order, listed round-robin over the zones.
     */
    private static List<NodeInfo> nodeTreeOrder(List<Node> nodes) {
        Map<String, List<Node>> zones = new LinkedHashMap<>();
        for (Node n : nodes) {
            Map<String, String> l = Selectors.labels(n);
            String region = l.getOrDefault("topology.kubernetes.io/region", "");
            String zone = l.getOrDefault("topology.kubernetes.io/zone", "");
            String key = region.isEmpty() && zone.isEmpty() ? "" : region + ":\u0000:" + zone;
            zones.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
        }
        List<NodeInfo> out = new ArrayList<>();
        for (int i = 0; out.size() < nodes.size(); i++) {
            for (List<Node> z : zones.values()) {
                if (i < z.size()) {
                    out.add(new NodeInfo(z.get(i), out.size()));
                }
            }
        }
        return out;
    }

    ResourceClaim claim(String namespace, String name) {
        return claims.get(namespace + "/" + name);
    }

    void addClaim(ResourceClaim c) {
        claims.put(key(c), c);
        changed.add(key(c));
        versions.claimChanged(key(c), c);
    }

    void removeClaim(ResourceClaim c) {
        claims.remove(key(c));
        changed.add(key(c));
        versions.claimChanged(key(c), null);
    }

    private static String key(ResourceClaim c) {
        return c.getMetadata().getNamespace() + "/" + c.getMetadata().getName();
    }

    List<ResourceClaim> claims() {
        return List.copyOf(claims.values());
    }

    /** Called after these claims' status changed (allocated, deallocated): the allocator's state follows. */
    void claimsChanged(java.util.Collection<ResourceClaim> claims) {
        for (ResourceClaim c : claims) {
            changed.add(key(c));
            versions.claimChanged(key(c), this.claims.get(key(c)));
        }
    }

    /**
     * The claims changed since the last call, by key, each as it is now (null when removed); the set is cleared.
     * Only these are brought up to date in the allocator's state, so a cycle costs what changed, not every claim.
     */
    Map<String, ResourceClaim> takeChanged() {
        Map<String, ResourceClaim> out = new LinkedHashMap<>();
        if (changed.isEmpty()) {
            return out;
        }
        for (String k : changed) {
            out.put(k, claims.get(k));
        }
        // A new set rather than clear(): clearing zeroes the whole table, sized by the most claims it ever held (every
        // template claim at the start), on every cycle.
        changed = new java.util.LinkedHashSet<>();
        return out;
    }

    DeviceClass deviceClass(String name) {
        return classes.get(name);
    }

    /** The DeviceClass that backs an extended resource name, explicitly or by the implicit name; null if none. */
    DeviceClass classForExtendedResource(String resourceName) {
        return extendedResourceClasses.get(resourceName);
    }
}
