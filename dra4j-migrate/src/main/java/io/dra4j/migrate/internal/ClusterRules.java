package io.dra4j.migrate.internal;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.cel.CelDevice;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.EvalResult;
import io.dra4j.migrate.Finding;
import io.dra4j.migrate.ResourceMapping;
import io.dra4j.scenario.QuotaCounting;
import io.dra4j.sim.DaemonSetNodes;
import io.dra4j.sim.WorkloadPods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * The lint rules that look at objects together: classes and requests that match no device of the snapshot, claims
 * no node of it can satisfy (asked of the allocator, as the scheduler would), devices a node advertises through both
 * a device plugin and a DRA driver, DeviceClasses that duplicate each other, hardware asked for by node label, and
 * ResourceQuota on extended resources that DRA claims are no longer charged against. One object per call.
 */
public final class ClusterRules {
    private static final Duration ALLOCATION_TIMEOUT = Duration.ofSeconds(10);

    private final DocumentRules gates;
    private final List<LintObjects.LintObject> manifests;
    private final List<LintObjects.LintObject> snapshot;
    private final boolean hasSnapshot;
    private final DeviceSelectorEnvironment cel;
    private final Map<String, DeviceClass> classes = new TreeMap<>();
    private final List<ResourceSlice> slices = new ArrayList<>();
    private final List<DeviceTaintRule> taintRules = new ArrayList<>();
    private final List<LintObjects.LintObject> nodes = new ArrayList<>();
    /** Every device of the snapshot with its CEL view. */
    private final List<SnapshotDevice> devices = new ArrayList<>();

    private record SnapshotDevice(ResourceSlice slice, Device device, CelDevice view) {
        String id() {
            return slice.getSpec().getDriver() + "/" + slice.getSpec().getPool().getName() + "/" + device.getName();
        }

        String node() {
            return slice.getSpec().getNodeName();
        }
    }

    public ClusterRules(
            DocumentRules gates,
            List<LintObjects.LintObject> manifests,
            List<LintObjects.LintObject> snapshot,
            boolean hasSnapshot) {
        this.gates = gates;
        this.manifests = manifests;
        this.snapshot = snapshot;
        this.hasSnapshot = hasSnapshot;
        this.cel = DeviceSelectorEnvironment.create(new io.dra4j.cel.CelFeatures(
                gates.enabled("DRAConsumableCapacity"), gates.enabled("DRAListTypeAttributes")));
        // The manifests' classes replace the snapshot's of the same name: they are what is about to be applied.
        for (List<LintObjects.LintObject> objects : List.of(snapshot, manifests)) {
            for (LintObjects.LintObject o : objects) {
                HasMetadata t = o.typed();
                if (t instanceof DeviceClass c) {
                    classes.put(c.getMetadata().getName(), c);
                } else if (t instanceof ResourceSlice s) {
                    slices.add(s);
                } else if (t instanceof DeviceTaintRule r) {
                    taintRules.add(r);
                } else if (t instanceof Node) {
                    nodes.add(o);
                }
            }
        }
        for (ResourceSlice s : slices) {
            if (s.getSpec() == null || s.getSpec().getDevices() == null) {
                continue;
            }
            for (Device d : s.getSpec().getDevices()) {
                devices.add(new SnapshotDevice(s, d, cel.device(s.getSpec().getDriver(), d)));
            }
        }
    }

    /**
     * Adds the findings; {@code broken} are the manifests' objects the document rules found errors in (bad CEL, a
     * gate that is off): asking the allocator about them would only repeat those errors.
     */
    public void check(Set<LintObjects.LintObject> broken, List<Finding> out) {
        List<LintObjects.LintObject> allClasses = new ArrayList<>();
        for (LintObjects.LintObject o : manifests) {
            if (o.typed() instanceof DeviceClass) {
                allClasses.add(o);
            }
            nodeLabels(o, out);
        }
        duplicateClasses(out);
        quota(out);
        if (!hasSnapshot) {
            return;
        }
        for (LintObjects.LintObject o : allClasses) {
            classMatches(o, out);
        }
        Allocator allocator = allocator();
        for (LintObjects.LintObject o : manifests) {
            Optional<ResourceClaim> claim = broken.contains(o) ? Optional.empty() : claimOf(o);
            if (claim.isPresent()) {
                requestMatches(o, claim.get(), out);
                satisfiable(o, claim.get(), allocator, out);
            }
        }
        doubleAdvertised(out);
    }

