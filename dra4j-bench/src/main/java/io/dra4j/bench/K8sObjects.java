package io.dra4j.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CELDeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePool;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small constructors for the fabric8 {@code resource.k8s.io/v1} objects the workloads are made of. Every object is
 * written out completely (apiVersion, kind, explicit allocation mode and count), because the Go oracle decodes the
 * same objects strictly and without API-server defaulting.
 */
final class K8sObjects {
    static final String API_VERSION = "resource.k8s.io/v1";

    private K8sObjects() {}

    static Node node(String name, Map<String, String> labels) {
        Node node = new Node();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        meta.setLabels(labels.isEmpty() ? null : new LinkedHashMap<>(labels));
        node.setMetadata(meta);
        return node;
    }

    static DeviceClass deviceClass(String name, String celExpression) {
        DeviceClass c = new DeviceClass();
        c.setApiVersion(API_VERSION);
        c.setKind("DeviceClass");
        c.setMetadata(meta(name, null));
        DeviceClassSpec spec = new DeviceClassSpec();
        spec.setSelectors(List.of(cel(celExpression)));
        c.setSpec(spec);
        return c;
    }

    static DeviceSelector cel(String expression) {
        CELDeviceSelector cel = new CELDeviceSelector();
        cel.setExpression(expression);
        DeviceSelector s = new DeviceSelector();
        s.setCel(cel);
        return s;
    }

    /** A slice whose pool is complete with this one slice. */
    static ResourceSlice slice(String name, String driver, String pool, String nodeName, List<Device> devices) {
        return slice(name, driver, pool, 1, nodeName, null, devices, null);
    }

    static ResourceSlice slice(
            String name,
            String driver,
            String pool,
            long sliceCount,
            String nodeName,
            NodeSelector nodeSelector,
            List<Device> devices,
            List<CounterSet> counterSets) {
        ResourceSlice s = new ResourceSlice();
        s.setApiVersion(API_VERSION);
        s.setKind("ResourceSlice");
        s.setMetadata(meta(name, null));
        ResourceSliceSpec spec = new ResourceSliceSpec();
        spec.setDriver(driver);
        ResourcePool p = new ResourcePool();
        p.setName(pool);
        p.setGeneration(1L);
        p.setResourceSliceCount(sliceCount);
        spec.setPool(p);
        spec.setNodeName(nodeName);
        spec.setNodeSelector(nodeSelector);
        spec.setDevices(devices);
        spec.setSharedCounters(counterSets);
        s.setSpec(spec);
        return s;
    }

    static NodeSelector labelSelector(String key, String value) {
        NodeSelectorRequirement req = new NodeSelectorRequirement();
        req.setKey(key);
        req.setOperator("In");
        req.setValues(List.of(value));
        NodeSelectorTerm term = new NodeSelectorTerm();
        term.setMatchExpressions(List.of(req));
        NodeSelector sel = new NodeSelector();
        sel.setNodeSelectorTerms(List.of(term));
        return sel;
    }

    static Device device(String name, Map<String, DeviceAttribute> attributes, Map<String, DeviceCapacity> capacity) {
        Device d = new Device();
        d.setName(name);
        d.setAttributes(attributes.isEmpty() ? null : attributes);
        d.setCapacity(capacity.isEmpty() ? null : capacity);
        return d;
    }

    static DeviceAttribute stringAttr(String value) {
        DeviceAttribute a = new DeviceAttribute();
        a.setString(value);
        return a;
    }

    static DeviceAttribute stringsAttr(List<String> values) {
        DeviceAttribute a = new DeviceAttribute();
        a.setStrings(values);
        return a;
    }

    static DeviceAttribute intAttr(long value) {
        DeviceAttribute a = new DeviceAttribute();
        a.setInt(value);
        return a;
    }

    static DeviceAttribute versionAttr(String value) {
        DeviceAttribute a = new DeviceAttribute();
        a.setVersion(value);
        return a;
    }

