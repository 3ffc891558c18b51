package io.dra4j.cel;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds fabric8 devices for CEL tests. */
final class TestDevices {

    private final Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
    private final Map<String, DeviceCapacity> capacity = new LinkedHashMap<>();
    private Boolean allowMultipleAllocations;

    static TestDevices device() {
        return new TestDevices();
    }

    TestDevices intAttr(String name, long value) {
        DeviceAttribute a = new DeviceAttribute();
        a.setInt(value);
        attributes.put(name, a);
        return this;
    }

    TestDevices boolAttr(String name, boolean value) {
        DeviceAttribute a = new DeviceAttribute();
        a.setBool(value);
        attributes.put(name, a);
        return this;
    }

    TestDevices stringAttr(String name, String value) {
        DeviceAttribute a = new DeviceAttribute();
        a.setString(value);
        attributes.put(name, a);
        return this;
    }

    TestDevices versionAttr(String name, String value) {
        DeviceAttribute a = new DeviceAttribute();
        a.setVersion(value);
        attributes.put(name, a);
        return this;
    }

    TestDevices intsAttr(String name, Long... values) {
        DeviceAttribute a = new DeviceAttribute();
        a.setInts(List.of(values));
        attributes.put(name, a);
        return this;
    }

    TestDevices boolsAttr(String name, Boolean... values) {
        DeviceAttribute a = new DeviceAttribute();
        a.setBools(List.of(values));
        attributes.put(name, a);
        return this;
    }

    TestDevices stringsAttr(String name, String... values) {
        DeviceAttribute a = new DeviceAttribute();
        a.setStrings(List.of(values));
        attributes.put(name, a);
        return this;
    }

    TestDevices versionsAttr(String name, String... values) {
        DeviceAttribute a = new DeviceAttribute();
        a.setVersions(List.of(values));
        attributes.put(name, a);
        return this;
    }

    TestDevices emptyAttr(String name) {
        attributes.put(name, new DeviceAttribute());
        return this;
    }

    TestDevices capacity(String name, String quantity) {
        DeviceCapacity c = new DeviceCapacity();
        c.setValue(new Quantity(quantity));
        capacity.put(name, c);
        return this;
    }

    TestDevices allowMultipleAllocations(boolean value) {
        allowMultipleAllocations = value;
        return this;
    }

    Device build() {
        Device d = new Device();
        d.setName("device-1");
        d.setAttributes(new LinkedHashMap<>(attributes));
        d.setCapacity(new LinkedHashMap<>(capacity));
        d.setAllowMultipleAllocations(allowMultipleAllocations);
        return d;
    }
}
