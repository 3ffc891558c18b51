package io.dra4j.testkit.simdiff;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.LiveClusterException;
import io.dra4j.scenario.LiveSnapshot;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SchedulingTrace;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import io.dra4j.sim.TraceAttempt;
import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.dra4j.testkit.controlplane.PodPlacement;
import io.dra4j.testkit.controlplane.RealScheduler;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * End to end against the real kube-scheduler 1.37 (and kube-apiserver, etcd, the resource claim controller): generated
 * snapshots are loaded into a real cluster and their pods scheduled one at a time. Before each pod is released to the
 * scheduler, {@code dra4j simulate} decides it from a snapshot of that very cluster taken through the fabric8 client
 * (what {@code --from-cluster} reads); then the real scheduler decides it, and the two decisions are compared: bound
 * or not, the node (the real scheduler picks at random among equal best scores, so its node must be one of dra4j's
 * best), every claim's allocation on that node, and an unschedulable pod's PodScheduled message.
 *
 * <p>The snapshots hold what the in-process differential test's do: Services, ReplicaSets, ReplicationControllers and
 * StatefulSets whose selectors make PodTopologySpread's default spreading (created before the pods, which name them
 * as their controllers; none of those controllers runs), and node images (status.images, for ImageLocality).
 * A pod the real scheduler leaves unschedulable is deleted before the next one, so that a later retry of it
 * cannot change the cluster behind the comparison. Left out of the generated fleets: preemption (no kubelet runs to
 * finish a victim's deletion). The in-process differential test ({@code oracle/sim-difftest}) covers many more
 * snapshots; this test shows that the whole path, real server objects included, decides as the real scheduler does.
 */
class RealSchedulerDifferentialIT {
    private static final long SEED = 37;
    private static final Duration POD_TIMEOUT = Duration.ofSeconds(60);
    private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** How many snapshots: a handful by default (about 8 s each), more with {@code -Ddra4j.e2e.snapshots=N}. */
    static IntStream snapshots() {
        return IntStream.range(0, Integer.getInteger("dra4j.e2e.snapshots", 10));
    }

    @ParameterizedTest(name = "generated snapshot {0}")
    @MethodSource("snapshots")
    void dra4jDecidesEveryPodAsTheRealSchedulerDoes(int index) {
        List<HasMetadata> objects = generated(index);
        List<Pod> pending = new ArrayList<>();
        List<HasMetadata> base = new ArrayList<>();
        for (HasMetadata object : objects) {
            if (object instanceof Pod pod) {
                // The Priority admission plugin computes spec.priority and spec.preemptionPolicy from the class and
                // rejects a pod that sets other values; the snapshot dra4j simulates is what the server stored.
                pod.getSpec().setPriority(null);
                pod.getSpec().setPreemptionPolicy(null);
                if (pod.getSpec().getNodeName() == null) {
                    pending.add(pod);
                    continue;
                }
            }
            base.add(object);
        }
        if (base.stream().noneMatch(o -> o instanceof PriorityClass c && Boolean.TRUE.equals(c.getGlobalDefault()))) {
            // Pods without a class then never preempt either (no kubelet would finish a victim's deletion).
            base.add(new PriorityClassBuilder()
                    .withNewMetadata()
                    .withName("never-preempt")
                    .endMetadata()
                    .withValue(0)
                    .withGlobalDefault(true)
                    .withPreemptionPolicy("Never")
                    .build());
        }
        List<String> divergences = new ArrayList<>();
        int bound = 0;
        try (ControlPlane plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.scheduling())) {
            RealScheduler scheduler = new RealScheduler(plane);
            scheduler.apply(base);
            for (Pod pod : pending) {
                Pod held = scheduler.hold(ownedByTheServersControllers(plane, pod), POD_TIMEOUT);
                String key = held.getMetadata().getNamespace() + "/"
                        + held.getMetadata().getName();
                List<HasMetadata> live = released(live(plane), held);
                Decision dra4j = Decision.of(simulate(live), key);

                PodPlacement real = scheduler.release(held, POD_TIMEOUT);

                divergences.addAll(compare(key, dra4j, real, live));
                if (real.bound()) {
                    bound++;
                } else {
                    scheduler.delete(
                            held.getMetadata().getNamespace(),
                            held.getMetadata().getName(),
                            POD_TIMEOUT);
                }
            }
        }
        assertThat(divergences)
                .as("snapshot %d: %d pods, %d bound", index, pending.size(), bound)
                .isEmpty();
        assertThat(pending).as("snapshot %d has pods to schedule", index).isNotEmpty();
    }

    /** dra4j's decision for one pod: its first attempt in the trace and its result. */
    private record Decision(TraceAttempt attempt, PodResult result) {
        static Decision of(Run run, String key) {
            TraceAttempt attempt = run.attempts().stream()
                    .filter(a -> key.equals(a.namespace() + "/" + a.name()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("dra4j made no attempt for " + key));
            PodResult result = run.result().pods().stream()
                    .filter(p -> key.equals(p.namespace() + "/" + p.name()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("dra4j has no result for " + key));
            return new Decision(attempt, result);
        }
    }

    private record Run(SimulationResult result, List<TraceAttempt> attempts) {}

    private static List<String> compare(String key, Decision dra4j, PodPlacement real, List<HasMetadata> live) {
        List<String> out = new ArrayList<>();
        Optional<String> dra4jNode = dra4j.attempt().node();
        if (real.bound() != dra4jNode.isPresent()) {
            out.add(key + ": the real scheduler "
                    + (real.bound()
                            ? "bound it to " + real.node().orElseThrow()
                            : "left it unschedulable (" + real.message() + ")")
                    + ", dra4j "
                    + dra4jNode
                            .map(n -> "bound it to " + n)
                            .orElse("left it pending (" + dra4j.result().reason() + ")"));
            return out;
        }
        if (!real.bound()) {
            if (!real.message().equals(dra4j.result().reason())) {
                out.add(key + ": PodScheduled message differs:\n  real:  " + real.message() + "\n  dra4j: "
                        + dra4j.result().reason());
            }
            return out;
        }
        String node = real.node().orElseThrow();
        if (!dra4j.attempt().best().contains(node)) {
            out.add(key + ": the real scheduler chose " + node + ", not one of dra4j's best "
                    + dra4j.attempt().best() + " (scores " + dra4j.attempt().scores() + ")");
            return out;
        }
        // On a tie the real scheduler may have taken another of the best nodes: dra4j's allocation there is the one
        // it makes with the pod pinned to that node (a node's allocation does not depend on the other nodes).
        Map<String, AllocationResult> allocations = node.equals(dra4jNode.orElseThrow())
                ? dra4j.attempt().claims()
                : Decision.of(simulate(pinned(live, key, node)), key).attempt().claims();
        for (Map.Entry<String, ResourceClaim> claim : real.claims().entrySet()) {
            List<String> realDevices = devices(claim.getValue().getStatus().getAllocation());
            List<String> dra4jDevices = Optional.ofNullable(allocations.get(claim.getKey()))
                    .map(RealSchedulerDifferentialIT::devices)
                    .orElse(List.of("(no allocation)"));
            if (!realDevices.equals(dra4jDevices)) {
                out.add(key + ": claim " + claim.getKey() + " on " + node + ": real " + realDevices + ", dra4j "
                        + dra4jDevices);
            }
        }
        return out;
    }

    private static List<String> devices(AllocationResult allocation) {
        return allocation.getDevices().getResults().stream()
                .map((DeviceRequestAllocationResult r) ->
                        r.getRequest() + "=" + r.getDriver() + "/" + r.getPool() + "/" + r.getDevice())
                .toList();
    }

    private static Run simulate(List<HasMetadata> live) {
        byte[] yaml = new LiveSnapshot("real kube-apiserver", live, List.of())
                .toYaml()
                .getBytes(StandardCharsets.UTF_8);
        Manifests manifests = ManifestReader.parse(yaml, "real cluster");
        assertThat(manifests.problems())
                .as("the live cluster read as dra4j simulate --from-cluster reads it")
                .isEmpty();
        List<TraceAttempt> attempts = new ArrayList<>();
        SimulationResult result = new Simulator(SimulationOptions.defaults())
                .run(ClusterSnapshot.of(manifests), (SchedulingTrace) attempts::add);
        return new Run(result, attempts);
    }

    /** The live objects with the held pod as the scheduler will see it once released: without the hold gate. */
    private static List<HasMetadata> released(List<HasMetadata> live, Pod held) {
        List<HasMetadata> out = new ArrayList<>();
        for (HasMetadata object : live) {
            if (object instanceof Pod pod
                    && pod.getMetadata().getUid().equals(held.getMetadata().getUid())) {
                Pod copy = FABRIC8.clone(pod);
                copy.getSpec()
                        .setSchedulingGates(copy.getSpec().getSchedulingGates().stream()
                                .filter(g -> !RealScheduler.HOLD_GATE.equals(g.getName()))
                                .toList());
                out.add(copy);
            } else {
                out.add(object);
            }
        }
        return out;
    }

    /** The live objects with the pod {@code key} required (by node affinity on the node's name) to run on node. */
    private static List<HasMetadata> pinned(List<HasMetadata> live, String key, String node) {
        List<HasMetadata> out = new ArrayList<>();
        for (HasMetadata object : live) {
            if (object instanceof Pod pod
                    && key.equals(pod.getMetadata().getNamespace() + "/"
                            + pod.getMetadata().getName())) {
                Pod copy = FABRIC8.clone(pod);
                copy.getSpec().setNodeSelector(null);
                copy.getSpec().setTopologySpreadConstraints(null);
                copy.getSpec()
                        .setAffinity(new AffinityBuilder()
                                .withNewNodeAffinity()
                                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                                .withNodeSelectorTerms(new NodeSelectorTermBuilder()
                                        .withMatchFields(new NodeSelectorRequirementBuilder()
                                                .withKey("metadata.name")
                                                .withOperator("In")
                                                .withValues(node)
                                                .build())
                                        .build())
                                .endRequiredDuringSchedulingIgnoredDuringExecution()
                                .endNodeAffinity()
                                .build());
                out.add(copy);
            } else {
                out.add(object);
            }
        }
        return out;
    }

    /**
     * Without preemption (see above) and without gangs: the control plane runs 1.37's default gates, under which
     * GenericWorkload is off and kube-apiserver does not serve scheduling.k8s.io/v1beta1 PodGroups; gangs are proven
     * against upstream's GangScheduling by the in-process differential ({@code oracle/sim-difftest}).
     */
    private static List<HasMetadata> generated(int index) {
        String json = JSON.writeValueAsString(FleetGenerator.generate(
                SEED, index, EnumSet.of(FleetGenerator.Feature.PREEMPTION, FleetGenerator.Feature.GANGS)));
        KubernetesList list = FABRIC8.unmarshal(json, KubernetesList.class);
        return list.getItems();
    }

    /**
     * The pod with its owner references pointing at the controllers as the server created them (their UIDs are the
     * server's), as a controller's own pods would.
     */
    private static Pod ownedByTheServersControllers(ControlPlane plane, Pod pod) {
        if (pod.getMetadata().getOwnerReferences() == null) {
            return pod;
        }
        Pod copy = FABRIC8.clone(pod);
        for (OwnerReference owner : copy.getMetadata().getOwnerReferences()) {
            GenericKubernetesResource controller = plane.client()
                    .genericKubernetesResources(owner.getApiVersion(), owner.getKind())
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(owner.getName())
                    .get();
            assertThat(controller)
                    .as(
                            "the controller %s %s of pod %s",
                            owner.getKind(), owner.getName(), pod.getMetadata().getName())
                    .isNotNull();
            owner.setUid(controller.getMetadata().getUid());
        }
        return copy;
    }

    /** The cluster's objects as {@code --from-cluster} lists them. */
    private static List<HasMetadata> live(ControlPlane plane) {
        try {
            return LiveSnapshot.take(plane.client()).objects();
        } catch (LiveClusterException e) {
            throw new AssertionError("listing the real cluster: " + e.getMessage(), e);
        }
    }
}
