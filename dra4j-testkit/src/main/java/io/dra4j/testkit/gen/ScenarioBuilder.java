package io.dra4j.testkit.gen;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Puts one scenario together: feature gates first (they decide which fields are likely), then the device classes,
 * the slices, the devices already in use and finally the claims, which refer to what exists.
 */
final class ScenarioBuilder {
    /** The gates the generator varies; every other DRA gate stays off. */
    static final List<String> GATES = List.of(
            "DRAAdminAccess",
            "DRAPrioritizedList",
            "DRADeviceTaints",
            "DRAPartitionableDevices",
            "DRAConsumableCapacity",
            "DRAListTypeAttributes",
            "DRADeviceBindingConditions",
            "DRAResourceClaimDeviceStatus");
    /** Gates switched on after the rest of the scenario is rolled ({@link #taintAdditions}). */
    static final List<String> LATE_GATES = List.of("DRADeviceTaintRules");

    private final Dice dice;
    private final String name;
    private final String source;

    ScenarioBuilder(Dice dice, String name, String source) {
        this.dice = dice;
        this.name = name;
        this.source = source;
    }

    ObjectNode build() {
        Set<String> gates = gates();
        List<String> drivers = dice.chance(0.7) ? List.of("driver-a") : List.of("driver-a", "driver-b");
        Context ctx = new Context(dice, gates, drivers);

        ObjectNode scenario = Context.object();
        scenario.put("name", name);
        scenario.put("source", source);
        ArrayNode features = scenario.putArray("features");
        gates.forEach(features::add);
        scenario.put("confidence", "medium");
        ObjectNode node = scenario.putObject("node");
        node.put("name", Context.NODE);
        ObjectNode labels = node.putObject("labels");
        labels.put("region", Context.REGION_OF.get(Context.NODE));
        labels.put("planet", "earth");

        List<String> classNames = new ArrayList<>();
        scenario.set("deviceClasses", classes(ctx, classNames));
        scenario.set("resourceSlices", new SliceGenerator(ctx).generate());
        scenario.set("allocatedDevices", new AllocatedGenerator(ctx).generate());
        scenario.set("claims", new ClaimGenerator(ctx, classNames).generate());
        taintAdditions(scenario, features);
        new BulkClaimGenerator(dice).maybeAdd(scenario, gates.contains("DRAPrioritizedList"));
        scenario.putObject("expect").put("unschedulable", true);
        scenario.put("notes", "Generated; expect is a placeholder, the difftest compares engines with each other.");
        return scenario;
    }

    /**
     * DeviceTaintRules (with and without a selector, every selector field), the DRADeviceTaintRules gate and taint
     * effect None. Rolled after everything else, so that the rest of each seed's scenarios stays as it was.
     */
    private void taintAdditions(ObjectNode scenario, ArrayNode features) {
        List<ObjectNode> devices = new ArrayList<>();
        List<String[]> names = new ArrayList<>();
        for (var slice : scenario.path("resourceSlices")) {
            var spec = slice.path("spec");
            for (var device : spec.path("devices")) {
                devices.add((ObjectNode) device);
                names.add(new String[] {
                    spec.path("driver").asString(""),
                    spec.path("pool").path("name").asString(""),
                    device.path("name").asString("")
                });
            }
        }
        if (dice.chance(0.15)) {
            for (ObjectNode device : devices) {
                for (var taint : device.path("taints")) {
                    if (dice.chance(0.4)) {
                        ((ObjectNode) taint).put("effect", "None");
                    }
                }
            }
        }
        if (dice.chance(0.3)) {
            features.add(LATE_GATES.get(0));
        }
        if (names.isEmpty() || !dice.chance(0.3)) {
            return;
        }
        ArrayNode rules = scenario.putArray("deviceTaintRules");
        int count = 1 + dice.weighted(70, 30);
        for (int i = 0; i < count; i++) {
            ObjectNode rule = Context.apiObject("DeviceTaintRule", "rule-" + i);
            ObjectNode spec = rule.putObject("spec");
            ObjectNode taint = spec.putObject("taint");
            taint.put("key", dice.pick("key1", "key3"));
            if (dice.chance(0.5)) {
                taint.put("value", dice.pick("value1", "value2"));
            }
            taint.put("effect", dice.pick("NoSchedule", "NoExecute", "None"));
            if (!dice.chance(0.2)) {
                ObjectNode selector = spec.putObject("deviceSelector");
                String[] target = dice.pick(names);
                String[] fields = {"driver", "pool", "device"};
                for (int f = 0; f < fields.length; f++) {
                    if (dice.chance(0.5)) {
                        selector.put(fields[f], dice.chance(0.9) ? target[f] : "no-such-" + fields[f]);
                    }
                }
            }
            rules.add(rule);
        }
    }

