package io.dra4j.testkit.gen;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generates the ResourceSlices of a scenario: one to three pools, each published by one or two device slices (plus a
 * counter slice for partitionable pools), with the pool's node selection, generation and slice count. Some pools are
 * made incomplete (a declared slice is missing), outdated (a stale slice of an older generation is still around) or
 * invalid (a device name twice, a counter set that does not exist), since those decide whether a pool may be used.
 */
final class SliceGenerator {
    private enum Placement {
        THIS_NODE,
        OTHER_NODE,
        NODE_SELECTOR,
        ALL_NODES,
        PER_DEVICE
    }

    private final Context ctx;
    private final Dice dice;
    private final ArrayNode slices = Context.array();
    private int sliceNumber;
    /** Whether the pool being generated has the second counter set (cores). */
    private boolean coresCounterSet;

    SliceGenerator(Context ctx) {
        this.ctx = ctx;
        this.dice = ctx.dice;
    }

    ArrayNode generate() {
        int budget = dice.between(4, ScenarioGenerator.MAX_DEVICES);
        int pools = 1 + dice.weighted(45, 40, 15);
        for (int p = 0; p < pools && budget > 0; p++) {
            String driver = p == 0 ? ctx.drivers.get(0) : dice.pick(ctx.drivers);
            budget -= pool(driver, "pool-" + (p + 1), budget, pools);
        }
        if (slices.size() > 0 && dice.chance(0.03)) {
            // The same slice twice: upstream must notice the duplicate device names.
            slices.add(slices.get(dice.between(0, slices.size() - 1)).deepCopy());
        }
        return slices;
    }

    /** Adds the slices of one pool; returns how many devices it got. */
    private int pool(String driver, String pool, int budget, int pools) {
        Placement placement = placement();
        boolean partitionable = ctx.use("DRAPartitionableDevices", 0.4, 0.08) || placement == Placement.PER_DEVICE;
        int deviceSlices = 1 + dice.weighted(75, 25);
        long generation = dice.chance(0.15) ? 2 : 1;
        long sliceCount = deviceSlices + (partitionable ? 1 : 0);
        boolean incomplete = dice.chance(0.05);
        long declaredCount = incomplete ? sliceCount + 1 : sliceCount;
        boolean duplicateName = dice.chance(0.04);
        coresCounterSet = partitionable && dice.chance(0.3);
        String node = placement == Placement.OTHER_NODE ? dice.pick(Context.OTHER_NODES) : Context.NODE;
        ObjectNode selector = dice.chance(0.6)
                ? Context.regionSelector(dice.chance(0.75) ? "region-1" : "region-2")
                : Context.nameSelector(dice.chance(0.75) ? Context.NODE : "node-2");

        int perSlice = Math.max(1, Math.min(budget / Math.max(1, pools - 1 + deviceSlices), 4));
        int made = 0;
        int deviceNumber = 0;
        for (int s = 0; s < deviceSlices && made < budget; s++) {
            ObjectNode spec = sliceSpec(driver, pool, generation, declaredCount, placement, node, selector);
            ArrayNode devices = spec.putArray("devices");
            int count = dice.between(1, Math.min(perSlice, budget - made));
            for (int d = 0; d < count; d++) {
                boolean reuseName = duplicateName && s > 0 && d == 0;
                String name = "device-" + (reuseName ? 0 : deviceNumber++);
                devices.add(device(driver, pool, name, partitionable, placement));
                made++;
            }
        }
        if (partitionable) {
            ObjectNode spec = sliceSpec(driver, pool, generation, declaredCount, placement, node, selector);
            spec.set("sharedCounters", counterSets());
        }
        if (generation == 2 && dice.chance(0.4)) {
            // A stale slice of the previous generation; it must be ignored.
            ObjectNode spec = sliceSpec(driver, pool, 1, 1, placement, node, selector);
            spec.putArray("devices").add(device(driver, pool, "device-stale", false, Placement.THIS_NODE));
        }
        return made;
    }

