package io.dra4j.kubelet.slices;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;

import java.util.List;
import java.util.Set;

/**
 * Device taints from health: an unhealthy device is published with a taint {@code key} (effect NoSchedule keeps
 * new pods away, NoExecute also evicts running ones); the taint goes when the device recovers, since the slices are
 * computed afresh from the current health each time.
 */
public final class HealthTaints {
    private HealthTaints() {
    }

    public static List<Device> apply(List<Device> devices, Set<String> unhealthy, String key, String effect,
                                     String timeAdded) {
        if (!Set.of("NoSchedule", "NoExecute", "None").contains(effect)) {
            throw new IllegalArgumentException("taint effect " + effect + " is not NoSchedule, NoExecute or None");
        }
        return devices.stream().map(d -> unhealthy.contains(d.getName())
                ? new DeviceBuilder(d).addToTaints(new DeviceTaintBuilder().withKey(key).withValue("unhealthy")
                .withEffect(effect).withTimeAdded(timeAdded).build()).build()
                : d).toList();
    }
}