    // A class whose selectors no device of the snapshot passes: every claim of it stays pending.
    private void classMatches(LintObjects.LintObject o, List<Finding> out) {
        DeviceClass c = (DeviceClass) o.typed();
        if (devices.stream().noneMatch(d -> matches(classSelectors(c), d))) {
            out.add(o.at(
                    "spec",
                    Finding.Severity.WARNING,
                    "class-matches-nothing",
                    o.label() + ": none of the snapshot's " + devices.size() + " devices passes its selectors"));
        }
    }

    /** Each request and subrequest of the claim: the class's selectors and its own, over every device. */
    private void requestMatches(LintObjects.LintObject o, ResourceClaim claim, List<Finding> out) {
        String base = o.kind().equals("ResourceClaimTemplate") ? "spec.spec.devices.requests" : "spec.devices.requests";
        List<DeviceRequest> requests = claim.getSpec().getDevices().getRequests();
        for (int i = 0; i < requests.size(); i++) {
            DeviceRequest r = requests.get(i);
            if (r.getExactly() != null) {
                requestMatches(
                        o,
                        base + "[" + i + "].exactly",
                        r.getName(),
                        r.getExactly().getDeviceClassName(),
                        r.getExactly().getSelectors(),
                        out);
            }
            List<DeviceSubRequest> subs = r.getFirstAvailable() == null ? List.of() : r.getFirstAvailable();
            for (int j = 0; j < subs.size(); j++) {
                requestMatches(
                        o,
                        base + "[" + i + "].firstAvailable[" + j + "]",
                        r.getName() + "/" + subs.get(j).getName(),
                        subs.get(j).getDeviceClassName(),
                        subs.get(j).getSelectors(),
                        out);
            }
        }
    }

    private void requestMatches(
            LintObjects.LintObject o,
            String path,
            String request,
            String className,
            List<DeviceSelector> own,
            List<Finding> out) {
        DeviceClass c = classes.get(className);
        if (c == null) {
            out.add(o.at(
                    path + ".deviceClassName",
                    Finding.Severity.ERROR,
                    "class-not-found",
                    o.label()
                            + ": request " + request + ": device class " + className
                            + " does not exist in the manifests "
                            + "or the snapshot"));
            return;
        }
        if (own == null || own.isEmpty() || devices.stream().noneMatch(d -> matches(classSelectors(c), d))) {
            return;
        }
        List<String> exprs = new ArrayList<>(classSelectors(c));
        own.stream()
                .filter(s -> s.getCel() != null)
                .forEach(s -> exprs.add(s.getCel().getExpression()));
        if (devices.stream().noneMatch(d -> matches(exprs, d))) {
            out.add(o.at(
                    path + ".selectors",
                    Finding.Severity.WARNING,
                    "selector-matches-nothing",
                    o.label()
                            + ": request " + request + ": no device of class " + className + " in the snapshot passes "
                            + "the request's selectors"));
        }
    }

    private static List<String> classSelectors(DeviceClass c) {
        List<String> out = new ArrayList<>();
        if (c.getSpec() != null && c.getSpec().getSelectors() != null) {
            c.getSpec().getSelectors().stream()
                    .filter(s -> s.getCel() != null)
                    .forEach(s -> out.add(s.getCel().getExpression()));
        }
        return out;
    }

    /** True when every expression evaluates to true on the device (an evaluation error is no match, as upstream). */
    private boolean matches(List<String> expressions, SnapshotDevice d) {
        for (String e : expressions) {
            CompiledExpression c = cel.compile(e);
            if (c.compileError().isPresent() || !(c.evaluate(d.view()) instanceof EvalResult.Matched m) || !m.value()) {
                return false;
            }
        }
        return true;
    }

