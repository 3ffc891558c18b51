package io.dra4j.scenario;

import io.dra4j.allocator.DeviceId;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** One entry of a scenario's {@code allocatedDevices}: state left behind by earlier allocations. */
public sealed interface AllocatedDevice {

    /** {@code {driver, pool, device}}: the device is exclusively in use. */
    record Exclusive(DeviceId device) implements AllocatedDevice {
        public Exclusive {
            Objects.requireNonNull(device, "device");
        }
    }

    /**
     * {@code {driver, pool, device, shared: true, consumedCapacity}}: a share of a device that allows multiple
     * allocations, consuming the given capacity.
     *
     * @param shareId the share's ID when the file gives one ({@code shareID}); empty otherwise
     */
    record Shared(DeviceId device, Optional<String> shareId, Map<String, KubeQuantity> consumedCapacity)
            implements AllocatedDevice {
        public Shared {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(shareId, "shareId");
            consumedCapacity = Map.copyOf(consumedCapacity);
        }
    }

    /** A whole ResourceClaim with {@code status.allocation}; its admin-access results do not make a device busy. */
    record Claim(ResourceClaim claim) implements AllocatedDevice {
        public Claim {
            Objects.requireNonNull(claim, "claim");
        }
    }
}
