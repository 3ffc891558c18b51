package io.dra4j.migrate;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a device-plugin extended resource maps to DRA: the DeviceClass that replaces it, extra CEL selectors, and what
 * the rewrite cannot carry over. Built-in: NVIDIA's device plugin names ({@code nvidia.com/gpu}, MIG mixed-strategy
 * {@code nvidia.com/mig-<profile>}, time-slicing and MPS {@code nvidia.com/gpu.shared}) onto the classes of NVIDIA's
 * DRA driver ({@code gpu.nvidia.com}, {@code mig.nvidia.com}); other names through a mapping file.
 *
 * @param resource        the extended resource name, e.g. {@code nvidia.com/gpu}
 * @param deviceClassName the DeviceClass of the DRA driver that serves the same devices
 * @param driver          the DRA driver, whose attributes node-label selectors turn into
 * @param selectors       CEL selectors the claim request adds (e.g. the MIG profile)
 * @param note            what the rewrite changes in meaning, or empty
 */
public record ResourceMapping(
        String resource, String deviceClassName, String driver, List<String> selectors, String note) {
    public static final String NVIDIA_DRIVER = "gpu.nvidia.com";
    private static final Pattern MIG = Pattern.compile("nvidia\\.com/mig-(\\d+g\\.\\d+gb(?:\\+me)?)");

    public ResourceMapping {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(deviceClassName, "deviceClassName");
        Objects.requireNonNull(driver, "driver");
        selectors = List.copyOf(selectors);
        Objects.requireNonNull(note, "note");
    }

    /** The built-in mapping of an NVIDIA device-plugin resource name, if it is one. */
    public static Optional<ResourceMapping> nvidia(String resource) {
        if (resource.equals("nvidia.com/gpu")) {
            return Optional.of(new ResourceMapping(resource, "gpu.nvidia.com", NVIDIA_DRIVER, List.of(), ""));
        }
        if (resource.equals("nvidia.com/gpu.shared")) {
            return Optional.of(new ResourceMapping(
                    resource,
                    "gpu.nvidia.com",
                    NVIDIA_DRIVER,
                    List.of(),
                    "nvidia.com/gpu.shared is a time-slicing or MPS replica of a GPU that the device plugin shares "
                            + "between pods; a claim from a template gives each pod a GPU of its own. To share one "
                            + "GPU between pods, have them reference one ResourceClaim (resourceClaimName) and set "
                            + "the sharing strategy in a GpuConfig (resource.nvidia.com/v1beta1)"));
        }
        Matcher m = MIG.matcher(resource);
        if (m.matches()) {
            String profile = m.group(1);
            return Optional.of(new ResourceMapping(
                    resource,
                    "mig.nvidia.com",
                    NVIDIA_DRIVER,
                    List.of("device.attributes['" + NVIDIA_DRIVER + "'].profile == '" + profile + "'"),
                    ""));
        }
        return Optional.empty();
    }

    /**
     * The mappings of a mapping file:
     * {@code mappings: [{resource: example.com/fpga, deviceClassName: fpga.example.com, driver: fpga.example.com,
     * selectors: ["device.attributes['fpga.example.com'].family == 'agilex'"], note: "..."}]}; {@code driver}
     * defaults to the class name, {@code selectors} and {@code note} to none.
     *
     * @throws IllegalArgumentException naming the entry and field that is wrong
     */
    public static List<ResourceMapping> parse(String text) {
        tools.jackson.databind.JsonNode root;
        try {
            root = tools.jackson.dataformat.yaml.YAMLMapper.builder().build().readTree(text);
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("invalid YAML: " + e.getOriginalMessage());
        }
        if (root == null || !root.path("mappings").isArray()) {
            throw new IllegalArgumentException("expected a list under mappings");
        }
        List<ResourceMapping> out = new java.util.ArrayList<>();
        int i = 0;
        for (tools.jackson.databind.JsonNode m : root.get("mappings")) {
            String where = "mappings[" + i++ + "]";
            String resource = m.path("resource").asString("");
            String cls = m.path("deviceClassName").asString("");
            if (resource.isEmpty() || !resource.contains("/")) {
                throw new IllegalArgumentException(
                        where + ".resource: an extended resource name such as " + "example.com/fpga is required");
            }
            if (cls.isEmpty()) {
                throw new IllegalArgumentException(where + ".deviceClassName is required");
            }
            List<String> selectors = new java.util.ArrayList<>();
            for (tools.jackson.databind.JsonNode sel : m.path("selectors")) {
                if (!sel.isString()) {
                    throw new IllegalArgumentException(where + ".selectors: each selector is a CEL expression string");
                }
                selectors.add(sel.asString());
            }
            out.add(new ResourceMapping(
                    resource,
                    cls,
                    m.path("driver").asString(cls),
                    selectors,
                    m.path("note").asString("")));
        }
        return out;
    }

    /** A short DNS label for request names: {@code gpu}, {@code mig-1g-10gb}, {@code fpga}. */
    public String shortName() {
        String local = resource.substring(resource.indexOf('/') + 1).toLowerCase(java.util.Locale.ROOT);
        String label = local.replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
        return label.isEmpty() ? "device" : label;
    }
}
