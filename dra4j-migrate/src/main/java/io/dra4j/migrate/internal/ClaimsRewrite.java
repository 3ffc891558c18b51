package io.dra4j.migrate.internal;

import io.dra4j.migrate.Finding;
import io.dra4j.migrate.ResourceMapping;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rewrites one workload document from device-plugin resources to a ResourceClaimTemplate: the mapped extended
 * resources leave the containers' limits and requests, each container gets {@code resources.claims}, the pod spec
 * gets {@code resourceClaims}, GPU node-label selectors become CEL selectors of the requests, and the template is
 * added as the next document. Every edit is spliced into the original text at the parser's positions, so the rest
 * of the document is unchanged byte for byte. One instance per document.
 */
public final class ClaimsRewrite {
    /** The claim's name in the pod spec. */
    static final String CLAIM = "devices";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<String> NATIVE = Set.of("cpu", "memory", "ephemeral-storage", "pods", "storage");
    /** One device request of the claim: which resource, how many, for which containers. */
    private record Request(String name, ResourceMapping mapping, long count, List<String> selectors) {}

    private final String source;
    private final YamlDocuments.Document doc;
    private final Function<String, Optional<ResourceMapping>> mappings;
    private final List<Finding> findings;
    private final TextEdits edits;
    private final List<Request> requests = new ArrayList<>();
    private final YamlText yaml = new YamlText();

    public ClaimsRewrite(
            String source,
            YamlDocuments.Document doc,
            Function<String, Optional<ResourceMapping>> mappings,
            List<Finding> findings) {
        this.source = source;
        this.doc = doc;
        this.mappings = mappings;
        this.findings = findings;
        this.edits = new TextEdits(doc.text());
    }

    /** Whether the document is a workload whose pods this rewrite knows where to find. */
    public static boolean isWorkload(Node root) {
        return YamlNodes.scalar(root, "kind").flatMap(PodSpecs::podSpecPath).isPresent();
    }

    /** The pod spec of a workload document, if it has one. */
    public static Optional<Node> podSpec(Node root) {
        return YamlNodes.scalar(root, "kind")
                .flatMap(PodSpecs::podSpecPath)
                .flatMap(path -> YamlNodes.at(root, path.toArray(String[]::new)));
    }

