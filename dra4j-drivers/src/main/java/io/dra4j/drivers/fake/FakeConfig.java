package io.dra4j.drivers.fake;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fake driver's devices file: devices in the ResourceSlice device schema (attributes, capacity,
 * consumesCounters, taints, ...) plus, per device, whether it is healthy and extra environment variables a container
 * gets with it; shared counter sets; the device plugin resource name.
 */
public record FakeConfig(
        String driverName, String resourceName, List<FakeDevice> devices, List<CounterSet> counterSets) {
    public FakeConfig {
        devices = List.copyOf(devices);
        counterSets = List.copyOf(counterSets);
    }

    /** A device with its health and container environment. */
    public record FakeDevice(Device device, boolean healthy, Map<String, String> env, List<Long> numaNodes) {
        public FakeDevice {
            env = Map.copyOf(env);
            numaNodes = List.copyOf(numaNodes);
        }

        public String name() {
            return device.getName();
        }
    }

    public Optional<FakeDevice> device(String name) {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst();
    }
}