    // A claim no node can satisfy even with every device free: asked of the allocator node by node.
    private void satisfiable(LintObjects.LintObject o, ResourceClaim claim, Allocator allocator, List<Finding> out) {
        List<Node> candidates = candidateNodes();
        Map<String, String> reasons = new LinkedHashMap<>();
        for (Node n : candidates) {
            AllocationOutcome outcome = allocator.allocate(n, List.of(claim));
            if (outcome instanceof AllocationOutcome.Allocated) {
                return;
            }
            String why = outcome instanceof AllocationOutcome.Unschedulable u
                    ? u.reason()
                    : ((AllocationOutcome.Failed) outcome).message();
            reasons.putIfAbsent(why, n.getMetadata().getName());
        }
        List<String> parts = new ArrayList<>();
        reasons.forEach((why, node) -> parts.add(why + " (node " + node
                + (reasons.size() == 1 && candidates.size() > 1 ? " and " + (candidates.size() - 1) + " more" : "")
                + ")"));
        out.add(o.at(
                "spec",
                Finding.Severity.ERROR,
                "claim-unsatisfiable",
                o.label() + ": no node of the snapshot ("
                        + candidates.size() + ") can satisfy it even with every device free"
                        + (parts.isEmpty()
                                ? ""
                                : ": " + String.join("; ", parts.subList(0, Math.min(3, parts.size()))))));
    }

    /** The snapshot's nodes, plus a bare node for each node name a slice names that the snapshot lacks. */
    private List<Node> candidateNodes() {
        Map<String, Node> byName = new TreeMap<>();
        for (LintObjects.LintObject o : nodes) {
            Node n = (Node) o.typed();
            byName.put(n.getMetadata().getName(), n);
        }
        for (ResourceSlice s : slices) {
            String name = s.getSpec() == null ? null : s.getSpec().getNodeName();
            if (name != null && !byName.containsKey(name)) {
                byName.put(
                        name,
                        new NodeBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .build());
            }
        }
        return List.copyOf(byName.values());
    }

    private Allocator allocator() {
        Set<DraFeature> on = new HashSet<>();
        for (DraFeature f : DraFeature.values()) {
            if (gates.enabled(f.gateName())) {
                on.add(f);
            }
        }
        return Allocator.builder()
                .featureGates(FeatureGates.of(on))
                .deviceClasses(List.copyOf(classes.values()))
                .resourceSlices(slices)
                .deviceTaintRules(taintRules)
                .timeout(ALLOCATION_TIMEOUT)
                .build();
    }

    /** The claim an object is or stands for (a template's claim, as the resourceclaim controller would create it). */
    private static Optional<ResourceClaim> claimOf(LintObjects.LintObject o) {
        HasMetadata t = o.typed();
        ResourceClaimSpec spec = null;
        if (t instanceof ResourceClaim c) {
            spec = c.getSpec();
        } else if (t instanceof ResourceClaimTemplate tpl && tpl.getSpec() != null) {
            spec = tpl.getSpec().getSpec();
        }
        if (spec == null
                || spec.getDevices() == null
                || spec.getDevices().getRequests() == null
                || spec.getDevices().getRequests().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(o.name())
                .withNamespace(o.namespace())
                .withUid("lint-" + o.namespace() + "-" + o.name())
                .endMetadata()
                .withSpec(spec)
                .build());
    }

