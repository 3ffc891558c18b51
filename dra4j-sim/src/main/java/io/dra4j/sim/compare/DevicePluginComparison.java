package io.dra4j.sim.compare;

import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code dra4j simulate --compare device-plugins}: the same workloads simulated as written with DRA and in their
 * device-plugin form ({@link DevicePluginForm}) by the same scheduler, with the numbers of each side (see
 * docs/simulate-json.md, {@code comparison}). After the device-plugin run, each placed pod is given devices on its
 * node as kubelet and NVIDIA's device plugin do (its preferred allocation: one interconnect domain when one has
 * enough free, else the domains with most free), recorded on the pod as annotation {@value DevicePluginForm#ASSIGNED}.
 */
public final class DevicePluginComparison {
    /** The interconnect domain attribute by default (the bundled fleet's NVLink island). */
    public static final String DEFAULT_DOMAIN = "gpu.nvidia.com/nvlinkDomain";

    /** The numbers of one side; memory in bytes. */
    public record Side(
            long placed,
            long pending,
            long boundBefore,
            long strandedDevices,
            long strandedGpuMemory,
            long crossDomainJobs,
            long migStrandedMemory,
            long healthyGpusLostToCordoning) {}

    /** Both runs, the numbers, how each claim request was mapped, and the decision tree's answers. */
    public record Result(
            SimulationResult dra,
            SimulationResult devicePlugins,
            Side draSide,
            Side devicePluginSide,
            List<String> mapping,
            List<DecisionTree.Answer> decision) {
        public Result {
            mapping = List.copyOf(mapping);
            decision = List.copyOf(decision);
        }
    }

    private DevicePluginComparison() {}

    public static Result run(
            ClusterSnapshot snapshot, SimulationOptions options, DevicePluginMapping mapping, String domainAttribute) {
        Inventory inventory = Inventory.of(snapshot.resourceSlices(), snapshot.deviceTaintRules(), domainAttribute);
        DevicePluginForm form = new DevicePluginForm(snapshot, inventory, mapping, options.gates());
        ClusterSnapshot dp = form.snapshot();
        SimulationResult draRun = new Simulator(options).run(snapshot);
        SimulationResult dpRun = new Simulator(options).run(dp);
        dpRun = assign(dpRun, inventory, form.layout());
        Map<String, Want> wants = wants(dpRun.finalState());
        Side draSide = side(draRun, inventory, draUse(draRun.finalState()), wants, Set.of(), Map.of());
        Set<String> cordoned = new HashSet<>();
        dpRun.finalState().nodes().stream()
                .filter(n ->
                        n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable()))
                .forEach(n -> cordoned.add(n.getMetadata().getName()));
        Side dpSide = side(dpRun, inventory, dpUse(dpRun.finalState()), wants, cordoned, form.layout());
        return new Result(
                draRun,
                dpRun,
                draSide,
                dpSide,
                form.forms().stream()
                        .map(DevicePluginForm.RequestForm::describe)
                        .toList(),
                DecisionTree.of(draRun, options.gates()));
    }

    private record Want(boolean gpu, boolean mig) {}

    private static Map<String, Want> wants(ClusterSnapshot dp) {
        Map<String, Want> m = new HashMap<>();
        for (Pod p : dp.pods()) {
            Set<String> r = limits(p).keySet();
            m.put(
                    id(p),
                    new Want(r.contains("nvidia.com/gpu"), r.stream().anyMatch(k -> k.startsWith("nvidia.com/mig-"))));
        }
        return m;
    }

    private static Map<String, Long> limits(Pod p) {
        Map<String, Long> m = new LinkedHashMap<>();
        p.getSpec().getContainers().forEach(c -> {
            if (c.getResources() != null && c.getResources().getLimits() != null) {
                c.getResources().getLimits().forEach((k, v) -> {
                    if (k.startsWith("nvidia.com/")) {
                        m.merge(k, Quantity.getAmountInBytes(v).longValue(), Long::sum);
                    }
                });
            }
        });
        return m;
    }

    private static String id(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    // kubelet with NVIDIA's device plugin: pods in the order they were bound take devices of their node.
    private static SimulationResult assign(SimulationResult r, Inventory inv, Map<String, List<String>> layout) {
        Map<String, Pod> byId = new LinkedHashMap<>();
        r.finalState().pods().forEach(p -> byId.put(id(p), p));
        Set<String> taken = new HashSet<>();
        byId.values().stream()
                .map(p -> p.getMetadata().getAnnotations() == null
                        ? null
                        : p.getMetadata().getAnnotations().get(DevicePluginForm.ASSIGNED))
                .filter(Objects::nonNull)
                .forEach(a -> taken.addAll(List.of(a.split(","))));
        Set<String> inLayout = new HashSet<>();
        layout.values().forEach(inLayout::addAll);
        for (PodResult pr : r.pods()) {
            Pod p = byId.get(pr.namespace() + "/" + pr.name());
            if (pr.placement() != PodResult.Placement.PLACED || p == null) {
                continue;
            }
            String node = p.getSpec().getNodeName();
            List<String> got = new ArrayList<>();
            limits(p).forEach((res, n) -> {
                List<Inventory.Dev> free = inv.devices().stream()
                        .filter(d -> d.node().equals(node)
                                && !d.failed()
                                && !taken.contains(d.key())
                                && (res.equals("nvidia.com/gpu")
                                        ? d.gpu() && !partitioned(d, inv, layout.getOrDefault(node, List.of()))
                                        : inLayout.contains(d.key()) && res.equals("nvidia.com/mig-" + d.profile())))
                        .toList();
                List<Inventory.Dev> pick = preferred(free, n.intValue());
                pick.forEach(d -> taken.add(d.key()));
                pick.forEach(d -> got.add(d.key()));
            });
            if (!got.isEmpty()) {
                byId.put(
                        id(p),
                        new PodBuilder(p)
                                .editMetadata()
                                .addToAnnotations(DevicePluginForm.ASSIGNED, String.join(",", got))
                                .endMetadata()
                                .build());
            }
        }
        ClusterSnapshot s = r.finalState();
        ClusterSnapshot assigned =
                s.with(s.nodes(), List.copyOf(byId.values()), s.resourceSlices(), s.resourceClaims());
        return new SimulationResult(r.pods(), r.events(), r.notes(), assigned, r.gangs());
    }

    /** A whole GPU whose partitions are in the node's MIG layout is not announced as nvidia.com/gpu. */
    private static boolean partitioned(Inventory.Dev gpu, Inventory inv, List<String> layout) {
        Map<String, Inventory.Dev> byKey = inv.byKey();
        return gpu.uuid() != null
                && layout.stream().map(byKey::get).anyMatch(m -> gpu.uuid().equals(m.parentUuid()));
    }

    /** The preferred allocation: the smallest domain that fits all, else the domains with most free first. */
    private static List<Inventory.Dev> preferred(List<Inventory.Dev> free, int n) {
        Map<String, List<Inventory.Dev>> perDomain = new java.util.TreeMap<>();
        free.forEach(d -> perDomain
                .computeIfAbsent(String.valueOf(d.domain()), k -> new ArrayList<>())
                .add(d));
        var fits = perDomain.values().stream().filter(l -> l.size() >= n).min(Comparator.comparingInt(List::size));
        if (fits.isPresent()) {
            return fits.get().subList(0, n);
        }
        List<Inventory.Dev> out = new ArrayList<>();
        perDomain.values().stream()
                .sorted(Comparator.comparingInt(l -> -l.size()))
                .forEach(out::addAll);
        return out.subList(0, Math.min(n, out.size()));
    }

    /** Per pod, the devices it holds: its claims' allocations without admin access. */
    private static Map<String, List<String>> draUse(ClusterSnapshot s) {
        Map<String, ResourceClaim> claims = new HashMap<>();
        s.resourceClaims()
                .forEach(c -> claims.put(
                        c.getMetadata().getNamespace() + "/" + c.getMetadata().getName(), c));
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Pod p : s.pods()) {
            Set<String> names = new java.util.LinkedHashSet<>();
            Inventory.list(p.getSpec().getResourceClaims()).stream()
                    .map(PodResourceClaim::getResourceClaimName)
                    .filter(Objects::nonNull)
                    .forEach(names::add);
            if (p.getStatus() != null) {
                Inventory.list(p.getStatus().getResourceClaimStatuses()).forEach(st -> {
                    if (st.getResourceClaimName() != null) {
                        names.add(st.getResourceClaimName());
                    }
                });
            }
            List<String> devs = new ArrayList<>();
            for (String n : names) {
                ResourceClaim c = claims.get(p.getMetadata().getNamespace() + "/" + n);
                if (c == null || c.getStatus() == null || c.getStatus().getAllocation() == null) {
                    continue;
                }
                for (DeviceRequestAllocationResult r :
                        c.getStatus().getAllocation().getDevices().getResults()) {
                    if (!Boolean.TRUE.equals(r.getAdminAccess())) {
                        devs.add(r.getDriver() + "/" + r.getPool() + "/" + r.getDevice());
                    }
                }
            }
            out.put(id(p), devs);
        }
        return out;
    }

    private static Map<String, List<String>> dpUse(ClusterSnapshot s) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Pod p : s.pods()) {
            String a = p.getMetadata().getAnnotations() == null
                    ? null
                    : p.getMetadata().getAnnotations().get(DevicePluginForm.ASSIGNED);
            out.put(id(p), a == null ? List.of() : List.of(a.split(",")));
        }
        return out;
    }

    // The numbers: stranded capacity counts only while pods that want it stay pending.
    private static Side side(
            SimulationResult r,
            Inventory inv,
            Map<String, List<String>> use,
            Map<String, Want> wants,
            Set<String> cordoned,
            Map<String, List<String>> layout) {
        Map<String, Inventory.Dev> byKey = inv.byKey();
        Set<String> used = new HashSet<>();
        use.values().forEach(used::addAll);
        Set<String> busyUuids = new HashSet<>();
        used.stream()
                .map(byKey::get)
                .filter(Objects::nonNull)
                .forEach(d -> busyUuids.add(d.gpu() ? d.uuid() : d.parentUuid()));
        boolean devicePlugins = !cordoned.isEmpty() || !layout.isEmpty();
        Set<String> inLayout = new HashSet<>();
        layout.values().forEach(inLayout::addAll);
        boolean pendingGpu = false;
        boolean pendingMig = false;
        for (PodResult p : r.pods()) {
            Want w = wants.getOrDefault(p.namespace() + "/" + p.name(), new Want(false, false));
            if (p.placement() == PodResult.Placement.PENDING) {
                pendingGpu |= w.gpu();
                pendingMig |= w.mig();
            }
        }
        long stranded = 0;
        long strandedMemory = 0;
        long migStranded = 0;
        long lost = 0;
        Set<String> partitionable = inv.partitionable();
        for (Inventory.Dev d : inv.devices()) {
            boolean usable = !d.failed() && !cordoned.contains(d.node());
            if (d.gpu()) {
                if (!d.failed() && cordoned.contains(d.node())) {
                    lost++;
                }
                boolean asGpu = !devicePlugins || !partitioned(d, inv, layout.getOrDefault(d.node(), List.of()));
                if (usable && asGpu && pendingGpu && !used.contains(d.key()) && !busyUuids.contains(d.uuid())) {
                    stranded++;
                    strandedMemory += d.memory().longValue();
                }
                if (!devicePlugins
                        && usable
                        && pendingMig
                        && partitionable.contains(d.uuid())
                        && !used.contains(d.key())) {
                    BigDecimal free = d.memory();
                    for (String k : used) {
                        Inventory.Dev m = byKey.get(k);
                        if (m != null && !m.gpu() && d.uuid().equals(m.parentUuid())) {
                            free = free.subtract(m.memory());
                        }
                    }
                    migStranded += free.longValue();
                }
            } else if (devicePlugins && usable && pendingMig && inLayout.contains(d.key()) && !used.contains(d.key())) {
                migStranded += d.memory().longValue();
            }
        }
        long crossDomain = 0;
        for (List<String> devs : use.values()) {
            Set<String> domains = new HashSet<>();
            long gpus = devs.stream()
                    .map(byKey::get)
                    .filter(d -> d != null && d.gpu())
                    .peek(d -> {
                        if (d.domain() != null) {
                            domains.add(d.domain());
                        }
                    })
                    .count();
            if (gpus > 1 && domains.size() > 1) {
                crossDomain++;
            }
        }
        return new Side(
                r.placed(), r.pending(), r.boundBefore(), stranded, strandedMemory, crossDomain, migStranded, lost);
    }

    /** {@code json} (of {@code Reports.json}) with {@code comparison.dra}, {@code comparison.devicePlugins}, mapping. */
    public static String json(String json, Result c) {
        tools.jackson.databind.json.JsonMapper mapper = tools.jackson.databind.json.JsonMapper.builder()
                .enable(tools.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                .build();
        tools.jackson.databind.node.ObjectNode root = (tools.jackson.databind.node.ObjectNode) mapper.readTree(json);
        tools.jackson.databind.node.ObjectNode cmp = root.putObject("comparison");
        cmp.set("dra", mapper.valueToTree(c.draSide()));
        cmp.set("devicePlugins", mapper.valueToTree(c.devicePluginSide()));
        tools.jackson.databind.node.ArrayNode m = cmp.putArray("mapping");
        c.mapping().forEach(m::add);
        tools.jackson.databind.node.ArrayNode decision = cmp.putArray("decision");
        for (DecisionTree.Answer a : c.decision()) {
            tools.jackson.databind.node.ObjectNode o = decision.addObject();
            o.put("need", a.need().key());
            o.put("question", a.need().question());
            o.put("needed", a.needed());
            tools.jackson.databind.node.ArrayNode w = o.putArray("workloads");
            a.workloads().forEach(w::add);
            tools.jackson.databind.node.ArrayNode u = o.putArray("uses");
            a.uses().forEach(u::add);
        }
        return mapper.writeValueAsString(root);
    }

    /** The side-by-side table and the mapping, for people. */
    public static void text(Result c, PrintWriter out) {
        out.println("DRA vs device plugins (same workloads, same scheduler):");
        out.printf("  %-38s %12s %16s%n", "", "DRA", "device plugins");
        row(out, "pods placed", c.draSide().placed(), c.devicePluginSide().placed());
        row(out, "pods pending", c.draSide().pending(), c.devicePluginSide().pending());
        row(
                out,
                "GPUs stranded (free, GPU pods pending)",
                c.draSide().strandedDevices(),
                c.devicePluginSide().strandedDevices());
        out.printf(
                "  %-38s %12s %16s%n",
                "GPU memory stranded",
                gib(c.draSide().strandedGpuMemory()),
                gib(c.devicePluginSide().strandedGpuMemory()));
        row(
                out,
                "multi-GPU pods across domains",
                c.draSide().crossDomainJobs(),
                c.devicePluginSide().crossDomainJobs());
        out.printf(
                "  %-38s %12s %16s%n",
                "MIG memory stranded (MIG pods pending)",
                gib(c.draSide().migStrandedMemory()),
                gib(c.devicePluginSide().migStrandedMemory()));
        row(
                out,
                "healthy GPUs lost to cordoning",
                c.draSide().healthyGpusLostToCordoning(),
                c.devicePluginSide().healthyGpusLostToCordoning());
        out.println();
        out.println("Device-plugin form of each claim request:");
        c.mapping().forEach(m -> out.printf("  %s%n", m));
        out.println();
        out.println("Do we need to migrate? What the workloads use that device plugins cannot express:");
        for (DecisionTree.Answer a : c.decision()) {
            out.printf(
                    "  %s: %s%n",
                    a.need().question(),
                    a.needed()
                            ? "yes, " + a.workloads().size() + " workload(s): " + shown(a.workloads())
                            : "no workload needs it");
            a.uses().stream().limit(USES_SHOWN).forEach(u -> out.printf("      %s%n", u));
            if (a.uses().size() > USES_SHOWN) {
                out.printf(
                        "      ... (+%d more; all in --output json)%n", a.uses().size() - USES_SHOWN);
            }
        }
        out.flush();
    }

    private static final int USES_SHOWN = 3;
    private static final int WORKLOADS_SHOWN = 6;

    private static String shown(List<String> names) {
        String first = String.join(", ", names.subList(0, Math.min(WORKLOADS_SHOWN, names.size())));
        return names.size() > WORKLOADS_SHOWN ? first + ", ... (+" + (names.size() - WORKLOADS_SHOWN) + ")" : first;
    }

    private static void row(PrintWriter out, String what, long dra, long dp) {
        out.printf("  %-38s %12d %16d%n", what, dra, dp);
    }

    private static String gib(long bytes) {
        return bytes / (1L << 30) + "Gi";
    }
}