    /** The rewritten document text (with the template appended), or empty when nothing asks for mapped devices. */
    public Optional<String> rewrite() {
        Node root = doc.root();
        Optional<Node> spec = podSpec(root);
        if (spec.isEmpty() || !(spec.get() instanceof MappingNode podSpec)) {
            return Optional.empty();
        }
        String workload = YamlNodes.scalar(root, "kind").orElse("") + " "
                + YamlNodes.scalar(root, "metadata", "name").orElse("(unnamed)");
        List<Node> containers = containers(podSpec, "containers");
        List<Node> initContainers = containers(podSpec, "initContainers");
        List<ContainerClaims> perContainer = new ArrayList<>();
        for (Node c : containers) {
            container(c, workload, false).ifPresent(perContainer::add);
        }
        for (Node c : initContainers) {
            container(c, workload, true).ifPresent(perContainer::add);
        }
        if (requests.isEmpty()) {
            return Optional.empty();
        }
        if (YamlNodes.get(podSpec, "resourceClaims").isPresent()) {
            note(
                    podSpec,
                    Finding.Severity.WARNING,
                    "not-rewritten",
                    workload + ": the pod spec already has "
                            + "resourceClaims; its device-plugin resources were left as they are");
            return Optional.empty();
        }
        List<String> nodeSelectors = nodeSelectors(podSpec, workload);
        // A node label describes every GPU of the node; as a selector it applies to the requests of that driver.
        List<Request> withSelectors = new ArrayList<>();
        for (Request r : requests) {
            List<String> sel = new ArrayList<>(r.selectors());
            if (r.mapping().driver().equals(ResourceMapping.NVIDIA_DRIVER)) {
                sel.addAll(nodeSelectors);
            }
            withSelectors.add(new Request(r.name(), r.mapping(), r.count(), sel));
        }
        for (ContainerClaims cc : perContainer) {
            addContainerClaims(cc);
        }
        String template = templateName(root);
        int indent = firstKeyColumn(podSpec);
        edits.insert(
                edits.blockEnd(podSpec),
                " ".repeat(indent) + "resourceClaims:\n" + " ".repeat(indent) + "- name: " + CLAIM + "\n"
                        + " ".repeat(indent) + "  resourceClaimTemplateName: " + template + "\n");
        String text = edits.apply();
        Optional<String> templateText = yaml.write(template(root, template, withSelectors));
        if (templateText.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of((text.endsWith("\n") ? text : text + "\n") + "---\n" + templateText.get());
    }

    /** What one container gets: its claim entries ({@code request} names) after its device resources leave. */
    private record ContainerClaims(MappingNode resources, List<String> requestNames) {}

    private List<Node> containers(MappingNode podSpec, String key) {
        return YamlNodes.get(podSpec, key)
                .filter(SequenceNode.class::isInstance)
                .map(n -> ((SequenceNode) n).getValue())
                .orElse(List.of());
    }

    private Optional<ContainerClaims> container(Node c, String workload, boolean init) {
        Optional<Node> res = YamlNodes.get(c, "resources");
        if (res.isEmpty() || !(res.get() instanceof MappingNode resources)) {
            return Optional.empty();
        }
        String name = YamlNodes.scalar(c, "name").orElse("container");
        String who = workload + ", container " + name;
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        List<NodeTuple> remove = new ArrayList<>();
        List<NodeTuple> limits = entries(resources, "limits");
        List<NodeTuple> reqs = entries(resources, "requests");
        for (List<NodeTuple> group : List.of(limits, reqs)) {
            for (NodeTuple t : group) {
                String key = YamlNodes.keyOf(t);
                if (isNative(key)) {
                    continue;
                }
                Optional<ResourceMapping> m = mappings.apply(key);
                if (m.isEmpty()) {
                    note(
                            t.getKeyNode(),
                            Finding.Severity.WARNING,
                            "no-mapping",
                            who + ": extended resource " + key
                                    + " has no DRA mapping and stays as it is; give one with --mapping");
                    continue;
                }
                Optional<Long> n = count(t.getValueNode());
                if (n.isEmpty()) {
                    note(
                            t.getValueNode(),
                            Finding.Severity.ERROR,
                            "invalid-field",
                            who + ": " + key + " must be a whole number of devices");
                    return Optional.empty();
                }
                Long before = counts.putIfAbsent(key, n.get());
                if (before != null && !before.equals(n.get())) {
                    note(
                            t.getValueNode(),
                            Finding.Severity.ERROR,
                            "invalid-field",
                            who + ": " + key + " has "
                                    + "requests " + n.get() + " and limits " + before
                                    + "; an extended resource must have "
                                    + "them equal");
                    return Optional.empty();
                }
                remove.add(t);
            }
        }
        if (counts.isEmpty()) {
            return Optional.empty();
        }
        List<String> names = new ArrayList<>();
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            ResourceMapping m = mappings.apply(e.getKey()).orElseThrow();
            if (!m.note().isEmpty()) {
                note(c, Finding.Severity.WARNING, "changes-meaning", who + ": " + m.note());
            }
            if (e.getValue() == 0) {
                continue;
            }
            names.add(requestFor(name, m, e.getValue(), init));
        }
        removeEntries(resources, "limits", limits, remove);
        removeEntries(resources, "requests", reqs, remove);
        return Optional.of(new ContainerClaims(resources, names));
    }

    /**
     * An app container gets a request of its own. An init container runs before the app containers and, with device
     * plugins, its devices are handed on to them; so it shares an app container's request that asks for at least as
     * many of the same devices, and gets one of its own only when none does.
     */
    private String requestFor(String container, ResourceMapping m, long count, boolean init) {
        if (init) {
            for (Request r : requests) {
                if (r.mapping().equals(m) && r.count() >= count) {
                    return r.name();
                }
            }
        }
        String base = dnsLabel(container + "-" + m.shortName());
        String name = base;
        for (int i = 2; requestNamed(name); i++) {
            name = dnsLabel(base + "-" + i);
        }
        requests.add(new Request(name, m, count, m.selectors()));
        return name;
    }

    private boolean requestNamed(String name) {
        return requests.stream().anyMatch(r -> r.name().equals(name));
    }

