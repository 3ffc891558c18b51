package io.dra4j.kubelet.probe;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds physical devices that a device plugin and a DRA driver both advertise on one node: the kubelet then admits
 * pods for the device plugin's extended resource while the scheduler also allocates the same device through DRA
 * (vendors forbid running both; KEP-5004's extended-resource mapping is the fix). A device plugin's device ID (a
 * time-sliced replica's {@code <id>::<n>} counted as {@code <id>}) names the same device as a DRA device when it
 * equals the DRA device's {@code uuid} or {@code resource.kubernetes.io/pciBusID} attribute (identifiers unique per
 * machine), or its name when the plugin's resource domain is the driver name or a DNS suffix of it (one vendor:
 * {@code nvidia.com/gpu} and {@code gpu.nvidia.com}).
 */
final class DoubleAdvertising {
    private DoubleAdvertising() {}

    /** One device advertised twice, with the reason the two are taken for one. */
    record Overlap(String resourceName, String deviceId, String driver, String pool, String device, String why) {
        @Override
        public String toString() {
            return resourceName + " device " + deviceId + " is " + driver + " " + pool + "/" + device + " (" + why
                    + ")";
        }
    }

    /** The overlaps between {@code advertised} (device IDs by resource name) and the DRA devices of {@code node}. */
    static List<Overlap> find(Map<String, List<String>> advertised, List<ResourceSlice> slices, String node) {
        List<Overlap> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> plugin : advertised.entrySet()) {
            String resource = plugin.getKey();
            String domain = resource.contains("/") ? resource.substring(0, resource.indexOf('/')) : "";
            for (String rawId : plugin.getValue()) {
                String id = rawId.contains("::") ? rawId.substring(0, rawId.indexOf("::")) : rawId;
                for (ResourceSlice s : slices) {
                    if (s.getSpec() == null
                            || s.getSpec().getDevices() == null
                            || (node != null && !node.equals(s.getSpec().getNodeName()))) {
                        continue;
                    }
                    String driver = s.getSpec().getDriver();
                    for (Device d : s.getSpec().getDevices()) {
                        String why = sameDevice(id, domain, driver, d);
                        if (why != null) {
                            out.add(new Overlap(
                                    resource,
                                    rawId,
                                    driver,
                                    s.getSpec().getPool().getName(),
                                    d.getName(),
                                    why));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static String sameDevice(String id, String domain, String driver, Device d) {
        if (d.getAttributes() != null) {
            for (Map.Entry<String, DeviceAttribute> a : d.getAttributes().entrySet()) {
                String name = a.getKey().contains("/")
                        ? a.getKey().substring(a.getKey().indexOf('/') + 1)
                        : a.getKey();
                boolean identifying = name.equals("uuid") || a.getKey().equals("resource.kubernetes.io/pciBusID");
                if (identifying && id.equals(a.getValue().getString())) {
                    return "same " + a.getKey();
                }
            }
        }
        boolean sameVendor = !domain.isEmpty() && (driver.equals(domain) || driver.endsWith("." + domain));
        return sameVendor && id.equals(d.getName()) ? "same name, and " + domain + " is the domain of " + driver : null;
    }
}
