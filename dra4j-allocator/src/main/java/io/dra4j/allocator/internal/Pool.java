package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * A resource pool as seen from one node: complete, incomplete (being updated) or invalid; for a usable pool the
 * device slices that target the node (in search order), the other slices of the same generation (for counter
 * accounting only) and the pool's counter sets, with the format each counter was written in (for explanations).
 */
record Pool(
        SliceInfo.PoolId id,
        boolean incomplete,
        String invalidReason,
        String incompleteDetail,
        List<SliceInfo> targeting,
        List<SliceInfo> notTargeting,
        Map<String, Map<String, BigDecimal>> counterSets,
        Map<String, Map<String, KubeQuantity.Format>> counterFormats) {

    static Pool incomplete(SliceInfo.PoolId id, String detail) {
        return new Pool(id, true, null, detail, List.of(), List.of(), Map.of(), Map.of());
    }

    static Pool invalid(SliceInfo.PoolId id, String reason) {
        return new Pool(id, false, reason, null, List.of(), List.of(), Map.of(), Map.of());
    }

    boolean invalid() {
        return invalidReason != null;
    }

    boolean usable() {
        return !incomplete && invalidReason == null;
    }

    boolean hasBindingConditions() {
        for (SliceInfo s : targeting) {
            for (DeviceInfo d : s.devices()) {
                if (d.device.getBindingConditions() != null
                        && !d.device.getBindingConditions().isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }
}
