package io.dra4j.sim.compare;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.sim.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The device-plugin form of a DRA snapshot: NVIDIA's device plugin with the GPU operator's mixed MIG strategy. Nodes
 * get {@code nvidia.com/gpu} (whole GPUs not laid out as MIG) and {@code nvidia.com/mig-<profile>} (the fixed MIG
 * layout) in allocatable and the GPU feature discovery label {@code nvidia.com/gpu.product}; a node with a failed
 * GPU is cordoned. Each claim request becomes a container limit, what it asked of the hardware a required node
 * affinity on the product label; what device plugins cannot express (constraints, fallbacks, admin access, all
 * devices) is dropped and said. The DRA objects are removed except the slices, kept as the hardware inventory.
 */
final class DevicePluginForm {
    static final String PRODUCT_LABEL = "nvidia.com/gpu.product";
    static final String ASSIGNED = "dra4j.io/device-plugin-devices";
    static final String UNMATCHED_LABEL = "dra4j.io/unmatched-request";

    /** How one claim request ({@code namespace/template-or-claim/request}) maps; count 0: dropped. */
    record RequestForm(String key, String resource, long count, List<String> products, List<String> dropped) {
        RequestForm withKey(String k) {
            return new RequestForm(k, resource, count, products, dropped);
        }

        String describe() {
            String form = count == 0
                    ? "nothing (dropped)"
                    : resource + ": " + count
                            + (products.isEmpty()
                                    ? ""
                                    : " on " + PRODUCT_LABEL + " in [" + String.join(", ", products) + "]");
            return key + " -> " + form + (dropped.isEmpty() ? "" : "; cannot express: " + String.join("; ", dropped));
        }
    }

    private final ClusterSnapshot dra;
    private final Inventory inventory;
    private final DevicePluginMapping overrides;
    private final DeviceCandidates candidates;
    private final Map<String, RequestForm> forms = new TreeMap<>();
    private final Map<String, List<String>> layout = new TreeMap<>();

    DevicePluginForm(ClusterSnapshot dra, Inventory inventory, DevicePluginMapping overrides, FeatureGates gates) {
        this.dra = dra;
        this.inventory = inventory;
        this.overrides = overrides;
        this.candidates = new DeviceCandidates(dra.deviceClasses(), dra.resourceSlices(), gates);
    }

    /** The mapping of every claim request met, in key order (filled by {@link #snapshot}). */
    List<RequestForm> forms() {
        return List.copyOf(forms.values());
    }

    /** Per node, the MIG partitions of the fixed layout (device keys). */
    Map<String, List<String>> layout() {
        return layout;
    }

    ClusterSnapshot snapshot() {
        List<Node> nodes = dra.nodes().stream().map(this::node).toList();
        List<Pod> pods = dra.pods().stream().map(this::pod).toList();
        return new ClusterSnapshot(
                nodes,
                pods,
                dra.priorityClasses(),
                List.of(),
                dra.resourceSlices(),
                List.of(),
                List.of(),
                List.of(),
                dra.deployments().stream()
                        .map(d -> new DeploymentBuilder(d)
                                .editSpec()
                                .withTemplate(template(d.getSpec().getTemplate(), d.getMetadata()))
                                .endSpec()
                                .build())
                        .toList(),
                dra.replicaSets().stream()
                        .map(d -> new ReplicaSetBuilder(d)
                                .editSpec()
                                .withTemplate(template(d.getSpec().getTemplate(), d.getMetadata()))
                                .endSpec()
                                .build())
                        .toList(),
                dra.statefulSets().stream()
                        .map(d -> new StatefulSetBuilder(d)
                                .editSpec()
                                .withTemplate(template(d.getSpec().getTemplate(), d.getMetadata()))
                                .endSpec()
                                .build())
                        .toList(),
                dra.jobs().stream()
                        .map(d -> new JobBuilder(d)
                                .editSpec()
                                .withTemplate(template(d.getSpec().getTemplate(), d.getMetadata()))
                                .endSpec()
                                .build())
                        .toList(),
                dra.daemonSets().stream()
                        .map(d -> new DaemonSetBuilder(d)
                                .editSpec()
                                .withTemplate(template(d.getSpec().getTemplate(), d.getMetadata()))
                                .endSpec()
                                .build())
                        .toList(),
                dra.podDisruptionBudgets(),
                dra.podGroups(),
                dra.workloads(),
                dra.services(),
                dra.replicationControllers());
    }

