package io.dra4j.sim.report;

import io.dra4j.cel.KubeQuantity;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.DeviceUsage;
import io.dra4j.sim.whatif.DeviceInventory;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fleet as nodes × devices, for the HTML report: nodes grouped by node pool (the value of a node label), each
 * with its devices as {@link DeviceInventory} lists them and their state (allocated, shared with capacity consumed,
 * tainted, free), the counter sets of partitionable devices with what allocated partitions consume of them, and the
 * devices per DeviceClass. Allocated counts exclude admin-access allocations (they do not take the device), as
 * {@link DeviceUsage} counts them.
 */
public record FleetView(String poolLabel, List<NodePool> pools, List<ClassUsage> classes) {
    /**
     * The node pool that holds the devices of slices that name no node (a row named "") and of slices that name a
     * node the snapshot lacks (a row per such node name); it counts no nodes.
     */
    public static final String NO_NODE = "(devices of no node)";

    /** One node pool: its nodes and the device counts over them. */
    public record NodePool(
            String name, long nodes, long devices, long allocated, long tainted, List<NodeRow> nodeRows) {
        public NodePool {
            nodeRows = List.copyOf(nodeRows);
        }
    }

    /** One node: whether it is cordoned, its taints, pods bound to it, its devices and counter sets. */
    public record NodeRow(
            String name,
            boolean cordoned,
            List<String> taints,
            long pods,
            List<Cell> devices,
            List<Counters> counterSets) {
        public NodeRow {
            taints = List.copyOf(taints);
            devices = List.copyOf(devices);
            counterSets = List.copyOf(counterSets);
        }
    }

    /**
     * One device. {@code state} is {@code allocated}, {@code shared} (a device with allowMultipleAllocations held by
     * one or more claims), {@code tainted} (not allocated, with a NoSchedule or NoExecute taint) or {@code free}.
     * {@code counterSet} names the counter set a partition consumes from ({@code driver/pool/name}), empty otherwise.
     */
    public record Cell(
            String device,
            String pool,
            String state,
            String kind,
            String counterSet,
            List<String> classes,
            List<String> taints,
            List<String> claims,
            List<String> adminClaims,
            List<String> pods,
            List<Consumed> consumed) {
        public Cell {
            classes = List.copyOf(classes);
            taints = List.copyOf(taints);
            claims = List.copyOf(claims);
            adminClaims = List.copyOf(adminClaims);
            pods = List.copyOf(pods);
            consumed = List.copyOf(consumed);
        }
    }

    /** A capacity of a shared device: the sum the claims consume of it, and what the device has. */
    public record Consumed(String capacity, String used, String total) {}

    /** A counter set of a partitionable device ({@code driver/pool/name}): per counter, consumed and total. */
    public record Counters(String name, List<Consumed> counters) {
        public Counters {
            counters = List.copyOf(counters);
        }
    }

    /**
     * A DeviceClass: devices allocated for requests of the class and with admin access (from {@link DeviceUsage}),
     * and the devices whose attributes match its selectors.
     */
    public record ClassUsage(String deviceClass, long allocated, long adminAccess, long matching) {}

    public FleetView {
        pools = List.copyOf(pools);
        classes = List.copyOf(classes);
    }

