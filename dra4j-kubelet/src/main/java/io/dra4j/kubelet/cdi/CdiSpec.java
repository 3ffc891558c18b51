package io.dra4j.kubelet.cdi;

import java.util.List;

/**
 * A CDI spec ({@code cdiVersion}, {@code kind}, {@code devices[]}, {@code containerEdits}) as a driver writes it
 * for one claim. {@link #minimumVersion()} is the lowest {@code cdiVersion} a loader accepts for the fields used,
 * which is what gets written, so that runtimes with older CDI libraries still load the file.
 */
public record CdiSpec(String vendor, String clazz, List<Device> devices, ContainerEdits containerEdits) {
    public CdiSpec {
        devices = List.copyOf(devices);
        CdiNames.checkVendor(vendor);
        CdiNames.checkClass(clazz);
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("a CDI spec needs at least one device");
        }
        for (Device d : devices) {
            CdiNames.checkDeviceName(d.name());
        }
    }

    /** A named device of the spec with its own edits. */
    public record Device(String name, ContainerEdits containerEdits) {}

    /** {@code vendor/class}. */
    public String kind() {
        return vendor + "/" + clazz;
    }

    /** The fully qualified name of device {@code name} of this spec. */
    public String qualifiedName(String name) {
        return kind() + "=" + name;
    }

    /**
     * The lowest CDI version whose loaders accept this spec: 0.3.0, raised to 0.4.0 by a mount type, to 0.5.0 by a
     * device name not starting with a letter or a device node host path, to 0.6.0 by a dot in the class.
     */
    public String minimumVersion() {
        if (clazz.indexOf('.') >= 0) {
            return "0.6.0";
        }
        boolean v050 = false;
        boolean v040 = false;
        for (Device d : devices) {
            if (!Character.isLetter(d.name().charAt(0))) {
                v050 = true;
            }
        }
        for (ContainerEdits e : allEdits()) {
            for (ContainerEdits.DeviceNode n : e.deviceNodes()) {
                v050 |= n.hostPath() != null && !n.hostPath().isEmpty();
            }
            for (ContainerEdits.Mount m : e.mounts()) {
                v040 |= m.type() != null && !m.type().isEmpty();
            }
        }
        return v050 ? "0.5.0" : v040 ? "0.4.0" : "0.3.0";
    }

    private List<ContainerEdits> allEdits() {
        return java.util.stream.Stream.concat(
                        devices.stream().map(Device::containerEdits), java.util.stream.Stream.of(containerEdits))
                .toList();
    }
}
