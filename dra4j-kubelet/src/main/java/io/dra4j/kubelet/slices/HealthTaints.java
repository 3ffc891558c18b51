package io.dra4j.kubelet.slices;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Device taints from health: an unhealthy device is published with a taint {@code key} (effect NoSchedule keeps
 * new pods away, NoExecute also evicts running ones), dated when it turned unhealthy; the taint goes when the device
 * recovers, since the slices are computed afresh from the current health each time. Keep the date stable while the
 * device stays unhealthy: a new date is a changed slice, written again.
 */
public final class HealthTaints {
    private HealthTaints() {}

    /** {@code devices} with a taint added to each device named in {@code unhealthySince}, dated as it says. */
    public static List<Device> apply(
            List<Device> devices, Map<String, Instant> unhealthySince, String key, String effect) {
        if (!Set.of("NoSchedule", "NoExecute", "None").contains(effect)) {
            throw new IllegalArgumentException("taint effect " + effect + " is not NoSchedule, NoExecute or None");
        }
        return devices.stream()
                .map(d -> unhealthySince.containsKey(d.getName())
                        ? new DeviceBuilder(d)
                                .addToTaints(new DeviceTaintBuilder()
                                        .withKey(key)
                                        .withValue("unhealthy")
                                        .withEffect(effect)
                                        .withTimeAdded(unhealthySince
                                                .get(d.getName())
                                                .truncatedTo(ChronoUnit.SECONDS)
                                                .toString())
                                        .build())
                                .build()
                        : d)
                .toList();
    }
}
