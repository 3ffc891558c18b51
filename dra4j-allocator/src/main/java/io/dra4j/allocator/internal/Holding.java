package io.dra4j.allocator.internal;

import io.dra4j.allocator.DeviceId;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One way an earlier allocation holds a device: exclusively (with the claim that holds it, where known), as one
 * share of a device that allows multiple allocations, or as capacity that shares consume.
 */
public record Holding(DeviceId device, Kind kind, String owner, String shareId, Map<String, KubeQuantity> consumed) {

    public enum Kind {
        EXCLUSIVE,
        SHARE,
        CAPACITY
    }

    public Holding {
        consumed = consumed == null ? null : Map.copyOf(consumed);
    }

    /**
     * What a claim with {@code status.allocation} holds, the way kube-scheduler counts it: admin-access results hold
     * nothing; with DRAConsumableCapacity on, a result with a shareID (whatever its value, as upstream's
     * foreachAllocatedDevice) is a share plus the capacity it consumed;
     * everything else is exclusive.
     */
    public static List<Holding> ofClaim(ResourceClaim claim, boolean consumableCapacity) {
        if (claim.getStatus() == null
                || claim.getStatus().getAllocation() == null
                || claim.getStatus().getAllocation().getDevices() == null
                || claim.getStatus().getAllocation().getDevices().getResults() == null) {
            return List.of();
        }
        String owner = claimKey(claim);
        List<Holding> out = new ArrayList<>();
        for (DeviceRequestAllocationResult r :
                claim.getStatus().getAllocation().getDevices().getResults()) {
            if (Boolean.TRUE.equals(r.getAdminAccess())) {
                continue;
            }
            DeviceId id = new DeviceId(r.getDriver(), r.getPool(), r.getDevice());
            if (consumableCapacity && r.getShareID() != null) {
                out.add(new Holding(id, Kind.SHARE, owner, r.getShareID(), null));
                if (r.getConsumedCapacity() != null) {
                    out.add(new Holding(
                            id, Kind.CAPACITY, owner, r.getShareID(), toQuantities(r.getConsumedCapacity())));
                }
            } else {
                out.add(new Holding(id, Kind.EXCLUSIVE, owner, null, null));
            }
        }
        return List.copyOf(out);
    }

    /** {@code namespace/name}, or the name alone without a namespace. */
    public static String claimKey(ResourceClaim claim) {
        if (claim.getMetadata() == null) {
            return "";
        }
        String ns = claim.getMetadata().getNamespace();
        String name =
                claim.getMetadata().getName() == null ? "" : claim.getMetadata().getName();
        return ns == null || ns.isEmpty() ? name : ns + "/" + name;
    }

    private static Map<String, KubeQuantity> toQuantities(Map<String, Quantity> in) {
        Map<String, KubeQuantity> out = new LinkedHashMap<>();
        in.forEach((k, v) -> out.put(k, KubeQuantity.fromFabric8(v)));
        return out;
    }
}
