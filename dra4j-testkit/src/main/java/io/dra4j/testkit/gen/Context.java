package io.dra4j.testkit.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the parts of one scenario's generation share: the dice, the feature gates that are on, the drivers in use and
 * the devices created so far (claims, selectors and allocated devices refer to them).
 */
final class Context {
    static final String NODE = "node-1";
    static final List<String> OTHER_NODES = List.of("node-2", "node-3");
    static final Map<String, String> REGION_OF =
            Map.of("node-1", "region-1", "node-2", "region-1", "node-3", "region-2");

    /** One generated device, as far as claims and allocated devices need to know it. */
    record DeviceRef(String driver, String pool, String name, boolean multi, Map<String, String> capacity) {}

    final Dice dice;
    final Set<String> gates;
    final List<String> drivers;
    final List<DeviceRef> devices = new ArrayList<>();

    Context(Dice dice, Set<String> gates, List<String> drivers) {
        this.dice = dice;
        this.gates = gates;
        this.drivers = drivers;
    }

    boolean on(String gate) {
        return gates.contains(gate);
    }

    /**
     * Whether to use a field guarded by {@code gate}: with probability {@code pOn} when the gate is on, and
     * {@code pLeak} when it is off (a cluster can hold such objects from before the gate was switched off).
     */
    boolean use(String gate, double pOn, double pLeak) {
        return dice.chance(on(gate) ? pOn : pLeak);
    }

    boolean bindingConditionsOn() {
        return on("DRADeviceBindingConditions") && on("DRAResourceClaimDeviceStatus");
    }

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    static ArrayNode array() {
        return JsonNodeFactory.instance.arrayNode();
    }

    static ArrayNode strings(String... values) {
        ArrayNode a = array();
        for (String v : values) {
            a.add(v);
        }
        return a;
    }

    /** A resource.k8s.io/v1 object with its kind and metadata.name. */
    static ObjectNode apiObject(String kind, String name) {
        ObjectNode o = object();
        o.put("apiVersion", "resource.k8s.io/v1");
        o.put("kind", kind);
        o.putObject("metadata").put("name", name);
        return o;
    }

    /** A NodeSelector with one term: label {@code region} In [region]. */
    static ObjectNode regionSelector(String region) {
        ObjectNode selector = object();
        ObjectNode requirement = selector.putArray("nodeSelectorTerms")
                .addObject()
                .putArray("matchExpressions")
                .addObject();
        requirement.put("key", "region");
        requirement.put("operator", "In");
        requirement.set("values", strings(region));
        return selector;
    }

    /** A NodeSelector with one term: field metadata.name In [node]. */
    static ObjectNode nameSelector(String node) {
        ObjectNode selector = object();
        ObjectNode requirement = selector.putArray("nodeSelectorTerms")
                .addObject()
                .putArray("matchFields")
                .addObject();
        requirement.put("key", "metadata.name");
        requirement.put("operator", "In");
        requirement.set("values", strings(node));
        return selector;
    }
}
