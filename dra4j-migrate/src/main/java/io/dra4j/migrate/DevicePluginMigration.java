package io.dra4j.migrate;

import io.dra4j.migrate.internal.ClaimsRewrite;
import io.dra4j.migrate.internal.V1Conversion;
import io.dra4j.migrate.internal.YamlDocuments;
import io.dra4j.migrate.internal.YamlNodes;
import io.dra4j.migrate.internal.YamlText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Moves workloads from device-plugin extended resources ({@code nvidia.com/gpu: 2}) to DRA, in one of two ways:
 * <ul>
 * <li>{@link #bridge}: the manifests stay; DeviceClasses with {@code extendedResourceName} let the scheduler serve
 * the same requests from a DRA driver (KEP-5004, DRAExtendedResource: beta and on by default in 1.36, GA in
 * 1.37);</li>
 * <li>{@link #claims}: each workload's pods get a ResourceClaimTemplate instead, with GPU node-label selectors
 * turned into claim selectors; only what must change is edited, the rest stays byte for byte.</li>
 * </ul>
 * Immutable and thread-safe.
 */
public final class DevicePluginMigration {
    /**
     * The outcome for one input text.
     *
     * @param output    from claims: the input with the workloads rewritten and their templates added; from bridge:
     *                  the DeviceClasses to create
     * @param findings  what was changed in meaning, left alone, or could not be read
     * @param rewritten how many documents were rewritten (claims) or classes written (bridge)
     */
    public record Result(String output, List<Finding> findings, int rewritten) {
        public Result {
            findings = List.copyOf(findings);
        }

        public boolean hasErrors() {
            return findings.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR);
        }
    }

    private final Map<String, ResourceMapping> extra;

    private DevicePluginMigration(Map<String, ResourceMapping> extra) {
        this.extra = Map.copyOf(extra);
    }

    /** NVIDIA's device-plugin names only. */
    public static DevicePluginMigration nvidia() {
        return new DevicePluginMigration(Map.of());
    }

    /** NVIDIA's names plus (and overridden by) {@code mappings}. */
    public static DevicePluginMigration with(List<ResourceMapping> mappings) {
        Map<String, ResourceMapping> m = new LinkedHashMap<>();
        mappings.forEach(x -> m.put(x.resource(), x));
        return new DevicePluginMigration(m);
    }

    /** The mapping of an extended resource, from the mapping file first, then NVIDIA's names. */
    public Optional<ResourceMapping> mapping(String resource) {
        return Optional.ofNullable(extra.get(resource)).or(() -> ResourceMapping.nvidia(resource));
    }

    /** CLAIMS mode on one text: the text with its workloads rewritten. */
    public Result claims(String source, String text) {
        List<Finding> findings = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        int rewritten = 0;
        List<YamlDocuments.Document> docs = YamlDocuments.read(text);
        for (int i = 0; i < docs.size(); i++) {
            YamlDocuments.Document doc = docs.get(i);
            if (i > 0 || text.startsWith("---")) {
                out.append("---\n");
            }
            Optional<String> changed = Optional.empty();
            if (!doc.blank() && readable(source, doc, findings)) {
                changed = new ClaimsRewrite(source, doc, this::mapping, findings).rewrite();
            }
            if (changed.isPresent()) {
                out.append(changed.get());
                rewritten++;
            } else {
                out.append(doc.text());
                if (!doc.text().endsWith("\n")) {
                    out.append('\n');
                }
            }
        }
        return new Result(docs.isEmpty() ? text : out.toString(), findings, rewritten);
    }

    private static boolean readable(String source, YamlDocuments.Document doc, List<Finding> findings) {
        if (doc.error() != null) {
            findings.add(new Finding(
                    source,
                    doc.error().line(),
                    doc.error().column(),
                    Finding.Severity.ERROR,
                    "invalid-yaml",
                    "document " + (doc.index() + 1) + ": " + doc.error().message()));
            return false;
        }
        if (!(doc.root() instanceof MappingNode)
                || YamlNodes.scalar(doc.root(), "kind").isEmpty()
                || YamlNodes.scalar(doc.root(), "apiVersion").isEmpty()) {
            findings.add(new Finding(
                    source,
                    doc.startLine(),
                    1,
                    Finding.Severity.ERROR,
                    "not-kubernetes",
                    "document " + (doc.index() + 1) + ": not a Kubernetes object: expected a mapping with "
                            + "apiVersion and kind"));
            return false;
        }
        return true;
    }

    /**
     * One DeviceClass per extended resource the workloads ask for, named as the resource's class with the resource
     * name as {@code extendedResourceName}; a header says which rule decides between device plugin and DRA.
     */
    public Result bridge(Map<String, String> sources) {
        List<Finding> findings = new ArrayList<>();
        Map<String, ResourceMapping> used = new LinkedHashMap<>();
        for (Map.Entry<String, String> in : sources.entrySet()) {
            bridgeScan(in.getKey(), in.getValue(), used, findings);
        }
        return bridgeClasses(used, findings);
    }

    private void bridgeScan(String source, String text, Map<String, ResourceMapping> used, List<Finding> findings) {
        for (YamlDocuments.Document doc : YamlDocuments.read(text)) {
            if (doc.blank() || !readable(source, doc, findings) || !ClaimsRewrite.isWorkload(doc.root())) {
                continue;
            }
            Optional<Node> spec = ClaimsRewrite.podSpec(doc.root());
            for (String list : List.of("containers", "initContainers")) {
                for (Node c : spec.flatMap(s -> YamlNodes.get(s, list))
                        .filter(SequenceNode.class::isInstance)
                        .map(n -> ((SequenceNode) n).getValue())
                        .orElse(List.of())) {
                    for (String part : List.of("limits", "requests")) {
                        Optional<Node> m = YamlNodes.at(c, "resources", part);
                        if (m.isEmpty() || !(m.get() instanceof MappingNode map)) {
                            continue;
                        }
                        for (NodeTuple t : map.getValue()) {
                            String key = YamlNodes.keyOf(t);
                            mapping(key).ifPresent(x -> {
                                if (used.putIfAbsent(key, x) == null
                                        && !x.note().isEmpty()) {
                                    findings.add(new Finding(
                                            source,
                                            YamlNodes.line(t.getKeyNode(), doc.startLine()),
                                            YamlNodes.column(t.getKeyNode()),
                                            Finding.Severity.WARNING,
                                            "changes-meaning",
                                            key + ": through the bridge each unit is a whole "
                                                    + "device of the class, not a shared replica. " + x.note()));
                                }
                            });
                        }
                    }
                }
            }
        }
    }

    private static Result bridgeClasses(Map<String, ResourceMapping> used, List<Finding> findings) {
        StringBuilder out = new StringBuilder();
        out.append("""
                # DeviceClasses that let the scheduler serve device-plugin requests from a DRA driver (KEP-5004,
                # DRAExtendedResource: beta and on by default in 1.36, GA in 1.37). Pods keep asking for the extended
                # resource. On a node whose device plugin still advertises that resource the device plugin wins: the
                # scheduler uses DRA for it only on nodes where it is not in the node's allocatable (kubernetes#139141).
                # Run the DRA driver and the device plugin on different nodes: both on one node advertise the same
                # devices twice.
                """);
        if (used.containsKey("nvidia.com/gpu")) {
            out.append("# NVIDIA's DRA driver chart creates gpu.nvidia.com with extendedResourceName nvidia.com/gpu "
                    + "itself; leave that one out where the chart is installed.\n");
        }
        YamlText yaml = new YamlText();
        int n = 0;
        java.util.Set<String> names = new java.util.HashSet<>();
        for (ResourceMapping m : used.values()) {
            // The driver's own class name for the plain resource; a class per resource where it adds selectors or
            // the name is taken.
            String name = m.selectors().isEmpty() && names.add(m.deviceClassName())
                    ? m.deviceClassName()
                    : m.shortName() + "." + m.deviceClassName();
            names.add(name);
            ObjectNode cls = deviceClass(m, name);
            out.append(n == 0 ? "" : "---\n").append(yaml.write(cls).orElseThrow());
            n++;
        }
        return new Result(n == 0 ? "" : out.toString(), findings, n);
    }

    private static ObjectNode deviceClass(ResourceMapping m, String name) {
        ObjectNode cls = JsonNodeFactory.instance.objectNode();
        cls.put("apiVersion", V1Conversion.V1);
        cls.put("kind", "DeviceClass");
        cls.putObject("metadata").put("name", name);
        ObjectNode spec = cls.putObject("spec");
        ArrayNode selectors = spec.putArray("selectors");
        StringBuilder cel = new StringBuilder("device.driver == '" + m.driver() + "'");
        if (m.driver().equals(ResourceMapping.NVIDIA_DRIVER)) {
            String type = m.deviceClassName().equals("mig.nvidia.com") ? "mig" : "gpu";
            cel.append(" && device.attributes['" + m.driver() + "'].type == '" + type + "'");
        }
        selectors.addObject().putObject("cel").put("expression", cel.toString());
        m.selectors().forEach(s -> selectors.addObject().putObject("cel").put("expression", s));
        spec.put("extendedResourceName", m.resource());
        return cls;
    }
}