    // Nodes: what the device plugin and GPU feature discovery announce, the MIG layout fixed per GPU product.
    private Node node(Node n) {
        String name = n.getMetadata().getName();
        List<Inventory.Dev> devs =
                inventory.devices().stream().filter(d -> d.node().equals(name)).toList();
        if (devs.isEmpty()) {
            return n;
        }
        Set<String> partitionable = inventory.partitionable();
        Map<String, Long> allocatable = new TreeMap<>();
        Set<String> products = new TreeSet<>();
        List<String> migs = new ArrayList<>();
        boolean failed = false;
        for (Inventory.Dev gpu : devs.stream().filter(Inventory.Dev::gpu).toList()) {
            failed |= gpu.failed();
            if (gpu.product() != null) {
                products.add(label(gpu.product()));
            }
            List<String> profiles = gpu.uuid() != null && partitionable.contains(gpu.uuid())
                    ? overrides.migLayout().getOrDefault(gpu.product(), smallest(devs, gpu))
                    : List.of();
            if (profiles.isEmpty()) {
                if (!gpu.failed()) {
                    allocatable.merge("nvidia.com/gpu", 1L, Long::sum);
                }
                continue;
            }
            for (Inventory.Dev m : place(devs, gpu, profiles)) {
                migs.add(m.key());
                if (!gpu.failed()) {
                    allocatable.merge("nvidia.com/mig-" + m.profile(), 1L, Long::sum);
                }
            }
        }
        layout.put(name, migs);
        NodeBuilder b = new NodeBuilder(n);
        b.editMetadata().addToLabels(PRODUCT_LABEL, String.join(".", products)).endMetadata();
        Map<String, Quantity> alloc = new LinkedHashMap<>(
                n.getStatus().getAllocatable() == null
                        ? Map.of()
                        : n.getStatus().getAllocatable());
        Map<String, Quantity> cap = new LinkedHashMap<>(
                n.getStatus().getCapacity() == null ? Map.of() : n.getStatus().getCapacity());
        allocatable.forEach((k, v) -> {
            alloc.put(k, new Quantity(v.toString()));
            cap.put(k, new Quantity(v.toString()));
        });
        b.editStatus().withAllocatable(alloc).withCapacity(cap).endStatus();
        if (failed) {
            b.editOrNewSpec()
                    .withUnschedulable(true)
                    .addToTaints(new TaintBuilder()
                            .withKey("node.kubernetes.io/unschedulable")
                            .withEffect("NoSchedule")
                            .build())
                    .endSpec();
        }
        return b.build();
    }

    /** mig-parted's {@code all-<smallest profile>}: as many of the GPU's smallest-memory profile as fit. */
    private static List<String> smallest(List<Inventory.Dev> devs, Inventory.Dev gpu) {
        return devs.stream()
                .filter(d -> gpu.uuid().equals(d.parentUuid()) && d.profile() != null)
                .min(Comparator.comparing(Inventory.Dev::memory).thenComparing(Inventory.Dev::profile))
                .map(d -> java.util.Collections.nCopies(8, d.profile()))
                .orElse(List.of());
    }

    /** Partitions of the wanted profiles, in order, each where the GPU's counters still allow it. */
    private List<Inventory.Dev> place(List<Inventory.Dev> devs, Inventory.Dev gpu, List<String> profiles) {
        Map<String, Map<String, BigDecimal>> left = new HashMap<>();
        List<Inventory.Dev> chosen = new ArrayList<>();
        for (String profile : profiles) {
            for (Inventory.Dev m : devs) {
                if (!gpu.uuid().equals(m.parentUuid())
                        || !profile.equals(m.profile())
                        || chosen.contains(m)
                        || !fits(m, left)) {
                    continue;
                }
                m.consumes()
                        .forEach((set, counters) ->
                                counters.forEach((c, v) -> left.get(set).merge(c, v.negate(), BigDecimal::add)));
                chosen.add(m);
                break;
            }
        }
        return chosen;
    }