    // A node whose allocatable lists an extended resource (a device plugin) while a DRA driver publishes the same
    // devices for it: both hand out the same hardware, unaware of each other.
    private void doubleAdvertised(List<Finding> out) {
        for (LintObjects.LintObject o : nodes) {
            Node n = (Node) o.typed();
            Map<String, Quantity> allocatable =
                    n.getStatus() == null || n.getStatus().getAllocatable() == null
                            ? Map.of()
                            : n.getStatus().getAllocatable();
            String name = n.getMetadata().getName();
            for (Map.Entry<String, Quantity> e : new TreeMap<>(allocatable).entrySet()) {
                if (!e.getKey().contains("/")
                        || e.getKey().startsWith("hugepages-")
                        || Quantity.getAmountInBytes(e.getValue()).compareTo(BigDecimal.ZERO) <= 0) {
                    continue;
                }
                Set<String> same = sameDevices(e.getKey(), name);
                if (!same.isEmpty()) {
                    out.add(o.at(
                            "status.allocatable",
                            Finding.Severity.WARNING,
                            "device-double-advertised",
                            o.label() + ": advertises " + e.getKey() + ": " + e.getValue() + " through a device "
                                    + "plugin while a DRA driver publishes " + same.size() + " matching device(s) on "
                                    + "it (" + String.join(", ", limit(same)) + "); each may hand the same hardware "
                                    + "to a different pod: run one of the two on this node"));
                }
            }
        }
    }

    /**
     * The devices on a node that serve an extended resource through DRA: those a DeviceClass with that
     * extendedResourceName selects, or, without such a class, those of the driver the built-in mapping names.
     */
    private Set<String> sameDevices(String resource, String node) {
        Set<String> out = new LinkedHashSet<>();
        List<DeviceClass> mapped = classes.values().stream()
                .filter(c -> c.getSpec() != null && resource.equals(c.getSpec().getExtendedResourceName()))
                .toList();
        Optional<ResourceMapping> builtin = ResourceMapping.nvidia(resource);
        for (SnapshotDevice d : devices) {
            if (!node.equals(d.node())) {
                continue;
            }
            boolean served = mapped.isEmpty()
                    ? builtin.isPresent()
                            && builtin.get().driver().equals(d.slice().getSpec().getDriver())
                            && matches(builtin.get().selectors(), d)
                    : mapped.stream().anyMatch(c -> matches(classSelectors(c), d));
            if (served) {
                out.add(d.id());
            }
        }
        return out;
    }

    private static List<String> limit(Set<String> s) {
        List<String> l = new ArrayList<>(s);
        return l.size() <= 3 ? l : List.of(l.get(0), l.get(1), l.get(2), "...");
    }

    // Classes with the same selectors and config select and configure the same devices: per-team copies.
    // The snapshot's classes come first, so that a manifest's copy of an installed class is the one reported.
    private void duplicateClasses(List<Finding> out) {
        Map<String, LintObjects.LintObject> first = new LinkedHashMap<>();
        List<LintObjects.LintObject> all = new ArrayList<>();
        for (List<LintObjects.LintObject> objects : List.of(snapshot, manifests)) {
            objects.stream().filter(o -> o.typed() instanceof DeviceClass).forEach(all::add);
        }
        Set<String> manifestNames = new HashSet<>();
        manifests.stream().filter(o -> o.typed() instanceof DeviceClass).forEach(o -> manifestNames.add(o.name()));
        for (LintObjects.LintObject o : all) {
            if (snapshot.contains(o) && manifestNames.contains(o.name())) {
                continue;
            }
            JsonNode spec = o.v1().path("spec");
            List<String> selectors = new ArrayList<>();
            spec.path("selectors")
                    .forEach(s -> selectors.add(
                            s.path("cel").path("expression").asString("").strip()));
            selectors.sort(null);
            String key = selectors + "|" + LintObjects.json(spec.path("config")) + "|"
                    + spec.path("extendedResourceName").asString("");
            LintObjects.LintObject earlier = first.putIfAbsent(key, o);
            if (earlier != null && manifests.contains(o)) {
                out.add(o.at(
                        "spec",
                        Finding.Severity.WARNING,
                        "duplicate-device-class",
                        o.label()
                                + ": same selectors and config as " + earlier.label() + " (" + earlier.source() + ":"
                                + earlier.positions().of(earlier.prefix())[0]
                                + "); claims of either get the same devices"
                                + " configured alike: keep one class"));
            }
        }
    }