    private Placement placement() {
        if (ctx.use("DRAPartitionableDevices", 0.12, 0.02)) {
            return Placement.PER_DEVICE;
        }
        return switch (dice.weighted(60, 10, 15, 15)) {
            case 0 -> Placement.THIS_NODE;
            case 1 -> Placement.OTHER_NODE;
            case 2 -> Placement.NODE_SELECTOR;
            default -> Placement.ALL_NODES;
        };
    }

    private ObjectNode sliceSpec(
            String driver,
            String pool,
            long generation,
            long sliceCount,
            Placement placement,
            String node,
            ObjectNode selector) {
        ObjectNode slice = Context.apiObject("ResourceSlice", "slice-" + (++sliceNumber));
        slices.add(slice);
        ObjectNode spec = slice.putObject("spec");
        spec.put("driver", driver);
        ObjectNode poolNode = spec.putObject("pool");
        poolNode.put("name", pool);
        poolNode.put("generation", generation);
        poolNode.put("resourceSliceCount", sliceCount);
        switch (placement) {
            case THIS_NODE, OTHER_NODE -> spec.put("nodeName", node);
            case NODE_SELECTOR -> spec.set("nodeSelector", selector.deepCopy());
            case ALL_NODES -> spec.put("allNodes", true);
            case PER_DEVICE -> spec.put("perDeviceNodeSelection", true);
        }
        return spec;
    }

    private ArrayNode counterSets() {
        ArrayNode sets = Context.array();
        ObjectNode memory = sets.addObject();
        memory.put("name", "counter-set-1");
        memory.putObject("counters").putObject("memory").put("value", dice.pick("4Gi", "6Gi", "8Gi"));
        if (coresCounterSet) {
            ObjectNode cores = sets.addObject();
            cores.put("name", "counter-set-2");
            cores.putObject("counters").putObject("cores").put("value", dice.pick("4", "8"));
        }
        return sets;
    }

    private ObjectNode device(String driver, String pool, String name, boolean partitionable, Placement placement) {
        ObjectNode device = Context.object();
        device.put("name", name);
        ObjectNode attributes = attributes(name);
        if (!attributes.isEmpty()) {
            device.set("attributes", attributes);
        }
        boolean multi = ctx.use("DRAConsumableCapacity", 0.3, 0.02);
        Map<String, String> capacity = new LinkedHashMap<>();
        ObjectNode capacityNode = capacity(multi, capacity);
        if (!capacityNode.isEmpty()) {
            device.set("capacity", capacityNode);
        }
        if (partitionable && dice.chance(0.85)) {
            device.set("consumesCounters", counterConsumption());
        }
        if (placement == Placement.PER_DEVICE) {
            switch (dice.weighted(55, 15, 15, 15)) {
                case 0 -> device.put("nodeName", Context.NODE);
                case 1 -> device.put("nodeName", dice.pick(Context.OTHER_NODES));
                case 2 -> device.put("allNodes", true);
                default -> device.set("nodeSelector", Context.regionSelector(dice.pick("region-1", "region-2")));
            }
        }
        if (ctx.use("DRADeviceTaints", 0.25, 0.03)) {
            device.set("taints", taints());
        }
        if (ctx.use("DRADeviceBindingConditions", 0.25, 0.02)) {
            device.put("bindsToNode", true);
            device.set("bindingConditions", Context.strings("ready"));
            if (dice.chance(0.7)) {
                device.set("bindingFailureConditions", Context.strings("failed"));
            }
        } else if (ctx.use("DRADeviceBindingConditions", 0.1, 0.02)) {
            device.put("bindsToNode", true);
        }
        if (multi) {
            device.put("allowMultipleAllocations", true);
        }
        ctx.devices.add(new Context.DeviceRef(driver, pool, name, multi, capacity));
        return device;
    }

