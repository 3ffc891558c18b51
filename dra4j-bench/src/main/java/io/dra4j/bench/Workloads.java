package io.dra4j.bench;

import static io.dra4j.bench.K8sObjects.capacity;
import static io.dra4j.bench.K8sObjects.claim;
import static io.dra4j.bench.K8sObjects.consumes;
import static io.dra4j.bench.K8sObjects.counterSet;
import static io.dra4j.bench.K8sObjects.device;
import static io.dra4j.bench.K8sObjects.deviceClass;
import static io.dra4j.bench.K8sObjects.distinctAttribute;
import static io.dra4j.bench.K8sObjects.exactly;
import static io.dra4j.bench.K8sObjects.firstAvailable;
import static io.dra4j.bench.K8sObjects.intAttr;
import static io.dra4j.bench.K8sObjects.labelSelector;
import static io.dra4j.bench.K8sObjects.matchAttribute;
import static io.dra4j.bench.K8sObjects.node;
import static io.dra4j.bench.K8sObjects.slice;
import static io.dra4j.bench.K8sObjects.stringAttr;
import static io.dra4j.bench.K8sObjects.stringsAttr;
import static io.dra4j.bench.K8sObjects.subRequest;
import static io.dra4j.bench.K8sObjects.versionAttr;
import static io.dra4j.bench.K8sObjects.withCapacity;

import io.dra4j.allocator.DraFeature;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The benchmark workloads. The first group reproduces the object shapes of Kubernetes' scheduler_perf DRA tests
 * ({@code test/integration/scheduler_perf/dra/}, see ecosystem-notes.md §1); the rest are a large node and
 * no-solution inputs on which upstream's depth-first search does exponential work (kubernetes#131730, #130593).
 * Each workload is built fresh on every call, so callers own the objects.
 */
public final class Workloads {
    public static final String DRIVER = "test-driver.cdi.k8s.io";
    public static final String CLASS = "test-class";
    static final String CLASS_SELECTOR = "device.driver == \"" + DRIVER + "\"";
    static final String CLAIM_SELECTOR = "device.attributes[\"" + DRIVER + "\"].driverVersion.major() >= 1 && "
            + "device.capacity[\"" + DRIVER + "\"].memory.isGreaterThan(quantity(\"1Mi\"))";
    static final int PERF_NODES = 500;
    static final int PERF_DEVICES = 10;
    /** The node one Allocate call is timed on in the 500-node shapes (the scheduler calls Allocate once per node). */
    static final int REPRESENTATIVE = 250;

