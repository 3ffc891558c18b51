package io.dra4j.drivers.fake;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a fake driver devices file:
 * <pre>
 * driver: gpu.fake.dra4j.io            # optional
 * resourceName: fake.dra4j.io/gpu      # for the device plugin, optional
 * counterSets:                         # ResourceSlice sharedCounters schema
 *   - name: gpu-0-counters
 *     counters: {memory: {value: 80Gi}}
 * devices:                             # ResourceSlice device schema, plus healthy, env and numaNodes
 *   - name: gpu-0
 *     attributes: {model: {string: H100}, index: {int: 0}}
 *     capacity: {memory: {value: 80Gi}}
 *     healthy: true
 *     env: {FAKE_GPU_FLAVOUR: big}
 *     numaNodes: [0]
 * </pre>
 * Errors name the file and the field, such as {@code devices.yaml: devices[2]: unknown field "atributes"}.
 */
public final class FakeConfigReader {
    public static final String DEFAULT_DRIVER = "gpu.fake.dra4j.io";
    public static final String DEFAULT_RESOURCE = "fake.dra4j.io/gpu";
    private static final Set<String> TOP = Set.of("driver", "resourceName", "counterSets", "devices");
    private static final Set<String> EXTRA = Set.of("healthy", "env", "numaNodes");

    private final KubernetesSerialization serialization = new KubernetesSerialization();
    private final YAMLMapper yaml = YAMLMapper.builder().build();

    /** Thrown for an unreadable or invalid file; the message names the file and field. */
    public static final class ConfigException extends IOException {
        private static final long serialVersionUID = 1L;

        public ConfigException(String message) {
            super(message);
        }
    }

    public FakeConfig read(Path file) throws IOException {
        String label = file.toString();
        JsonNode root;
        try {
            root = yaml.readTree(Files.readString(file));
        } catch (JacksonException e) {
            throw new ConfigException(label + ": not valid YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ConfigException(label + ": cannot read: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new ConfigException(label + ": expected a mapping with devices");
        }
        for (String key : root.propertyNames()) {
            if (!TOP.contains(key)) {
                throw new ConfigException(label + ": unknown field \"" + key + "\" (known: " + TOP + ")");
            }
        }
        String driver = root.path("driver").asString(DEFAULT_DRIVER);
        String resource = root.path("resourceName").asString(DEFAULT_RESOURCE);
        List<CounterSet> sets = new ArrayList<>();
        int i = 0;
        for (JsonNode n : root.path("counterSets")) {
            CounterSet cs = convert(n, CounterSet.class, label + ": counterSets[" + i + "]");
            if (cs.getName() == null) {
                throw new ConfigException(label + ": counterSets[" + i + "]: missing field \"name\"");
            }
            sets.add(cs);
            i++;
        }
        List<FakeConfig.FakeDevice> devices = new ArrayList<>();
        i = 0;
        for (JsonNode n : root.path("devices")) {
            String where = label + ": devices[" + i + "]";
            if (!n.isObject()) {
                throw new ConfigException(where + ": expected a mapping");
            }
            ObjectNode copy = ((ObjectNode) n).deepCopy();
            boolean healthy = copy.path("healthy").asBoolean(true);
            if (copy.has("healthy") && !copy.get("healthy").isBoolean()) {
                throw new ConfigException(where + ": field \"healthy\" must be true or false");
            }
            Map<String, String> env = new LinkedHashMap<>();
            for (var e : copy.path("env").properties()) {
                if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw new ConfigException(
                            where + ": env: \"" + e.getKey() + "\" is not an environment variable name");
                }
                env.put(e.getKey(), e.getValue().asString());
            }
            List<Long> numa = new ArrayList<>();
            copy.path("numaNodes").forEach(x -> numa.add(x.asLong()));
            EXTRA.forEach(copy::remove);
            Device d = convert(copy, Device.class, where);
            if (d.getName() == null
                    || !d.getName().matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")
                    || d.getName().length() > 63) {
                throw new ConfigException(where + ": field \"name\": "
                        + (d.getName() == null ? "missing" : "\"" + d.getName() + "\" is not a DNS label"));
            }
            devices.add(new FakeConfig.FakeDevice(d, healthy, env, numa));
            i++;
        }
        return new FakeConfig(driver, resource, devices, sets);
    }

    private <T> T convert(JsonNode n, Class<T> type, String where) throws ConfigException {
        T value;
        try {
            value = serialization.convertValue(n, type);
        } catch (RuntimeException e) {
            throw new ConfigException(where + ": " + e.getMessage());
        }
        String unknown = unknownField(value, "");
        if (unknown != null) {
            throw new ConfigException(where + ": unknown field \"" + unknown + "\"");
        }
        return value;
    }

    /** The first field the fabric8 model kept as an additional property, i.e. one the API does not have. */
    private static String unknownField(Object value, String path) {
        if (value instanceof io.fabric8.kubernetes.api.model.KubernetesResource) {
            try {
                var m = value.getClass().getMethod("getAdditionalProperties");
                Map<?, ?> extra = (Map<?, ?>) m.invoke(value);
                if (extra != null && !extra.isEmpty()) {
                    return path + extra.keySet().iterator().next();
                }
                for (var getter : value.getClass().getMethods()) {
                    if (getter.getName().startsWith("get")
                            && getter.getParameterCount() == 0
                            && !getter.getName().equals("getAdditionalProperties")
                            && !getter.getName().equals("getClass")) {
                        Object child = getter.invoke(value);
                        String field = Character.toLowerCase(getter.getName().charAt(3))
                                + getter.getName().substring(4);
                        String inner = unknownIn(child, path + field + ".");
                        if (inner != null) {
                            return inner;
                        }
                    }
                }
            } catch (ReflectiveOperationException e) {
                return null;
            }
        }
        return null;
    }

    private static String unknownIn(Object child, String path) {
        if (child instanceof List<?> l) {
            for (Object o : l) {
                String u = unknownField(o, path);
                if (u != null) {
                    return u;
                }
            }
        } else if (child instanceof Map<?, ?> m) {
            for (var e : m.entrySet()) {
                String u = unknownField(e.getValue(), path + e.getKey() + ".");
                if (u != null) {
                    return u;
                }
            }
        } else {
            return unknownField(child, path);
        }
        return null;
    }
}