    private void addContainerClaims(ContainerClaims cc) {
        if (cc.requestNames().isEmpty()) {
            return;
        }
        MappingNode resources = cc.resources();
        StringBuilder sb = new StringBuilder();
        if (YamlNodes.isFlow(resources)) {
            // A flow mapping ({limits: ...}) gets the claims inside its braces.
            int close = edits.end(resources) - 1;
            sb.append(resources.getValue().isEmpty() ? "" : ", ").append("claims: [");
            for (int i = 0; i < cc.requestNames().size(); i++) {
                sb.append(i == 0 ? "" : ", ")
                        .append("{name: ")
                        .append(CLAIM)
                        .append(", request: ")
                        .append(cc.requestNames().get(i))
                        .append('}');
            }
            edits.insert(close, sb.append(']').toString());
            return;
        }
        String indent = " ".repeat(firstKeyColumn(resources));
        sb.append(indent).append("claims:\n");
        for (String r : cc.requestNames()) {
            sb.append(indent)
                    .append("- name: ")
                    .append(CLAIM)
                    .append('\n')
                    .append(indent)
                    .append("  request: ")
                    .append(r)
                    .append('\n');
        }
        edits.insert(edits.blockEnd(resources), sb.toString());
    }

    private List<NodeTuple> entries(MappingNode resources, String key) {
        return YamlNodes.get(resources, key)
                .filter(MappingNode.class::isInstance)
                .map(n -> ((MappingNode) n).getValue())
                .orElse(List.of());
    }

    /** Removes the device entries of limits or requests; the whole key when nothing else is left in it. */
    private void removeEntries(MappingNode resources, String key, List<NodeTuple> all, List<NodeTuple> remove) {
        List<NodeTuple> gone = all.stream().filter(remove::contains).toList();
        if (gone.isEmpty()) {
            return;
        }
        NodeTuple owner = YamlNodes.entry(resources, key).orElseThrow();
        if (gone.size() == all.size() && !YamlNodes.isFlow(resources)) {
            deleteEntry(owner);
            return;
        }
        Node map = owner.getValueNode();
        if (YamlNodes.isFlow(map)) {
            edits.replace(edits.start(map), edits.end(map), flowWithout((MappingNode) map, gone));
            return;
        }
        for (NodeTuple t : gone) {
            deleteEntry(t);
        }
    }

    /** Deletes a block mapping entry: from the start of its key's line to the end of its value. */
    private void deleteEntry(NodeTuple t) {
        int start = edits.lineStart(edits.start(t.getKeyNode()));
        edits.replace(start, edits.blockEnd(t.getValueNode()), "");
    }

    /** A flow mapping without some entries, every other entry as written. */
    private String flowWithout(MappingNode map, List<NodeTuple> gone) {
        List<String> kept = new ArrayList<>();
        for (NodeTuple t : map.getValue()) {
            if (!gone.contains(t)) {
                kept.add(edits.text().substring(edits.start(t.getKeyNode()), edits.end(t.getValueNode())));
            }
        }
        return "{" + String.join(", ", kept) + "}";
    }

    /**
     * GPU feature-discovery labels in the pod's nodeSelector become CEL selectors and leave the nodeSelector; required
     * node affinity on them is kept (removing terms can change what an affinity matches), with the selector added.
     */
    private List<String> nodeSelectors(MappingNode podSpec, String workload) {
        Set<String> selectors = new LinkedHashSet<>();
        Optional<NodeTuple> ns = YamlNodes.entry(podSpec, "nodeSelector");
        if (ns.isPresent() && ns.get().getValueNode() instanceof MappingNode map) {
            List<NodeTuple> gone = new ArrayList<>();
            for (NodeTuple t : map.getValue()) {
                String key = YamlNodes.keyOf(t);
                String value = t.getValueNode() instanceof ScalarNode s ? s.getValue() : "";
                Optional<String> cel = GpuNodeLabels.selector(key, value);
                if (cel.isPresent()) {
                    selectors.add(cel.get());
                    gone.add(t);
                    note(
                            t.getKeyNode(),
                            Finding.Severity.INFO,
                            "node-label",
                            workload + ": nodeSelector " + key + "=" + value + " became the claim selector "
                                    + cel.get());
                } else if (GpuNodeLabels.isGpuLabel(key)) {
                    note(
                            t.getKeyNode(),
                            Finding.Severity.INFO,
                            "node-label",
                            workload + ": nodeSelector " + key
                                    + " has no device attribute in the DRA driver and stays a node selector");
                }
            }
            if (!gone.isEmpty()) {
                if (gone.size() == map.getValue().size()) {
                    deleteEntry(ns.get());
                } else if (YamlNodes.isFlow(map)) {
                    edits.replace(edits.start(map), edits.end(map), flowWithout(map, gone));
                } else {
                    gone.forEach(this::deleteEntry);
                }
            }
        }
        Optional<Node> terms = YamlNodes.at(
                podSpec,
                "affinity",
                "nodeAffinity",
                "requiredDuringSchedulingIgnoredDuringExecution",
                "nodeSelectorTerms");
        if (terms.isPresent()
                && terms.get() instanceof SequenceNode seq
                && seq.getValue().size() == 1) {
            for (Node expr : YamlNodes.get(seq.getValue().get(0), "matchExpressions")
                    .filter(SequenceNode.class::isInstance)
                    .map(n -> ((SequenceNode) n).getValue())
                    .orElse(List.of())) {
                String key = YamlNodes.scalar(expr, "key").orElse("");
                if (!YamlNodes.scalar(expr, "operator").orElse("").equals("In")) {
                    continue;
                }
                List<String> values = YamlNodes.get(expr, "values")
                        .filter(SequenceNode.class::isInstance)
                        .map(n -> ((SequenceNode) n)
                                .getValue().stream()
                                        .map(v -> v instanceof ScalarNode s ? s.getValue() : "")
                                        .toList())
                        .orElse(List.of());
                GpuNodeLabels.selectorIn(key, values).ifPresent(cel -> {
                    selectors.add(cel);
                    note(
                            expr,
                            Finding.Severity.INFO,
                            "node-label",
                            workload + ": node affinity on " + key
                                    + " also became the claim selector " + cel
                                    + "; the affinity is kept and can go once "
                                    + "the nodes no longer need the label");
                });
            }
        }
        return List.copyOf(selectors);
    }