    private static final Map<String, Supplier<Workload>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("empty_500nodes", () -> steadyState("empty_500nodes", 0, Claims.ONE));
        ALL.put("half_500nodes", () -> steadyState("half_500nodes", 2500, Claims.ONE));
        ALL.put("full_500nodes", () -> steadyState("full_500nodes", 4990, Claims.ONE));
        ALL.put("selector_empty_500nodes", () -> steadyState("selector_empty_500nodes", 0, Claims.SELECTOR));
        ALL.put("match_empty_500nodes", () -> steadyState("match_empty_500nodes", 0, Claims.MATCH));
        ALL.put("listattributes_empty_500nodes", Workloads::listAttributes);
        ALL.put("partitionable_backtracking", Workloads::partitionableBacktracking);
        ALL.put("consumablecapacity_empty_100nodes", () -> consumableCapacity("consumablecapacity_empty_100nodes", 0));
        ALL.put("consumablecapacity_half_100nodes", () -> consumableCapacity("consumablecapacity_half_100nodes", 4));
        ALL.put("node_1000devices_selector", () -> bigNode("node_1000devices_selector", true));
        ALL.put("node_1000devices_count32", () -> bigNode("node_1000devices_count32", false));
        ALL.put("nosolution_count_exceeds_devices", Workloads::countExceedsDevices);
        ALL.put("nosolution_requests_exceed_devices", Workloads::requestsExceedDevices);
        ALL.put("nosolution_prioritized_list", Workloads::prioritizedListNoSolution);
    }

    private Workloads() {}

    /** Workload names in benchmark order. */
    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }

    /** Builds the named workload. */
    public static Workload byName(String name) {
        Supplier<Workload> s = ALL.get(name);
        if (s == null) {
            throw new IllegalArgumentException(
                    "unknown workload \"" + name + "\"; known: " + String.join(", ", names()));
        }
        return s.get();
    }

    public static List<Workload> all() {
        List<Workload> out = new ArrayList<>();
        for (Supplier<Workload> s : ALL.values()) {
            out.add(s.get());
        }
        return out;
    }

    /** The claim shapes of SteadyStateClusterResourceClaimTemplate and its #140254 variants. */
    private enum Claims {
        ONE,
        SELECTOR,
        MATCH
    }

    static String perfNode(int i) {
        return "scheduler-perf-dra-" + i;
    }

    private static List<Node> perfNodes(int n) {
        List<Node> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            nodes.add(node(perfNode(i), Map.of()));
        }
        return nodes;
    }

    /** A device as scheduler_perf's createResourceDriver publishes it. */
    private static Device perfDevice(int index) {
        Map<String, DeviceAttribute> attrs = new LinkedHashMap<>();
        attrs.put("model", stringAttr("A100"));
        attrs.put("family", stringAttr("GPU"));
        attrs.put("driverVersion", versionAttr("1.2.3"));
        attrs.put("dra.example.com/numa", intAttr(index));
        return device("instance-" + index, attrs, Map.of("memory", capacity("1Gi")));
    }

    /** One slice per node, named after the node, pool = node name, devices instance-0..n-1. */
    private static List<ResourceSlice> perfSlices(int nodes, int devices) {
        List<ResourceSlice> slices = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            List<Device> ds = new ArrayList<>(devices);
            for (int d = 0; d < devices; d++) {
                ds.add(perfDevice(d));
            }
            slices.add(slice(perfNode(i), DRIVER, perfNode(i), perfNode(i), ds));
        }
        return slices;
    }

    private static DeviceClass testClass() {
        return deviceClass(CLASS, CLASS_SELECTOR);
    }

    /**
     * A fleet of {@code nodes} nodes with {@code devices} scheduler_perf devices each and the one-device claim of
     * empty_500nodes, for the cluster-state benchmarks (build, update after a bind, Filter pass).
     */
    public static Workload fleet(int nodes, int devices) {
        return new Workload(
                "fleet_" + nodes + "x" + devices,
                "scheduler_perf devices on " + nodes + " nodes",
                List.of(),
                List.of(testClass()),
                perfSlices(nodes, devices),
                List.of(),
                List.of(claim("test", "test-claim", List.of(exactly("req-0", CLASS, 1)), List.of())),
                node(perfNode(nodes / 2), Map.of()),
                perfNodes(nodes));
    }

    /*
     * SteadyStateClusterResourceClaimTemplate/{empty,half,full}_500nodes and SchedulingWithResourceClaimTemplate/
     * {selector,match}_empty_500nodes: 500 nodes x 10 devices, `inUse` devices already allocated. Half uses
     * instance-0..4 on every node; full leaves only instance-9 free on the first ten nodes, so the representative
     * node is full, as 490 of the 500 nodes are.
     */
    private static Workload steadyState(String name, int inUse, Claims shape) {
        List<AllocatedDevice> allocated = new ArrayList<>();
        if (inUse == PERF_NODES * PERF_DEVICES / 2) {
            for (int i = 0; i < PERF_NODES; i++) {
                for (int d = 0; d < PERF_DEVICES / 2; d++) {
                    allocated.add(AllocatedDevice.exclusive(DRIVER, perfNode(i), "instance-" + d));
                }
            }
        } else if (inUse > 0) {
            int free = PERF_NODES * PERF_DEVICES - inUse;
            for (int i = 0; i < PERF_NODES; i++) {
                for (int d = 0; d < PERF_DEVICES; d++) {
                    if (!(d == PERF_DEVICES - 1 && i < free)) {
                        allocated.add(AllocatedDevice.exclusive(DRIVER, perfNode(i), "instance-" + d));
                    }
                }
            }
        }
        List<DeviceRequest> requests = new ArrayList<>();
        List<DeviceConstraint> constraints = new ArrayList<>();
        String notes;
        switch (shape) {
            case SELECTOR -> {
                requests.add(exactly("req-0", CLASS, 1, CLAIM_SELECTOR));
                notes =
                        "scheduler_perf selector_empty_500nodes (kubernetes#140254): one device with a claim CEL selector";
            }
            case MATCH -> {
                requests.add(exactly("req-0", CLASS, 1));
                requests.add(exactly("req-1", CLASS, 1));
                constraints.add(matchAttribute(DRIVER + "/model"));
                notes = "scheduler_perf match_empty_500nodes (kubernetes#140254): two requests with matchAttribute;"
                        + " the attribute (model) is dra4j's choice, the PR text does not name it";
            }
            default -> {
                requests.add(exactly("req-0", CLASS, 1));
                notes = "scheduler_perf SteadyStateClusterResourceClaimTemplate/" + name + ": one device, class"
                        + " selector only, " + inUse + " of 5000 devices in use";
            }
        }
        return new Workload(
                name,
                notes,
                List.of(),
                List.of(testClass()),
                perfSlices(PERF_NODES, PERF_DEVICES),
                allocated,
                List.of(claim("test", "test-claim", requests, constraints)),
                node(perfNode(REPRESENTATIVE), Map.of()),
                perfNodes(PERF_NODES));
    }

    /*
     * SchedulingWithResourceClaimTemplateListAttributes/empty_500nodes (kubernetes#140783): 64 devices per node whose
     * list attribute dra.example.com/match holds 47 device-specific values; only devices 32..63 also hold a shared
     * value. 32 one-device requests with matchAttribute must work through the non-matching block first.
     */
    private static Workload listAttributes() {
        int devices = 64;
        int nonMatching = 32;
        int listValues = 47;
        List<ResourceSlice> slices = new ArrayList<>(PERF_NODES);
        for (int i = 0; i < PERF_NODES; i++) {
            List<Device> ds = new ArrayList<>(devices);
            for (int d = 0; d < devices; d++) {
                List<String> values = new ArrayList<>(listValues + 1);
                if (d >= nonMatching) {
                    values.add("shared-value");
                }
                for (int v = 0; v < listValues; v++) {
                    values.add("device-" + d + "-value-" + v);
                }
                ds.add(device("device-" + d, Map.of("dra.example.com/match", stringsAttr(values)), Map.of()));
            }
            slices.add(slice(perfNode(i), DRIVER, perfNode(i), perfNode(i), ds));
        }
        List<DeviceRequest> requests = new ArrayList<>();
        for (int r = 0; r < 32; r++) {
            requests.add(exactly("req-" + r, CLASS, 1));
        }
        ResourceClaim claim = claim("test", "test-claim", requests, List.of(matchAttribute("dra.example.com/match")));
        return new Workload(
                "listattributes_empty_500nodes",
                "scheduler_perf SchedulingWithResourceClaimTemplateListAttributes (kubernetes#140783): 64 devices with"
                        + " 47-value list attributes, 32 requests + matchAttribute",
                List.of(DraFeature.DRAListTypeAttributes),
                List.of(testClass()),
                slices,
                List.of(),
                List.of(claim),
                node(perfNode(REPRESENTATIVE), Map.of()),
                perfNodes(PERF_NODES));
    }

    /*
     * SteadyStateClusterResourceClaimTemplatePartitionableBacktracking/fast: one node, a counter-set slice (cpu1..8
     * of 1 each, mem 70Gi) and a device slice (device-1 takes 20Gi, devices 2..8 take 10Gi) in one pool; a claim
     * for 7 devices fits only without device-1, found after several backtracks.
     */
    private static Workload partitionableBacktracking() {
        String nodeName = perfNode(0);
        String pool = "resourceslice-0";
        Map<String, String> cpus = new LinkedHashMap<>();
        for (int c = 1; c <= 8; c++) {
            cpus.put("cpu" + c, "1");
        }
        ResourceSlice counters = slice(
                "resourceslice-countersets-0",
                DRIVER,
                pool,
                2,
                nodeName,
                null,
                null,
                List.of(
                        counterSet("counter-set-for-cpu", cpus),
                        counterSet("counter-set-for-mem", Map.of("mem", "70Gi"))));
        List<Device> ds = new ArrayList<>();
        for (int d = 1; d <= 8; d++) {
            Device dev = device("device-" + d, Map.of(), Map.of());
            dev.setConsumesCounters(List.of(
                    consumes("counter-set-for-cpu", Map.of("cpu" + d, "1")),
                    consumes("counter-set-for-mem", Map.of("mem", d == 1 ? "20Gi" : "10Gi"))));
            ds.add(dev);
        }
        ResourceSlice devices = slice(
                "resourceslice-devices-0", DRIVER, pool, 2, null, labelSelector("node-with-dra", "true"), ds, null);
        ResourceClaim claim = claim("test", "test-claim", List.of(exactly("req-0", CLASS, 7)), List.of());
        Node node = node(nodeName, Map.of("node-with-dra", "true"));
        return new Workload(
                "partitionable_backtracking",
                "scheduler_perf SteadyStateClusterResourceClaimTemplatePartitionableBacktracking: count 7 of 8"
                        + " partitionable devices, the only solution excludes device-1",
                List.of(DraFeature.DRAPartitionableDevices),
                List.of(testClass()),
                List.of(counters, devices),
                List.of(),
                List.of(claim),
                node,
                List.of(node));
    }

    /*
     * SteadyStateClusterResourceClaimTemplateConsumableCapacity (kubernetes#139511 shape): per node one slice with
     * four 10G "bandwidth" devices that allow multiple allocations; a claim takes two distinct devices x 2500M.
     * `claimsPerNode` earlier claims are already allocated on every node (2 shares each).
     */
    private static Workload consumableCapacity(String name, int claimsPerNode) {
        int nodes = 100;
        List<ResourceSlice> slices = new ArrayList<>(nodes);
        List<AllocatedDevice> allocated = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            List<Device> ds = new ArrayList<>();
            for (int d = 0; d < 4; d++) {
                DeviceCapacity bw = capacity("10G");
                CapacityRequestPolicy policy = new CapacityRequestPolicy();
                policy.setDefault(new Quantity("1G"));
                CapacityRequestPolicyRange range = new CapacityRequestPolicyRange();
                range.setMin(new Quantity("1G"));
                policy.setValidRange(range);
                bw.setRequestPolicy(policy);
                Device dev = device("nic-" + d, Map.of("dra.example.com/nic", intAttr(d)), Map.of("bandwidth", bw));
                dev.setAllowMultipleAllocations(true);
                ds.add(dev);
            }
            slices.add(slice(perfNode(i), DRIVER, perfNode(i), perfNode(i), ds));
            for (int c = 0; c < claimsPerNode; c++) {
                for (int share = 0; share < 2; share++) {
                    int d = (2 * c + share) % 4;
                    allocated.add(AllocatedDevice.share(
                            DRIVER, perfNode(i), "nic-" + d, Map.of("bandwidth", new Quantity("2500M"))));
                }
            }
        }
        DeviceClass cls = deviceClass(CLASS, CLASS_SELECTOR + " && device.allowMultipleAllocations == true");
        ResourceClaim claim = claim(
                "test",
                "test-claim",
                List.of(withCapacity(exactly("req-0", CLASS, 2), Map.of("bandwidth", "2500M"))),
                List.of(distinctAttribute("dra.example.com/nic")));
        return new Workload(
                name,
                "scheduler_perf SteadyStateClusterResourceClaimTemplateConsumableCapacity: 100 nodes x 4 shareable"
                        + " 10G devices, claim = 2 distinct devices x 2500M, " + claimsPerNode
                        + " claims per node in use",
                List.of(DraFeature.DRAConsumableCapacity),
                List.of(cls),
                slices,
                allocated,
                List.of(claim),
                node(perfNode(REPRESENTATIVE % nodes), Map.of()),
                perfNodes(nodes));
    }

    /*
     * A node with 1,000 devices (eight slices of 125, one pool). Either one device chosen by a claim CEL selector that
     * only the last ten devices pass (every device's selector is evaluated), or 32 devices from a node where the
     * first 500 are in use.
     */
    private static Workload bigNode(String name, boolean selector) {
        String nodeName = "big-node";
        List<ResourceSlice> slices = new ArrayList<>();
        int perSlice = 125;
        for (int s = 0; s < 8; s++) {
            List<Device> ds = new ArrayList<>(perSlice);
            for (int d = 0; d < perSlice; d++) {
                ds.add(perfDevice(s * perSlice + d));
            }
            slices.add(slice(nodeName + "-" + s, DRIVER, nodeName, 8, nodeName, null, ds, null));
        }
        List<AllocatedDevice> allocated = new ArrayList<>();
        DeviceRequest request;
        String notes;
        if (selector) {
            request = exactly("req-0", CLASS, 1, "device.attributes[\"dra.example.com\"].numa >= 990");
            notes = "one node with 1000 devices; a claim selector only the last 10 devices pass";
        } else {
            for (int d = 0; d < 500; d++) {
                allocated.add(AllocatedDevice.exclusive(DRIVER, nodeName, "instance-" + d));
            }
            request = exactly("req-0", CLASS, 32);
            notes = "one node with 1000 devices, the first 500 in use; a claim for 32 devices (the per-claim maximum)";
        }
        Node node = node(nodeName, Map.of());
        return new Workload(
                name,
                notes,
                List.of(),
                List.of(testClass()),
                slices,
                allocated,
                List.of(claim("test", "test-claim", List.of(request), List.of())),
                node,
                List.of(node));
    }

    /** One node with {@code devices} scheduler_perf devices in one slice. */
    private static List<ResourceSlice> singleNodeSlices(String nodeName, int devices) {
        List<Device> ds = new ArrayList<>(devices);
        for (int d = 0; d < devices; d++) {
            ds.add(perfDevice(d));
        }
        return List.of(slice(nodeName, DRIVER, nodeName, nodeName, ds));
    }

    static final int COUNT_EXCEEDS_DEVICES = 8;
    static final int REQUESTS_EXCEED_DEVICES = 8;
    static final int PRIORITIZED_DEVICES = 7;

    /*
     * kubernetes#131730 / #130593: asking for more devices than the node has. Upstream has no counting pre-check and
     * its search grows factorially here (measured: 8 devices about 1 s, 9 devices about 10 s), so the node is kept
     * small enough for upstream to finish.
     */
    private static Workload countExceedsDevices() {
        String nodeName = "node-0";
        int n = COUNT_EXCEEDS_DEVICES;
        Node node = node(nodeName, Map.of());
        return new Workload(
                "nosolution_count_exceeds_devices",
                "kubernetes#131730/#130593: one request for " + (n + 1) + " devices on a node with " + n
                        + " (no solution; upstream tries every subset)",
                List.of(),
                List.of(testClass()),
                singleNodeSlices(nodeName, n),
                List.of(),
                List.of(claim("test", "test-claim", List.of(exactly("req-0", CLASS, n + 1)), List.of())),
                node,
                List.of(node));
    }

    /*
     * kubernetes#131730: n+1 one-device requests on a node with n devices. Each request may take any device, so
     * upstream enumerates every ordered choice (about e * n! search steps) before giving up; 8 devices take upstream
     * about 2 s.
     */
    private static Workload requestsExceedDevices() {
        String nodeName = "node-0";
        int n = REQUESTS_EXCEED_DEVICES;
        List<DeviceRequest> requests = new ArrayList<>();
        for (int r = 0; r <= n; r++) {
            requests.add(exactly("req-" + r, CLASS, 1));
        }
        Node node = node(nodeName, Map.of());
        return new Workload(
                "nosolution_requests_exceed_devices",
                "kubernetes#131730: " + (n + 1) + " one-device requests on a node with " + n + " devices (no solution)",
                List.of(),
                List.of(testClass()),
                singleNodeSlices(nodeName, n),
                List.of(),
                List.of(claim("test", "test-claim", requests, List.of())),
                node,
                List.of(node));
    }

    /*
     * kubernetes#130593: prioritized lists whose alternatives together need more devices than the node has. Two
     * requests, each preferring 5 devices and falling back to 4; the node has 7, so no combination fits, and upstream
     * tries every combination for every alternative (7 devices take upstream about 0.7 s, 9 devices about 30 s).
     */
    private static Workload prioritizedListNoSolution() {
        String nodeName = "node-0";
        int n = PRIORITIZED_DEVICES;
        List<DeviceRequest> requests = List.of(
                firstAvailable("req-0", List.of(subRequest("large", CLASS, 5), subRequest("small", CLASS, 4))),
                firstAvailable("req-1", List.of(subRequest("large", CLASS, 5), subRequest("small", CLASS, 4))));
        Node node = node(nodeName, Map.of());
        return new Workload(
                "nosolution_prioritized_list",
                "kubernetes#130593: two firstAvailable requests (5 devices, else 4) on a node with " + n
                        + " devices (no solution)",
                List.of(DraFeature.DRAPrioritizedList),
                List.of(testClass()),
                singleNodeSlices(nodeName, n),
                List.of(),
                List.of(claim("test", "test-claim", requests, List.of())),
                node,
                List.of(node));
    }
}