    private Set<String> gates() {
        Set<String> on = new LinkedHashSet<>();
        for (String gate : GATES) {
            if (dice.chance(0.55)) {
                on.add(gate);
            }
        }
        // Binding conditions need both gates; mostly keep them together.
        if (dice.chance(0.7)) {
            if (on.contains("DRADeviceBindingConditions") || on.contains("DRAResourceClaimDeviceStatus")) {
                on.add("DRADeviceBindingConditions");
                on.add("DRAResourceClaimDeviceStatus");
            }
        }
        // Without either of these, upstream runs its "stable" variant, whose pool order is Go map order and so not
        // reproducible; keep that variant rare.
        boolean bindingAndStatus =
                on.contains("DRADeviceBindingConditions") && on.contains("DRAResourceClaimDeviceStatus");
        if (!on.contains("DRAConsumableCapacity") && !bindingAndStatus && dice.chance(0.85)) {
            on.add("DRAConsumableCapacity");
        }
        // Listed in the fixed order of GATES, whatever order they were switched on in.
        Set<String> ordered = new LinkedHashSet<>(GATES);
        ordered.retainAll(on);
        return ordered;
    }

    /** Per-driver classes, a class without selectors, sometimes a class for shareable devices and class config. */
    private ArrayNode classes(Context ctx, List<String> names) {
        ArrayNode classes = Context.array();
        for (String driver : ctx.drivers) {
            String className = "class-" + driver.substring(driver.length() - 1);
            ObjectNode c = deviceClass(classes, names, className);
            selector(c, "device.driver == \"" + driver + "\"");
            if (dice.chance(0.15)) {
                ObjectNode config =
                        ((ObjectNode) c.get("spec")).putArray("config").addObject();
                ClaimGenerator.opaque(config, driver, "class");
            }
        }
        if (dice.chance(0.4)) {
            deviceClass(classes, names, "class-any");
        }
        if (dice.chance(0.25)) {
            ObjectNode c = deviceClass(classes, names, "class-big");
            selector(c, "device.driver == \"driver-a\"");
            selector(
                    c,
                    "has(device.capacity[\"driver-a\"].memory) && "
                            + "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"4Gi\")) >= 0");
        }
        if (ctx.use("DRAConsumableCapacity", 0.4, 0.05)) {
            ObjectNode c = deviceClass(classes, names, "class-shared");
            selector(c, "device.allowMultipleAllocations == true");
        }
        return classes;
    }

    private static ObjectNode deviceClass(ArrayNode classes, List<String> names, String name) {
        ObjectNode c = Context.apiObject("DeviceClass", name);
        c.putObject("spec");
        classes.add(c);
        names.add(name);
        return c;
    }

    private static void selector(ObjectNode deviceClass, String expression) {
        ObjectNode spec = (ObjectNode) deviceClass.get("spec");
        ArrayNode selectors = spec.has("selectors") ? (ArrayNode) spec.get("selectors") : spec.putArray("selectors");
        selectors.addObject().putObject("cel").put("expression", expression);
    }
}
