package io.dra4j.testkit.diff;

import java.util.HashSet;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Which of upstream's allocator variants a scenario's gates select. Upstream takes the first of stable, incubating
 * and experimental whose features cover the enabled ones; the stable variant covers only admin access, prioritized
 * list, partitionable devices and device taints (binding conditions count only when both of their gates are on).
 */
final class UpstreamVariant {
    private static final Set<String> STABLE =
            Set.of("DRAAdminAccess", "DRAPrioritizedList", "DRAPartitionableDevices", "DRADeviceTaints");

    private UpstreamVariant() {}

    static boolean isStable(JsonNode scenario) {
        Set<String> gates = new HashSet<>();
        scenario.path("features").forEach(f -> gates.add(f.asString("")));
        if (!(gates.contains("DRADeviceBindingConditions") && gates.contains("DRAResourceClaimDeviceStatus"))) {
            gates.remove("DRADeviceBindingConditions");
            gates.remove("DRAResourceClaimDeviceStatus");
        }
        return STABLE.containsAll(gates);
    }
}