    public static FleetView of(ClusterSnapshot state, String poolLabel) {
        List<DeviceInventory.Row> rows = DeviceInventory.of(state, labels -> true, false, null, poolLabel);

        // What holds each device: exclusive and shared allocations apart from admin access, and the capacity
        // that allocations of shared devices consume.
        Map<String, List<String>> admin = new HashMap<>();
        Map<String, Map<String, BigDecimal>> consumed = new HashMap<>();
        Map<String, Set<String>> holders = new HashMap<>();
        Map<String, List<String>> reservedFor = new HashMap<>();
        for (ResourceClaim c : state.resourceClaims()) {
            if (c.getStatus() == null
                    || c.getStatus().getAllocation() == null
                    || c.getStatus().getAllocation().getDevices() == null) {
                continue;
            }
            String claim =
                    c.getMetadata().getNamespace() + "/" + c.getMetadata().getName();
            reservedFor.put(
                    claim,
                    list(c.getStatus().getReservedFor()).stream()
                            .filter(r -> "pods".equals(r.getResource()))
                            .map(r -> c.getMetadata().getNamespace() + "/" + r.getName())
                            .toList());
            for (DeviceRequestAllocationResult r :
                    list(c.getStatus().getAllocation().getDevices().getResults())) {
                String key = r.getDriver() + "/" + r.getPool() + "/" + r.getDevice();
                if (Boolean.TRUE.equals(r.getAdminAccess())) {
                    admin.computeIfAbsent(key, k -> new ArrayList<>()).add(claim);
                    continue;
                }
                holders.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(claim);
                if (r.getConsumedCapacity() != null) {
                    Map<String, BigDecimal> m = consumed.computeIfAbsent(key, k -> new TreeMap<>());
                    r.getConsumedCapacity()
                            .forEach((name, q) -> m.merge(name, Quantity.getAmountInBytes(q), BigDecimal::add));
                }
            }
        }

        // The slices' devices and counter sets, to relate partitions to the counters they consume.
        Map<String, Device> devices = new HashMap<>();
        Map<String, Map<String, Quantity>> counterTotals = new LinkedHashMap<>();
        Map<String, String> counterNode = new HashMap<>();
        for (ResourceSlice s : state.resourceSlices()) {
            String prefix =
                    s.getSpec().getDriver() + "/" + s.getSpec().getPool().getName() + "/";
            for (Device d : list(s.getSpec().getDevices())) {
                devices.put(prefix + d.getName(), d);
            }
            for (CounterSet cs : list(s.getSpec().getSharedCounters())) {
                Map<String, Quantity> totals = new TreeMap<>();
                if (cs.getCounters() != null) {
                    cs.getCounters().forEach((k, v) -> totals.put(k, v.getValue()));
                }
                counterTotals.put(prefix + cs.getName(), totals);
                counterNode.put(
                        prefix + cs.getName(),
                        s.getSpec().getNodeName() == null ? "" : s.getSpec().getNodeName());
            }
        }
        Map<String, Map<String, BigDecimal>> counterUse = new HashMap<>();
        for (String key : holders.keySet()) {
            Device d = devices.get(key);
            if (d == null) {
                continue;
            }
            String prefix = key.substring(0, key.lastIndexOf('/') + 1);
            for (DeviceCounterConsumption cc : list(d.getConsumesCounters())) {
                Map<String, BigDecimal> m =
                        counterUse.computeIfAbsent(prefix + cc.getCounterSet(), k -> new TreeMap<>());
                if (cc.getCounters() != null) {
                    cc.getCounters()
                            .forEach((k, v) -> m.merge(k, Quantity.getAmountInBytes(v.getValue()), BigDecimal::add));
                }
            }
        }

        // Cells per node, in slice order.
        Map<String, List<Cell>> cells = new LinkedHashMap<>();
        for (DeviceInventory.Row r : rows) {
            String key = r.driver() + "/" + r.pool() + "/" + r.device();
            Device d = devices.get(key);
            List<String> admins = admin.getOrDefault(key, List.of());
            List<String> claims = List.copyOf(holders.getOrDefault(key, Set.of()));
            List<String> pods = claims.stream()
                    .flatMap(c -> reservedFor.getOrDefault(c, List.of()).stream())
                    .distinct()
                    .toList();
            boolean shared = d != null && Boolean.TRUE.equals(d.getAllowMultipleAllocations());
            boolean blocking = r.taints().stream().anyMatch(t -> t.endsWith(":NoSchedule") || t.endsWith(":NoExecute"));
            String cellState =
                    holders.containsKey(key) ? (shared ? "shared" : "allocated") : blocking ? "tainted" : "free";
            List<Consumed> use = new ArrayList<>();
            if (shared && d.getCapacity() != null) {
                new TreeMap<>(d.getCapacity())
                        .forEach((name, cap) -> use.add(new Consumed(
                                name,
                                used(
                                        consumed.getOrDefault(key, Map.of()).getOrDefault(name, BigDecimal.ZERO),
                                        cap.getValue()),
                                total(cap.getValue()))));
            }
            String counterSet = d == null || list(d.getConsumesCounters()).isEmpty()
                    ? ""
                    : r.driver() + "/" + r.pool() + "/"
                            + d.getConsumesCounters().get(0).getCounterSet();
            cells.computeIfAbsent(r.node(), k -> new ArrayList<>())
                    .add(new Cell(
                            r.device(),
                            r.driver() + "/" + r.pool(),
                            cellState,
                            r.kind(),
                            counterSet,
                            r.classes(),
                            r.taints(),
                            claims,
                            admins,
                            pods,
                            use));
        }
        Map<String, List<Counters>> countersPerNode = new HashMap<>();
        counterTotals.forEach((name, totals) -> {
            List<Consumed> cs = new ArrayList<>();
            totals.forEach((k, total) -> cs.add(new Consumed(
                    k,
                    used(counterUse.getOrDefault(name, Map.of()).getOrDefault(k, BigDecimal.ZERO), total),
                    total(total))));
            countersPerNode
                    .computeIfAbsent(counterNode.get(name), n -> new ArrayList<>())
                    .add(new Counters(name, cs));
        });

        // Nodes grouped by node pool; devices of slices without a node, or of a node the snapshot lacks (its slices
        // outlive it until the driver or the garbage collector removes them), in a pool of their own.
        Map<String, Long> podsPerNode = new HashMap<>();
        for (Pod p : state.pods()) {
            if (p.getSpec() != null && p.getSpec().getNodeName() != null) {
                podsPerNode.merge(p.getSpec().getNodeName(), 1L, Long::sum);
            }
        }
        Map<String, List<NodeRow>> byPool = new TreeMap<>();
        for (Node n : state.nodes()) {
            String name = n.getMetadata().getName();
            Map<String, String> labels = n.getMetadata().getLabels() == null
                    ? Map.of()
                    : n.getMetadata().getLabels();
            List<String> taints = new ArrayList<>();
            if (n.getSpec() != null && n.getSpec().getTaints() != null) {
                n.getSpec()
                        .getTaints()
                        .forEach(t -> taints.add(
                                t.getKey() + (t.getValue() == null ? "" : "=" + t.getValue()) + ":" + t.getEffect()));
            }
            boolean cordoned =
                    n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
            byPool.computeIfAbsent(labels.getOrDefault(poolLabel, ""), k -> new ArrayList<>())
                    .add(new NodeRow(
                            name,
                            cordoned,
                            taints,
                            podsPerNode.getOrDefault(name, 0L),
                            cells.getOrDefault(name, List.of()),
                            countersPerNode.getOrDefault(name, List.of())));
        }
        Set<String> known = new java.util.HashSet<>();
        state.nodes().forEach(n -> known.add(n.getMetadata().getName()));
        List<NodeRow> apart = new ArrayList<>();
        new TreeMap<>(cells).forEach((node, devicesOf) -> {
            if (!known.contains(node)) {
                apart.add(new NodeRow(
                        node,
                        false,
                        List.of(),
                        podsPerNode.getOrDefault(node, 0L),
                        devicesOf,
                        countersPerNode.getOrDefault(node, List.of())));
            }
        });
        if (!apart.isEmpty()) {
            byPool.put(NO_NODE, apart);
        }
        List<NodePool> pools = new ArrayList<>();
        byPool.forEach((name, nodes) -> {
            long all = nodes.stream().mapToLong(n -> n.devices().size()).sum();
            long allocated = nodes.stream()
                    .flatMap(n -> n.devices().stream())
                    .filter(c -> c.state().equals("allocated") || c.state().equals("shared"))
                    .count();
            long tainted = nodes.stream()
                    .flatMap(n -> n.devices().stream())
                    .filter(c -> !c.taints().isEmpty())
                    .count();
            pools.add(new NodePool(name, name.equals(NO_NODE) ? 0 : nodes.size(), all, allocated, tainted, nodes));
        });

        // Per DeviceClass: allocations as DeviceUsage counts them, and the devices the class matches.
        DeviceUsage usage = DeviceUsage.of(state);
        Map<String, Long> matching = new TreeMap<>();
        state.deviceClasses().forEach(c -> matching.put(c.getMetadata().getName(), 0L));
        rows.forEach(r -> r.classes().forEach(c -> matching.merge(c, 1L, Long::sum)));
        usage.perClass().keySet().forEach(c -> matching.putIfAbsent(c, 0L));
        usage.adminAccessPerClass().keySet().forEach(c -> matching.putIfAbsent(c, 0L));
        List<ClassUsage> classes = new ArrayList<>();
        matching.forEach((c, n) -> classes.add(new ClassUsage(
                c,
                usage.perClass().getOrDefault(c, 0L),
                usage.adminAccessPerClass().getOrDefault(c, 0L),
                n)));
        return new FleetView(poolLabel, pools, classes);
    }

    /**
     * What is in use of a capacity or counter, in Kubernetes' canonical form and in the format of its total (as
     * upstream's {@code Quantity.Add} keeps the receiver's format): {@code 10Gi} beside {@code 40Gi}, {@code 1500M}
     * beside {@code 3G}.
     */
    private static String used(BigDecimal amount, Quantity total) {
        KubeQuantity.Format format = total == null
                ? KubeQuantity.Format.DECIMAL_SI
                : KubeQuantity.fromFabric8(total).format();
        return KubeQuantity.of(amount, format).canonical();
    }

    /** A capacity's or counter's total in Kubernetes' canonical form ({@code 81920Mi} prints as {@code 80Gi}). */
    private static String total(Quantity total) {
        return total == null ? "" : KubeQuantity.fromFabric8(total).canonical();
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