    static DeviceCapacity capacity(String value) {
        DeviceCapacity c = new DeviceCapacity();
        c.setValue(new Quantity(value));
        return c;
    }

    static CounterSet counterSet(String name, Map<String, String> counters) {
        CounterSet cs = new CounterSet();
        cs.setName(name);
        cs.setCounters(counters(counters));
        return cs;
    }

    static DeviceCounterConsumption consumes(String counterSet, Map<String, String> counters) {
        DeviceCounterConsumption c = new DeviceCounterConsumption();
        c.setCounterSet(counterSet);
        c.setCounters(counters(counters));
        return c;
    }

    private static Map<String, Counter> counters(Map<String, String> values) {
        Map<String, Counter> out = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            Counter c = new Counter();
            c.setValue(new Quantity(v));
            out.put(k, c);
        });
        return out;
    }

    /** An ExactCount request for {@code count} devices of a class, with optional claim selectors (CEL). */
    static DeviceRequest exactly(String name, String deviceClass, long count, String... selectors) {
        ExactDeviceRequest e = new ExactDeviceRequest();
        e.setDeviceClassName(deviceClass);
        e.setAllocationMode("ExactCount");
        e.setCount(count);
        if (selectors.length > 0) {
            List<DeviceSelector> sel = new ArrayList<>();
            for (String s : selectors) {
                sel.add(cel(s));
            }
            e.setSelectors(sel);
        }
        DeviceRequest r = new DeviceRequest();
        r.setName(name);
        r.setExactly(e);
        return r;
    }

    /** Adds a capacity request (consumable capacity) to an exactly-request. */
    static DeviceRequest withCapacity(DeviceRequest request, Map<String, String> amounts) {
        Map<String, Quantity> q = new LinkedHashMap<>();
        amounts.forEach((k, v) -> q.put(k, new Quantity(v)));
        CapacityRequirements cr = new CapacityRequirements();
        cr.setRequests(q);
        request.getExactly().setCapacity(cr);
        return request;
    }

    static DeviceSubRequest subRequest(String name, String deviceClass, long count) {
        DeviceSubRequest s = new DeviceSubRequest();
        s.setName(name);
        s.setDeviceClassName(deviceClass);
        s.setAllocationMode("ExactCount");
        s.setCount(count);
        return s;
    }

    static DeviceRequest firstAvailable(String name, List<DeviceSubRequest> subRequests) {
        DeviceRequest r = new DeviceRequest();
        r.setName(name);
        r.setFirstAvailable(subRequests);
        return r;
    }

    static DeviceConstraint matchAttribute(String attribute) {
        DeviceConstraint c = new DeviceConstraint();
        c.setMatchAttribute(attribute);
        return c;
    }

    static DeviceConstraint distinctAttribute(String attribute) {
        DeviceConstraint c = new DeviceConstraint();
        c.setDistinctAttribute(attribute);
        return c;
    }

    static ResourceClaim claim(
            String namespace, String name, List<DeviceRequest> requests, List<DeviceConstraint> constraints) {
        ResourceClaim c = new ResourceClaim();
        c.setApiVersion(API_VERSION);
        c.setKind("ResourceClaim");
        c.setMetadata(meta(name, namespace));
        c.getMetadata().setUid("00000000-0000-0000-0000-" + String.format("%012d", Math.abs(name.hashCode())));
        DeviceClaim dc = new DeviceClaim();
        dc.setRequests(requests);
        dc.setConstraints(constraints.isEmpty() ? null : constraints);
        ResourceClaimSpec spec = new ResourceClaimSpec();
        spec.setDevices(dc);
        c.setSpec(spec);
        return c;
    }

    private static ObjectMeta meta(String name, String namespace) {
        ObjectMeta m = new ObjectMeta();
        m.setName(name);
        m.setNamespace(namespace);
        return m;
    }
}