    private ObjectNode attributes(String deviceName) {
        ObjectNode a = Context.object();
        if (dice.chance(0.8)) {
            if (dice.chance(0.03)) {
                a.putObject("model").put("int", 1);
            } else {
                a.putObject("model").put("string", dice.pick("a", "b", "c"));
            }
        }
        if (dice.chance(0.75)) {
            a.putObject("index").put("int", dice.between(0, 3));
        }
        if (dice.chance(0.6)) {
            a.putObject("healthy").put("bool", dice.chance(0.75));
        }
        if (dice.chance(0.6)) {
            a.putObject("fw").put("version", dice.pick("1.0.0", "1.2.0", "2.0.0", "2.0.0-rc.1", "1.0.0+build.2"));
        }
        if (dice.chance(0.15)) {
            a.putObject("dra.example.com/family").put("string", dice.pick("f1", "f2"));
        }
        if (ctx.use("DRAListTypeAttributes", 0.4, 0.04)) {
            List<String> all = List.of("x", "y", "z");
            ArrayNode links = a.putObject("links").putArray("strings");
            int from = dice.between(0, 2);
            int to = dice.between(from, 2);
            for (int i = from; i <= to; i++) {
                links.add(all.get(i));
            }
            if (dice.chance(0.3)) {
                // The device's name: a value few other devices carry (the kubernetes#140783 shape).
                links.add(deviceName);
            }
        }
        if (ctx.use("DRAListTypeAttributes", 0.2, 0.02)) {
            ArrayNode ports = a.putObject("ports").putArray("ints");
            ports.add(dice.between(0, 2));
            if (dice.chance(0.5)) {
                ports.add(dice.between(3, 4));
            }
        }
        return a;
    }

    private ObjectNode capacity(boolean multi, Map<String, String> names) {
        ObjectNode c = Context.object();
        if (dice.chance(0.6)) {
            String memory = dice.pick("1Gi", "2Gi", "4Gi", "8Gi");
            c.putObject("memory").put("value", memory);
            names.put("memory", memory);
        }
        if (dice.chance(0.3)) {
            String cores = dice.pick("2", "4", "8");
            c.putObject("cores").put("value", cores);
            names.put("cores", cores);
        }
        if (multi && dice.chance(0.85)) {
            String value = dice.pick("8", "10");
            ObjectNode bandwidth = c.putObject("bandwidth");
            bandwidth.put("value", value);
            names.put("bandwidth", value);
            switch (dice.weighted(25, 20, 20, 15, 20)) {
                case 0 -> {}
                case 1 -> bandwidth.putObject("requestPolicy").put("default", dice.pick("1", "2"));
                case 2 -> {
                    ObjectNode policy = bandwidth.putObject("requestPolicy");
                    policy.put("default", "2");
                    ObjectNode range = policy.putObject("validRange");
                    range.put("min", "1");
                    range.put("max", "8");
                    range.put("step", "1");
                }
                case 3 -> {
                    ObjectNode policy = bandwidth.putObject("requestPolicy");
                    policy.put("default", "2");
                    policy.putObject("validRange").put("min", dice.pick("1", "2"));
                }
                default -> {
                    ObjectNode policy = bandwidth.putObject("requestPolicy");
                    policy.put("default", "1");
                    policy.set("validValues", Context.strings("1", "2", "4"));
                }
            }
        }
        return c;
    }

    private ArrayNode counterConsumption() {
        ArrayNode consumption = Context.array();
        ObjectNode memory = consumption.addObject();
        memory.put("counterSet", dice.chance(0.04) ? "counter-set-missing" : "counter-set-1");
        memory.putObject("counters").putObject("memory").put("value", dice.pick("1Gi", "2Gi", "4Gi"));
        if (coresCounterSet && dice.chance(0.4)) {
            ObjectNode cores = consumption.addObject();
            cores.put("counterSet", "counter-set-2");
            cores.putObject("counters").putObject("cores").put("value", dice.pick("2", "4"));
        }
        return consumption;
    }

    private ArrayNode taints() {
        ArrayNode taints = Context.array();
        int n = 1 + dice.weighted(75, 25);
        for (int i = 0; i < n; i++) {
            ObjectNode taint = taints.addObject();
            taint.put("key", dice.pick("key1", "key2"));
            if (dice.chance(0.6)) {
                taint.put("value", dice.pick("value1", "value2"));
            }
            taint.put("effect", dice.pick("NoSchedule", "NoExecute"));
        }
        return taints;
    }
}