    private ObjectNode template(Node root, String name, List<Request> reqs) {
        ObjectNode t = NODES.objectNode();
        t.put("apiVersion", V1Conversion.V1);
        t.put("kind", "ResourceClaimTemplate");
        ObjectNode meta = t.putObject("metadata");
        meta.put("name", name);
        YamlNodes.scalar(root, "metadata", "namespace").ifPresent(ns -> meta.put("namespace", ns));
        ArrayNode list =
                t.putObject("spec").putObject("spec").putObject("devices").putArray("requests");
        for (Request r : reqs) {
            ObjectNode req = list.addObject();
            req.put("name", r.name());
            ObjectNode exactly = req.putObject("exactly");
            exactly.put("deviceClassName", r.mapping().deviceClassName());
            exactly.put("allocationMode", "ExactCount");
            exactly.put("count", r.count());
            if (!r.selectors().isEmpty()) {
                ArrayNode sel = exactly.putArray("selectors");
                r.selectors().forEach(s -> sel.addObject().putObject("cel").put("expression", s));
            }
        }
        return t;
    }

    private static String templateName(Node root) {
        String name = YamlNodes.scalar(root, "metadata", "name")
                .or(() -> YamlNodes.scalar(root, "metadata", "generateName"))
                .orElse("workload");
        return dnsSubdomain(name.replaceAll("-+$", "") + "-" + CLAIM);
    }

    private int firstKeyColumn(MappingNode m) {
        return m.getValue().isEmpty()
                ? edits.column(m)
                : edits.column(m.getValue().get(0).getKeyNode());
    }

    private static boolean isNative(String key) {
        return NATIVE.contains(key)
                || key.startsWith("hugepages-")
                || key.startsWith("requests.")
                || !key.contains("/")
                || key.startsWith("kubernetes.io/")
                || key.contains(".kubernetes.io/");
    }

    private static Optional<Long> count(Node value) {
        if (!(value instanceof ScalarNode s)) {
            return Optional.empty();
        }
        try {
            long n = Long.parseLong(s.getValue().strip());
            return n < 0 ? Optional.empty() : Optional.of(n);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String dnsLabel(String s) {
        String label = s.toLowerCase(java.util.Locale.ROOT)
                .replaceAll("[^a-z0-9-]+", "-")
                .replaceAll("^-+|-+$", "");
        if (label.length() > 63) {
            label = label.substring(0, 63).replaceAll("-+$", "");
        }
        return label.isEmpty() ? "device" : label;
    }

    private static String dnsSubdomain(String s) {
        String name = s.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9.-]+", "-");
        return name.length() > 253 ? name.substring(0, 253) : name;
    }

    private void note(Node at, Finding.Severity severity, String rule, String message) {
        findings.add(new Finding(
                source, YamlNodes.line(at, doc.startLine()), YamlNodes.column(at), severity, rule, message));
    }
}