    private boolean fits(Inventory.Dev m, Map<String, Map<String, BigDecimal>> left) {
        for (var e : m.consumes().entrySet()) {
            Map<String, BigDecimal> set = left.computeIfAbsent(
                    e.getKey(), k -> new HashMap<>(inventory.counterSets().getOrDefault(k, Map.of())));
            for (var c : e.getValue().entrySet()) {
                if (set.getOrDefault(c.getKey(), BigDecimal.ZERO).compareTo(c.getValue()) < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String label(String product) {
        return product.replace(' ', '-');
    }

    // Pods: claims become limits (a bound pod keeps its node; kubelet's checkpoint lists its devices).
    private Pod pod(Pod p) {
        PodBuilder b = new PodBuilder(p);
        PodSpec spec = spec(
                p.getSpec(), p.getMetadata().getNamespace(), p.getMetadata().getName(), p);
        b.withSpec(spec);
        if (p.getStatus() != null) {
            b.editStatus().withResourceClaimStatuses(List.of()).endStatus();
        }
        if (p.getSpec().getNodeName() != null) {
            List<String> held = new ArrayList<>();
            for (ResourceClaim c : claimsOf(p)) {
                if (c.getStatus() != null && c.getStatus().getAllocation() != null) {
                    for (DeviceRequestAllocationResult r :
                            c.getStatus().getAllocation().getDevices().getResults()) {
                        if (!Boolean.TRUE.equals(r.getAdminAccess())) {
                            held.add(r.getDriver() + "/" + r.getPool() + "/" + r.getDevice());
                        }
                    }
                }
            }
            if (!held.isEmpty()) {
                b.editMetadata()
                        .addToAnnotations(ASSIGNED, String.join(",", held))
                        .endMetadata();
            }
        }
        return b.build();
    }

    private PodTemplateSpec template(PodTemplateSpec t, ObjectMeta owner) {
        return new io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder(t)
                .withSpec(spec(t.getSpec(), owner.getNamespace(), owner.getName(), null))
                .build();
    }

    private PodSpec spec(PodSpec spec, String namespace, String owner, Pod pod) {
        io.fabric8.kubernetes.api.model.PodSpecBuilder b = new io.fabric8.kubernetes.api.model.PodSpecBuilder(spec);
        b.withResourceClaims(List.of());
        Map<String, Map<String, Long>> perContainer = new LinkedHashMap<>();
        Set<String> products = new LinkedHashSet<>();
        boolean unmatched = false;
        for (PodResourceClaim prc : Inventory.list(spec.getResourceClaims())) {
            DeviceClaim claim;
            String key;
            if (prc.getResourceClaimTemplateName() != null) {
                key = namespace + "/" + prc.getResourceClaimTemplateName();
                claim = dra.resourceClaimTemplates().stream()
                        .filter(t -> t.getMetadata().getNamespace().equals(namespace)
                                && t.getMetadata().getName().equals(prc.getResourceClaimTemplateName()))
                        .map(ResourceClaimTemplate::getSpec)
                        .map(s -> s.getSpec().getDevices())
                        .findFirst()
                        .orElse(null);
                if (claim == null && pod != null) {
                    claim = claimsOf(pod).stream()
                            .filter(c -> prc.getName()
                                    .equals(
                                            c.getMetadata().getAnnotations() == null
                                                    ? null
                                                    : c.getMetadata()
                                                            .getAnnotations()
                                                            .get("resource.kubernetes.io/pod-claim-name")))
                            .map(c -> c.getSpec().getDevices())
                            .findFirst()
                            .orElse(null);
                }
            } else {
                key = namespace + "/" + prc.getResourceClaimName();
                claim = dra.resourceClaims().stream()
                        .filter(c -> c.getMetadata().getNamespace().equals(namespace)
                                && c.getMetadata().getName().equals(prc.getResourceClaimName()))
                        .map(c -> c.getSpec().getDevices())
                        .findFirst()
                        .orElse(null);
            }
            if (claim == null) {
                continue;
            }
            String container = spec.getContainers().stream()
                    .filter(c -> c.getResources() != null
                            && Inventory.list(c.getResources().getClaims()).stream()
                                    .anyMatch(r -> r.getName().equals(prc.getName())))
                    .map(Container::getName)
                    .findFirst()
                    .orElse(spec.getContainers().get(0).getName());
            for (RequestForm f : forms(key, claim)) {
                if (f.count() > 0) {
                    perContainer
                            .computeIfAbsent(container, k -> new TreeMap<>())
                            .merge(f.resource(), f.count(), Long::sum);
                    products.addAll(f.products());
                    unmatched |= f.products().isEmpty()
                            && f.resource().equals("nvidia.com/gpu")
                            && !f.dropped().isEmpty()
                            && f.dropped().get(0).startsWith("no device matches");
                }
            }
        }
        List<Container> containers = new ArrayList<>();
        for (Container c : spec.getContainers()) {
            io.fabric8.kubernetes.api.model.ContainerBuilder cb =
                    new io.fabric8.kubernetes.api.model.ContainerBuilder(c);
            Map<String, Quantity> limits = new LinkedHashMap<>(
                    c.getResources() == null || c.getResources().getLimits() == null
                            ? Map.of()
                            : c.getResources().getLimits());
            perContainer
                    .getOrDefault(c.getName(), Map.of())
                    .forEach((r, n) -> limits.put(r, new Quantity(n.toString())));
            cb.editOrNewResources().withClaims(List.of()).withLimits(limits).endResources();
            containers.add(cb.build());
        }
        b.withContainers(containers);
        if (unmatched) {
            b.addToNodeSelector(UNMATCHED_LABEL, "true");
        }
        if (!products.isEmpty()) {
            List<NodeSelectorTerm> terms = spec.getAffinity() != null
                            && spec.getAffinity().getNodeAffinity() != null
                            && spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                                    != null
                    ? spec.getAffinity()
                            .getNodeAffinity()
                            .getRequiredDuringSchedulingIgnoredDuringExecution()
                            .getNodeSelectorTerms()
                    : List.of(new NodeSelectorTerm());
            List<NodeSelectorTerm> anded = terms.stream()
                    .map(t -> new NodeSelectorTermBuilder(t)
                            .addToMatchExpressions(new NodeSelectorRequirementBuilder()
                                    .withKey(PRODUCT_LABEL)
                                    .withOperator("In")
                                    .withValues(List.copyOf(products))
                                    .build())
                            .build())
                    .toList();
            b.editOrNewAffinity()
                    .editOrNewNodeAffinity()
                    .editOrNewRequiredDuringSchedulingIgnoredDuringExecution()
                    .withNodeSelectorTerms(anded)
                    .endRequiredDuringSchedulingIgnoredDuringExecution()
                    .endNodeAffinity()
                    .endAffinity();
        }
        return b.build();
    }

    private List<ResourceClaim> claimsOf(Pod p) {
        Set<String> names = new LinkedHashSet<>();
        Inventory.list(p.getSpec().getResourceClaims()).stream()
                .map(PodResourceClaim::getResourceClaimName)
                .filter(java.util.Objects::nonNull)
                .forEach(names::add);
        if (p.getStatus() != null) {
            Inventory.list(p.getStatus().getResourceClaimStatuses()).stream()
                    .map(io.fabric8.kubernetes.api.model.PodResourceClaimStatus::getResourceClaimName)
                    .filter(java.util.Objects::nonNull)
                    .forEach(names::add);
        }
        return dra.resourceClaims().stream()
                .filter(c ->
                        c.getMetadata().getNamespace().equals(p.getMetadata().getNamespace())
                                && names.contains(c.getMetadata().getName()))
                .toList();
    }

    // Requests: the devices each could get (the allocator asked for all of them on every node) decide the form.
    private List<RequestForm> forms(String claimKey, DeviceClaim claim) {
        List<String> constraints = new ArrayList<>();
        for (DeviceConstraint c : Inventory.list(claim.getConstraints())) {
            constraints.add(
                    c.getMatchAttribute() != null
                            ? "matchAttribute " + c.getMatchAttribute()
                            : "distinctAttribute " + c.getDistinctAttribute());
        }
        List<RequestForm> out = new ArrayList<>();
        for (DeviceRequest r : Inventory.list(claim.getRequests())) {
            String key = claimKey + "/" + r.getName();
            RequestForm f = overrides.requests().containsKey(key)
                    ? overrides.requests().get(key).withKey(key)
                    : form(key, r, constraints);
            forms.put(key, f);
            out.add(f);
        }
        return out;
    }

    private RequestForm form(String key, DeviceRequest r, List<String> constraints) {
        List<String> dropped = new ArrayList<>(constraints);
        List<ExactDeviceRequest> alternatives = new ArrayList<>();
        if (r.getExactly() != null) {
            alternatives.add(r.getExactly());
        } else {
            for (DeviceSubRequest s : Inventory.list(r.getFirstAvailable())) {
                alternatives.add(new io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequestBuilder()
                        .withDeviceClassName(s.getDeviceClassName())
                        .withSelectors(s.getSelectors())
                        .withAllocationMode(s.getAllocationMode())
                        .withCount(s.getCount())
                        .build());
            }
            dropped.add("firstAvailable (no fallback: any of the alternatives' products)");
        }
        ExactDeviceRequest first = null;
        List<Inventory.Dev> firstMatches = List.of();
        Set<String> products = new TreeSet<>();
        for (ExactDeviceRequest e : alternatives) {
            List<Inventory.Dev> m = matches(e);
            if (first == null && !m.isEmpty()) {
                first = e;
                firstMatches = m;
            }
            if (first != null
                    && !m.isEmpty()
                    && m.get(0).gpu() == firstMatches.get(0).gpu()) {
                m.stream()
                        .map(Inventory.Dev::product)
                        .filter(java.util.Objects::nonNull)
                        .map(DevicePluginForm::label)
                        .forEach(products::add);
            }
        }
        if (first == null) {
            dropped.add(
                    0,
                    "no device matches "
                            + alternatives.stream()
                                    .map(ExactDeviceRequest::getDeviceClassName)
                                    .toList() + "; kept pending by the node selector " + UNMATCHED_LABEL);
            Long wanted = alternatives.isEmpty() ? null : alternatives.get(0).getCount();
            return new RequestForm(key, "nvidia.com/gpu", wanted == null ? 1 : wanted, List.of(), dropped);
        }
        if (Boolean.TRUE.equals(first.getAdminAccess())) {
            dropped.add("adminAccess (a monitoring agent runs without requesting devices)");
            return new RequestForm(key, "", 0, List.of(), dropped);
        }
        long count = first.getCount() == null ? 1 : first.getCount();
        if ("All".equals(first.getAllocationMode())) {
            Map<String, Long> perNode = new HashMap<>();
            firstMatches.forEach(d -> perNode.merge(d.node(), 1L, Long::sum));
            count = perNode.values().stream().max(Long::compare).orElse(1L);
            dropped.add("allocationMode All (as many as the largest node has)");
        }
        Set<String> profiles = new TreeSet<>();
        firstMatches.stream().filter(d -> !d.gpu()).map(Inventory.Dev::profile).forEach(profiles::add);
        String resource = firstMatches.get(0).gpu()
                ? "nvidia.com/gpu"
                : "nvidia.com/mig-" + profiles.iterator().next();
        if (profiles.size() > 1) {
            dropped.add("more than one MIG profile (the first, "
                    + profiles.iterator().next() + ")");
        }
        return new RequestForm(key, resource, count, List.copyOf(products), dropped);
    }

    /** The node-local devices the request could get. */
    private List<Inventory.Dev> matches(ExactDeviceRequest e) {
        Map<String, Inventory.Dev> byKey = inventory.byKey();
        List<Inventory.Dev> out = new ArrayList<>();
        for (DeviceCandidates.Candidate c : candidates.of(e)) {
            Inventory.Dev dev = c.nodeLocal() ? byKey.get(c.key()) : null;
            if (dev != null) {
                out.add(dev);
            }
        }
        return out;
    }
}
