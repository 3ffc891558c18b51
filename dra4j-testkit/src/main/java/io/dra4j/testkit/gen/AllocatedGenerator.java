package io.dra4j.testkit.gen;

import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generates {@code allocatedDevices}, the state earlier allocations left, in all three shapes of the format: a device
 * reference (exclusively in use), a shared device reference with consumed capacity, and a whole allocated claim
 * whose results may carry admin access or a share. About a third of the scenarios start with a partly used cluster.
 */
final class AllocatedGenerator {
    private final Context ctx;
    private final Dice dice;
    private int claimNumber;

    AllocatedGenerator(Context ctx) {
        this.ctx = ctx;
        this.dice = ctx.dice;
    }

    ArrayNode generate() {
        ArrayNode entries = Context.array();
        if (ctx.devices.isEmpty() || !dice.chance(0.35)) {
            return entries;
        }
        int n = 1 + dice.weighted(50, 30, 20);
        for (int i = 0; i < n; i++) {
            Context.DeviceRef device = dice.pick(ctx.devices);
            switch (dice.weighted(45, 20, 35)) {
                case 0 -> reference(entries.addObject(), device);
                case 1 -> {
                    ObjectNode entry = entries.addObject();
                    reference(entry, device);
                    entry.put("shared", true);
                    entry.set("consumedCapacity", consumed(device));
                }
                default -> entries.add(claim(device));
            }
        }
        return entries;
    }

    private static void reference(ObjectNode entry, Context.DeviceRef device) {
        entry.put("driver", device.driver());
        entry.put("pool", device.pool());
        entry.put("device", device.name());
    }

    private ObjectNode consumed(Context.DeviceRef device) {
        ObjectNode consumed = Context.object();
        for (Map.Entry<String, String> capacity : device.capacity().entrySet()) {
            if (capacity.getKey().equals("bandwidth")) {
                consumed.put("bandwidth", dice.pick("1", "2", "4", capacity.getValue()));
            } else if (dice.chance(0.3)) {
                consumed.put(capacity.getKey(), capacity.getValue());
            }
        }
        if (consumed.isEmpty()) {
            consumed.put("bandwidth", "1");
        }
        return consumed;
    }

    private ObjectNode claim(Context.DeviceRef device) {
        ObjectNode claim = Context.apiObject("ResourceClaim", "allocated-" + (claimNumber++));
        ObjectNode exactly = claim.putObject("spec")
                .putObject("devices")
                .putArray("requests")
                .addObject()
                .put("name", "req-0")
                .putObject("exactly");
        exactly.put("deviceClassName", "class-a");
        exactly.put("allocationMode", "ExactCount");
        exactly.put("count", 1);
        ObjectNode allocation = claim.putObject("status").putObject("allocation");
        ObjectNode result = allocation.putObject("devices").putArray("results").addObject();
        result.put("request", "req-0");
        reference(result, device);
        if (dice.chance(0.2)) {
            result.put("adminAccess", true);
        } else if (device.multi() && dice.chance(0.8)) {
            result.put("shareID", "00000000-0000-4000-8000-00000000000" + claimNumber % 10);
            result.set("consumedCapacity", consumed(device));
        }
        allocation.set("nodeSelector", Context.nameSelector(Context.NODE));
        return claim;
    }
}
