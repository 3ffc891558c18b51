package io.dra4j.allocator.properties;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.DeviceId;
import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CELDeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
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
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The fabric8 objects of one generated {@link Spec.Scenario}. Built afresh on every call, so two builds of one
 * scenario are equal but share no objects.
 *
 * @param devices every device of every device slice, in slice order, with the slice that publishes it
 */
record Inputs(
        FeatureGates gates,
        Node node,
        List<DeviceClass> classes,
        List<ResourceSlice> slices,
        List<DeviceTaintRule> taintRules,
        List<ResourceClaim> claims,
        AllocatedState state,
        List<PublishedDevice> devices) {

    /** A device together with the slice that publishes it. */
    record PublishedDevice(DeviceId id, Device device, ResourceSlice slice) {}

    static Inputs of(Spec.Scenario s) {
        FeatureGates gates = Menus.gates(s.gates());
        boolean consumable = gates.isEnabled(DraFeature.DRAConsumableCapacity);
        Node node = new NodeBuilder()
                .withNewMetadata()
                .withName(Menus.NODE)
                .endMetadata()
                .build();

        List<DeviceClass> classes = new ArrayList<>();
        for (Menus.DeviceClassSpec c : Menus.CLASSES) {
            DeviceClass dc = new DeviceClass();
            dc.setMetadata(meta(c.name(), null));
            DeviceClassSpec spec = new DeviceClassSpec();
            spec.setSelectors(selectors(c.selectors()));
            dc.setSpec(spec);
            classes.add(dc);
        }

        // Device slices first (pool sizes decide resourceSliceCount), then one counter slice per pool that has a
        // counter set and at least one device slice.
        List<Spec.Slice> specSlices = s.cluster().slices();
        int[] slicesPerPool = new int[s.cluster().pools().size()];
        for (Spec.Slice sl : specSlices) {
            slicesPerPool[sl.pool()]++;
        }
        for (int p = 0; p < slicesPerPool.length; p++) {
            if (slicesPerPool[p] > 0 && s.cluster().pools().get(p).counterSet() > 0) {
                slicesPerPool[p]++;
            }
        }
        List<ResourceSlice> slices = new ArrayList<>();
        List<PublishedDevice> devices = new ArrayList<>();
        int deviceNumber = 0;
        for (int i = 0; i < specSlices.size(); i++) {
            Spec.Slice sl = specSlices.get(i);
            Spec.PoolSpec pool = s.cluster().pools().get(sl.pool());
            ResourceSlice slice =
                    slice("slice-" + i, sl.pool(), sl.placement(), slicesPerPool[sl.pool()], pool.incomplete());
            List<Device> ds = new ArrayList<>();
            for (Spec.DevRef ref : sl.devices()) {
                Spec.Dev d = s.cluster()
                        .templates()
                        .get(ref.template() % s.cluster().templates().size());
                Device device = device("dev-" + deviceNumber++, d, ref.taint(), pool.counterSet() > 0);
                ds.add(device);
                devices.add(new PublishedDevice(
                        new DeviceId(Menus.DRIVER, poolName(sl.pool()), device.getName()), device, slice));
            }
            slice.getSpec().setDevices(ds);
            slices.add(slice);
        }
        for (int p = 0; p < slicesPerPool.length; p++) {
            Spec.PoolSpec pool = s.cluster().pools().get(p);
            if (slicesPerPool[p] == 0 || pool.counterSet() == 0) {
                continue;
            }
            ResourceSlice slice =
                    slice("counters-" + p, p, pool.counterPlacement(), slicesPerPool[p], pool.incomplete());
            CounterSet set = new CounterSet();
            set.setName("mem");
            set.setCounters(
                    new LinkedHashMap<>(Map.of("memory", counter(Menus.COUNTER_SET_GI.get(pool.counterSet())))));
            slice.getSpec().setSharedCounters(new ArrayList<>(List.of(set)));
            slices.add(slice);
        }

        List<ResourceClaim> claims = new ArrayList<>();
        for (int ci = 0; ci < s.claims().size(); ci++) {
            claims.add(claim("claim-" + ci, s.claims().get(ci), consumable));
        }

        AllocatedState.Builder state = AllocatedState.builder(gates);
        for (int i = 0; i < s.used().size() && !devices.isEmpty(); i++) {
            Spec.Used u = s.used().get(i);
            PublishedDevice d = devices.get(u.device() % devices.size());
            if (u.shared() && Boolean.TRUE.equals(d.device().getAllowMultipleAllocations())) {
                state.addShared(
                        d.id(),
                        "persisted-" + i,
                        Map.of("memory", KubeQuantity.fromFabric8(gi(Menus.COUNTER_USE_GI.get(1 + u.consumed() % 2)))));
            } else {
                state.addExclusive(d.id());
            }
        }
        List<DeviceTaintRule> rules = new ArrayList<>();
        for (int i = 0; i < s.rules().size(); i++) {
            Spec.Rule r = s.rules().get(i);
            DeviceTaintRule rule = new DeviceTaintRule();
            rule.setMetadata(meta("rule-" + i, null));
            DeviceTaintSelector selector = new DeviceTaintSelector();
            selector.setDriver(Menus.DRIVER);
            if (r.pool() >= 0) {
                selector.setPool(poolName(r.pool()));
            }
            if (r.device() >= 0 && !devices.isEmpty()) {
                selector.setDevice(
                        devices.get(r.device() % devices.size()).device().getName());
            }
            DeviceTaintRuleSpec spec = new DeviceTaintRuleSpec();
            spec.setDeviceSelector(selector);
            spec.setTaint(Menus.taint(r.taint()));
            rule.setSpec(spec);
            rules.add(rule);
        }
        return new Inputs(gates, node, classes, slices, rules, claims, state.build(), devices);
    }

    /** A fresh allocator for these inputs whose share IDs count up from 1. */
    Allocator allocator() {
        AtomicLong next = new AtomicLong();
        Supplier<String> ids = () -> "share-" + next.incrementAndGet();
        return Allocator.builder()
                .featureGates(gates)
                .allocatedState(state)
                .deviceClasses(classes)
                .resourceSlices(slices)
                .deviceTaintRules(taintRules)
                .shareIds(ids)
                .build();
    }

    static String poolName(int pool) {
        return "pool-" + pool;
    }

    static Quantity gi(int gi) {
        return new Quantity(gi + "Gi");
    }

    private static ObjectMeta meta(String name, String namespace) {
        ObjectMeta m = new ObjectMeta();
        m.setName(name);
        m.setNamespace(namespace);
        return m;
    }

    private static List<DeviceSelector> selectors(List<String> expressions) {
        List<DeviceSelector> out = new ArrayList<>();
        for (String e : expressions) {
            CELDeviceSelector cel = new CELDeviceSelector();
            cel.setExpression(e);
            DeviceSelector s = new DeviceSelector();
            s.setCel(cel);
            out.add(s);
        }
        return out;
    }

    private static Counter counter(int gi) {
        Counter c = new Counter();
        c.setValue(gi(gi));
        return c;
    }

    private static ResourceSlice slice(String name, int pool, Spec.Placement placement, int count, boolean incomplete) {
        ResourceSlice slice = new ResourceSlice();
        slice.setMetadata(meta(name, null));
        ResourceSliceSpec spec = new ResourceSliceSpec();
        spec.setDriver(Menus.DRIVER);
        ResourcePool p = new ResourcePool();
        p.setName(poolName(pool));
        p.setGeneration(1L);
        p.setResourceSliceCount((long) count + (incomplete ? 1 : 0));
        spec.setPool(p);
        switch (placement) {
            case NODE_A -> spec.setNodeName(Menus.NODE);
            case NODE_B -> spec.setNodeName(Menus.OTHER_NODE);
            default -> spec.setAllNodes(true);
        }
        slice.setSpec(spec);
        return slice;
    }

    private static Device device(String name, Spec.Dev d, int taint, boolean poolHasCounters) {
        Device device = new Device();
        device.setName(name);
        Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
        DeviceAttribute model = new DeviceAttribute();
        model.setString(Menus.MODELS.get(d.model()));
        attributes.put("model", model);
        DeviceAttribute numa = new DeviceAttribute();
        numa.setInt((long) d.numa());
        attributes.put("numa", numa);
        DeviceAttribute fast = new DeviceAttribute();
        fast.setBool(d.fast());
        attributes.put("fast", fast);
        if (d.pcieRoot() >= 0) {
            DeviceAttribute root = new DeviceAttribute();
            root.setString(Menus.PCIE_ROOTS.get(d.pcieRoot()));
            attributes.put("pcieRoot", root);
        }
        device.setAttributes(attributes);

        int memory = Menus.MEMORY_GI.get(d.memory());
        DeviceCapacity capacity = new DeviceCapacity();
        capacity.setValue(gi(memory));
        if (d.sharing().multi()) {
            device.setAllowMultipleAllocations(true);
            if (d.sharing().policy() == 1) {
                CapacityRequestPolicy policy = new CapacityRequestPolicy();
                policy.setDefault(gi(8));
                CapacityRequestPolicyRange range = new CapacityRequestPolicyRange();
                range.setMin(gi(8));
                range.setStep(gi(8));
                range.setMax(gi(memory));
                policy.setValidRange(range);
                capacity.setRequestPolicy(policy);
            } else if (d.sharing().policy() == 2) {
                CapacityRequestPolicy policy = new CapacityRequestPolicy();
                policy.setDefault(gi(8));
                policy.setValidValues(new ArrayList<>(List.of(gi(8), gi(16))));
                capacity.setRequestPolicy(policy);
            }
        }
        device.setCapacity(new LinkedHashMap<>(Map.of("memory", capacity)));
        if (taint >= 0) {
            device.setTaints(new ArrayList<>(List.of(Menus.taint(taint))));
        }
        if (poolHasCounters && d.counter() > 0) {
            DeviceCounterConsumption c = new DeviceCounterConsumption();
            c.setCounterSet("mem");
            c.setCounters(new LinkedHashMap<>(Map.of("memory", counter(Menus.COUNTER_USE_GI.get(d.counter())))));
            device.setConsumesCounters(new ArrayList<>(List.of(c)));
        }
        return device;
    }

    private static ResourceClaim claim(String name, Spec.Claim c, boolean consumable) {
        ResourceClaim claim = new ResourceClaim();
        claim.setMetadata(meta(name, "default"));
        ResourceClaimSpec spec = new ResourceClaimSpec();
        DeviceClaim devices = new DeviceClaim();
        List<DeviceRequest> requests = new ArrayList<>();
        for (int qi = 0; qi < c.requests().size(); qi++) {
            Spec.Request r = c.requests().get(qi);
            DeviceRequest request = new DeviceRequest();
            request.setName("r" + qi);
            if (r.firstAvailable().isEmpty()) {
                ExactDeviceRequest exact = new ExactDeviceRequest();
                Spec.Req q = r.exactly();
                exact.setDeviceClassName(Menus.CLASSES.get(q.deviceClass()).name());
                exact.setSelectors(q.selectors().isEmpty() ? null : selectors(menu(q.selectors(), Menus.SELECTORS)));
                exact.setAllocationMode(q.all() ? "All" : "ExactCount");
                exact.setCount(q.all() ? null : (long) q.count());
                exact.setTolerations(tolerations(q.tolerations()));
                exact.setCapacity(capacity(q.capacity(), consumable));
                if (r.admin() != 0) {
                    exact.setAdminAccess(r.admin() == 1);
                }
                request.setExactly(exact);
            } else {
                List<DeviceSubRequest> subs = new ArrayList<>();
                for (int si = 0; si < r.firstAvailable().size(); si++) {
                    Spec.Req q = r.firstAvailable().get(si);
                    DeviceSubRequest sub = new DeviceSubRequest();
                    sub.setName("s" + si);
                    sub.setDeviceClassName(Menus.CLASSES.get(q.deviceClass()).name());
                    sub.setSelectors(q.selectors().isEmpty() ? null : selectors(menu(q.selectors(), Menus.SELECTORS)));
                    sub.setAllocationMode(q.all() ? "All" : "ExactCount");
                    sub.setCount(q.all() ? null : (long) q.count());
                    sub.setTolerations(tolerations(q.tolerations()));
                    sub.setCapacity(capacity(q.capacity(), consumable));
                    subs.add(sub);
                }
                request.setFirstAvailable(subs);
            }
            requests.add(request);
        }
        devices.setRequests(requests);
        List<DeviceConstraint> constraints = new ArrayList<>();
        for (Spec.Con con : c.constraints()) {
            DeviceConstraint dc = new DeviceConstraint();
            String attribute = Menus.CONSTRAINT_ATTRIBUTES.get(con.attribute());
            if (con.match()) {
                dc.setMatchAttribute(attribute);
            } else {
                dc.setDistinctAttribute(attribute);
            }
            List<String> names = new ArrayList<>();
            for (int ref : con.requests()) {
                int sub = ref / 3 - 1;
                String n = "r" + (ref % 3) + (sub < 0 ? "" : "/s" + sub);
                if (!names.contains(n)) {
                    names.add(n);
                }
            }
            dc.setRequests(names.isEmpty() ? null : names);
            constraints.add(dc);
        }
        devices.setConstraints(constraints.isEmpty() ? null : constraints);
        spec.setDevices(devices);
        claim.setSpec(spec);
        return claim;
    }

    private static List<String> menu(List<Integer> picks, List<String> menu) {
        List<String> out = new ArrayList<>();
        for (int i : picks) {
            out.add(menu.get(i));
        }
        return out;
    }

    private static List<DeviceToleration> tolerations(List<Integer> picks) {
        if (picks.isEmpty()) {
            return null;
        }
        List<DeviceToleration> out = new ArrayList<>();
        for (int i : picks) {
            out.add(Menus.toleration(i));
        }
        return out;
    }

    /** Capacity requests only where DRAConsumableCapacity is on; with it off they are an input error. */
    private static CapacityRequirements capacity(int pick, boolean consumable) {
        if (pick == 0 || !consumable) {
            return null;
        }
        CapacityRequirements c = new CapacityRequirements();
        c.setRequests(new LinkedHashMap<>(Map.of("memory", gi(Menus.CAPACITY_REQUEST_GI.get(pick)))));
        return c;
    }
}
