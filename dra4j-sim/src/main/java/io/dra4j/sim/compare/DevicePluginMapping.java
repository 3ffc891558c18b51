package io.dra4j.sim.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Overrides of the device-plugin form (docs/compare.md): per claim request ({@code namespace/template-or-claim/request})
 * the resource, count and products, and per GPU product the MIG layout of each of its GPUs (profiles in order).
 */
public record DevicePluginMapping(
        Map<String, DevicePluginForm.RequestForm> requests, Map<String, List<String>> migLayout) {
    public static final DevicePluginMapping NONE = new DevicePluginMapping(Map.of(), Map.of());

    public DevicePluginMapping {
        requests = Map.copyOf(requests);
        migLayout = Map.copyOf(migLayout);
    }

    /** Reads a mapping file; {@code source} names it in errors. */
    public static DevicePluginMapping parse(String yaml, String source) {
        JsonNode root;
        try {
            root = new YAMLMapper().readTree(yaml);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(source + ": not YAML: " + e.getMessage());
        }
        Map<String, DevicePluginForm.RequestForm> requests = new TreeMap<>();
        Map<String, List<String>> layout = new TreeMap<>();
        if (root == null || root.isMissingNode() || root.isNull()) {
            return NONE;
        }
        for (var e : root.path("requests").properties()) {
            JsonNode r = e.getValue();
            if (!r.path("resource").isString()
                    || !r.path("count").canConvertToLong()
                    || r.path("count").asLong() < 0) {
                throw new IllegalArgumentException(source + ": requests." + e.getKey()
                        + ": resource (a string) and count (0 or more) are required");
            }
            List<String> products = new ArrayList<>();
            r.path("products").forEach(p -> products.add(p.asString()));
            requests.put(
                    e.getKey(),
                    new DevicePluginForm.RequestForm(
                            e.getKey(),
                            r.path("resource").asString(),
                            r.path("count").asLong(),
                            products,
                            List.of("overridden by " + source)));
        }
        for (var e : root.path("migLayout").properties()) {
            if (!e.getValue().isArray()) {
                throw new IllegalArgumentException(source + ": migLayout." + e.getKey() + ": a list of MIG profiles");
            }
            List<String> profiles = new ArrayList<>();
            e.getValue().forEach(p -> profiles.add(p.asString()));
            layout.put(e.getKey(), profiles);
        }
        return new DevicePluginMapping(requests, layout);
    }
}