    // nodeSelector and required node affinity on GPU feature discovery labels: the hardware the pod needs, said
    // about the node rather than the device; dra4j migrate --claims turns them into claim selectors.
    private void nodeLabels(LintObjects.LintObject o, List<Finding> out) {
        Optional<List<String>> path = PodSpecs.podSpecPath(o.kind());
        if (path.isEmpty()) {
            return;
        }
        JsonNode spec = PodSpecs.at(o.original(), path.get());
        if (spec == null) {
            return;
        }
        String base = String.join(".", path.get());
        for (Map.Entry<String, JsonNode> e : spec.path("nodeSelector").properties()) {
            if (GpuNodeLabels.isGpuLabel(e.getKey())) {
                String sel = GpuNodeLabels.selector(e.getKey(), e.getValue().asString(""))
                        .orElse(null);
                out.add(o.at(
                        Paths.field(base + ".nodeSelector", e.getKey()),
                        Finding.Severity.INFO,
                        "node-label-hardware",
                        o.label() + ": nodeSelector " + e.getKey() + "="
                                + e.getValue().asString("") + " asks for hardware by node label"
                                + (sel == null ? "" : "; as a claim selector: " + sel)));
            }
        }
        JsonNode terms = spec.path("affinity")
                .path("nodeAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution")
                .path("nodeSelectorTerms");
        for (int i = 0; i < terms.size(); i++) {
            JsonNode exprs = terms.get(i).path("matchExpressions");
            for (int j = 0; j < exprs.size(); j++) {
                String key = exprs.get(j).path("key").asString("");
                if (GpuNodeLabels.isGpuLabel(key)) {
                    out.add(o.at(
                            base + ".affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                                    + ".nodeSelectorTerms[" + i + "].matchExpressions[" + j + "]",
                            Finding.Severity.INFO,
                            "node-label-hardware",
                            o.label() + ": node affinity on " + key
                                    + " asks for hardware by node label; dra4j migrate --claims turns it into a "
                                    + "claim selector"));
                }
            }
        }
    }

    // Phase: quota. A ResourceQuota on requests.<extended resource> limited the device plugin's devices; claims of
    // the DeviceClass that now serves them are charged to <class>.deviceclass.resource.k8s.io/devices instead (and,
    // with DRAExtendedResource on, also to requests.<resource> when the class names it as extendedResourceName).
    private void quota(List<Finding> out) {
        List<LintObjects.LintObject> quotas = new ArrayList<>();
        for (List<LintObjects.LintObject> objects : List.of(manifests, snapshot)) {
            objects.stream()
                    .filter(o ->
                            o.kind().equals("ResourceQuota") && o.apiVersion().equals("v1"))
                    .forEach(quotas::add);
        }
        Map<String, Map<String, Long>> charged = chargedPerNamespace();
        for (LintObjects.LintObject q :
                manifests.stream().filter(quotas::contains).toList()) {
            Set<String> limitedInNamespace = new HashSet<>();
            quotas.stream()
                    .filter(other -> other.namespace().equals(q.namespace()))
                    .forEach(other -> other.original()
                            .path("spec")
                            .path("hard")
                            .properties()
                            .forEach(e -> limitedInNamespace.add(e.getKey())));
            for (Map.Entry<String, JsonNode> e :
                    q.original().path("spec").path("hard").properties()) {
                String key = e.getKey();
                String resource = key.startsWith("requests.") ? key.substring("requests.".length()) : key;
                if (!resource.contains("/")
                        || resource.startsWith("deviceclass.resource.kubernetes.io/")
                        || resource.endsWith(QuotaCounting.DEVICES_PER_CLASS_SUFFIX)) {
                    continue;
                }
                Optional<String> cls = classFor(resource);
                if (cls.isEmpty()) {
                    continue;
                }
                String devices = QuotaCounting.devicesOf(cls.get());
                boolean bridged = gates.enabled("DRAExtendedResource")
                        && classes.containsKey(cls.get())
                        && resource.equals(classes.get(cls.get()).getSpec().getExtendedResourceName());
                if (bridged || limitedInNamespace.contains(devices)) {
                    continue;
                }
                Long now = charged.getOrDefault(q.namespace(), Map.of()).get(devices);
                out.add(q.at(
                        Paths.field("spec.hard", key),
                        Finding.Severity.WARNING,
                        "quota-no-longer-limits",
                        q.label() + ": limits " + key + " to "
                                + e.getValue().asString(e.getValue().toString())
                                + ", but ResourceClaims of DeviceClass " + cls.get() + " (the DRA driver's class for "
                                + resource + ") are charged to " + devices + ", which no ResourceQuota in namespace "
                                + q.namespace() + " limits"
                                + (now == null ? "" : " (the manifests' claims charge " + now + ")") + "; add "
                                + devices + " (and " + QuotaCounting.CLAIM_OBJECT_COUNT
                                + " to bound the claims)"));
            }
        }
    }

