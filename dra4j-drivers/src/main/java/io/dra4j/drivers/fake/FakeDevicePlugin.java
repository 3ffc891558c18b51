package io.dra4j.drivers.fake;

import io.dra4j.kubelet.cdi.CdiSpec;
import io.dra4j.kubelet.cdi.CdiSpecFiles;
import io.dra4j.kubelet.cdi.ContainerEdits;
import io.dra4j.kubelet.deviceplugin.ContainerAllocation;
import io.dra4j.kubelet.deviceplugin.DevicePlugin;
import io.dra4j.kubelet.deviceplugin.PluginDevice;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fake devices as a device plugin: one static CDI spec ({@code k8s.device-plugin.<driver>/device}) with a CDI
 * device per fake device, Allocate answering with those CDI names and environment variables, devices grouped for
 * preferred allocations by their {@code interconnectDomain} string attribute.
 */
public final class FakeDevicePlugin implements DevicePlugin {
    private final AtomicReference<FakeConfig> config;

    public FakeDevicePlugin(FakeConfig config) {
        this.config = new AtomicReference<>(config);
    }

    public void update(FakeConfig next) {
        config.set(next);
    }

    @Override
    public String resourceName() {
        return config.get().resourceName();
    }

    public String cdiVendor() {
        return "k8s.device-plugin." + config.get().driverName();
    }

    /** Writes the static CDI spec of all fake devices. */
    public void writeCdiSpec(CdiSpecFiles files) throws IOException {
        List<CdiSpec.Device> devices = new ArrayList<>();
        for (FakeConfig.FakeDevice d : config.get().devices()) {
            List<String> env = new ArrayList<>(List.of(envName(d.name()) + "=" + d.name()));
            d.env().forEach((k, v) -> env.add(k + "=" + v));
            devices.add(new CdiSpec.Device(d.name(), ContainerEdits.env(env)));
        }
        if (!devices.isEmpty()) {
            files.write(new CdiSpec(cdiVendor(), "device", devices, ContainerEdits.NONE), "static");
        }
    }

    public List<PluginDevice> devices() {
        List<PluginDevice> out = new ArrayList<>();
        for (FakeConfig.FakeDevice d : config.get().devices()) {
            DeviceAttribute domain = d.device().getAttributes().get("interconnectDomain");
            out.add(new PluginDevice(d.name(), d.healthy(), d.numaNodes(), domain == null ? null : domain.getString()));
        }
        return out;
    }

    @Override
    public ContainerAllocation allocate(List<String> deviceIds) {
        Map<String, String> env = new LinkedHashMap<>();
        List<String> cdi = new ArrayList<>();
        for (String id : deviceIds) {
            FakeConfig.FakeDevice d =
                    config.get().device(id).orElseThrow(() -> new IllegalArgumentException("unknown device " + id));
            if (!d.healthy()) {
                throw new IllegalArgumentException("device " + id + " is unhealthy");
            }
            env.put(envName(id), id);
            cdi.add(cdiVendor() + "/device=" + id);
        }
        return new ContainerAllocation(env, List.of(), List.of(), Map.of(), cdi);
    }

    private static String envName(String device) {
        return "DRA4J_FAKE_DEVICE_" + device.toUpperCase(Locale.ROOT).replace('-', '_');
    }
}