    /** The DeviceClass that serves an extended resource: one naming it as extendedResourceName, else the built-in. */
    private Optional<String> classFor(String resource) {
        for (DeviceClass c : classes.values()) {
            if (c.getSpec() != null && resource.equals(c.getSpec().getExtendedResourceName())) {
                return Optional.of(c.getMetadata().getName());
            }
        }
        return ResourceMapping.nvidia(resource).map(ResourceMapping::deviceClassName);
    }

    /**
     * What the manifests' claims charge per namespace ({@link QuotaCounting#resourceQuota}, with the extended-resource
     * names when DRAExtendedResource is on): each ResourceClaim once, each template once per pod of the workloads that
     * use it; a DaemonSet's pods are one per snapshot node the DaemonSet controller would run one on
     * ({@link DaemonSetNodes}), none without a snapshot.
     */
    public Map<String, Map<String, Long>> chargedPerNamespace() {
        boolean extended = gates.enabled("DRAExtendedResource");
        QuotaCounting.ExtendedResourceClasses extendedClasses =
                QuotaCounting.ExtendedResourceClasses.of(classes.values());
        java.util.function.Function<ResourceClaimSpec, Map<String, Long>> usage = spec -> extended
                ? QuotaCounting.resourceQuota(spec, extendedClasses, Map.of())
                : QuotaCounting.resourceQuota(spec);
        Map<String, Map<String, Long>> out = new TreeMap<>();
        Map<String, ResourceClaimSpec> templates = new TreeMap<>();
        for (LintObjects.LintObject o : manifests) {
            if (o.typed() instanceof ResourceClaim c) {
                add(out, o.namespace(), usage.apply(c.getSpec()));
            } else if (o.typed() instanceof ResourceClaimTemplate t && t.getSpec() != null) {
                templates.put(o.namespace() + "/" + o.name(), t.getSpec().getSpec());
            }
        }
        List<Node> snapshotNodes = nodes.stream().map(n -> (Node) n.typed()).toList();
        for (LintObjects.LintObject o : manifests) {
            Optional<List<String>> path = PodSpecs.podSpecPath(o.kind());
            OptionalLong pods = o.typed() instanceof DaemonSet ds
                    ? snapshotNodes.isEmpty()
                            ? OptionalLong.empty()
                            : OptionalLong.of(
                                    DaemonSetNodes.of(ds, snapshotNodes).size())
                    : o.typed() == null ? OptionalLong.empty() : WorkloadPods.atOnce(o.typed());
            if (path.isEmpty() || pods.isEmpty()) {
                continue;
            }
            JsonNode spec = PodSpecs.at(o.original(), path.get());
            if (spec == null) {
                continue;
            }
            for (JsonNode rc : spec.path("resourceClaims")) {
                ResourceClaimSpec t = templates.get(o.namespace() + "/"
                        + rc.path("resourceClaimTemplateName").asString(""));
                if (t != null) {
                    add(out, o.namespace(), QuotaCounting.times(usage.apply(t), pods.getAsLong()));
                }
            }
        }
        return out;
    }

    private static void add(Map<String, Map<String, Long>> out, String ns, Map<String, Long> usage) {
        Map<String, Long> m = out.computeIfAbsent(ns, k -> new TreeMap<>());
        usage.forEach((k, v) -> m.merge(k, v, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b));
    }
}
