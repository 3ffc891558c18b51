package io.dra4j.sim;

import static io.dra4j.sim.Snapshots.GPU_CLASS;
import static io.dra4j.sim.Snapshots.pod;
import static io.dra4j.sim.Snapshots.simulate;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DefaultPreemption. Expected victims, nodes and messages follow kube-scheduler 1.37's code
 * (preemption.Evaluator, DefaultPreemption.SelectVictimsOnNode, pickOneNodeForPreemption, FitError.Error).
 */
class PreemptionTest {
    private static final String NODE = """
            apiVersion: v1
            kind: Node
            metadata:
              name: %1$s
              labels: {kubernetes.io/hostname: %1$s}
            status:
              allocatable: {cpu: "%2$s", memory: 64Gi, pods: "110"}
            """;
    private static final String BOUND = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: %1$s
              namespace: ns
              uid: uid-%1$s
              labels: {app: %1$s}
            spec:
              nodeName: %2$s
              priority: %3$d
              containers:
              - name: main
                resources:
                  requests: {cpu: "%4$s"}
            status:
              phase: Running
              startTime: "%5$s"
            """;
    private static final String PENDING = """
            apiVersion: v1
            kind: Pod
            metadata: {name: %1$s, namespace: ns, uid: uid-%1$s}
            spec:
              priority: %2$d
              %4$s
              containers:
              - name: main
                resources:
                  requests: {cpu: "%3$s"}
            """;

    private static String node(String name, int cpu) {
        return NODE.formatted(name, cpu);
    }

    private static String bound(String name, String node, int priority, int cpu) {
        return BOUND.formatted(name, node, priority, cpu, "2026-01-01T00:00:00Z");
    }

    private static String pending(String name, int priority, int cpu) {
        return PENDING.formatted(name, priority, cpu, "");
    }

    private static Pod finalPod(SimulationResult r, String name) {
        return r.finalState().pods().stream()
                .filter(p -> p.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no pod " + name + " in the final state"));
    }

    @Test
    void aHigherPriorityPodPreemptsALowerOneNominatesTheNodeAndIsBoundThere() {
        SimulationResult r = simulate(node("n1", 4), bound("low", "n1", 0, 3), pending("high", 100, 2));

        assertThat(pod(r, "high").node()).contains("n1");
        assertThat(pod(r, "low").placement()).isEqualTo(PodResult.Placement.PREEMPTED);
        assertThat(pod(r, "low").reason()).isEqualTo("Preempted by pod uid-high on node n1");
        assertThat(finalPod(r, "high").getStatus().getNominatedNodeName()).isEqualTo("n1");
        assertThat(r.finalState().pods())
                .extracting(p -> p.getMetadata().getName())
                .containsExactly("high");
        assertThat(r.events())
                .extracting(e -> e.reason() + " " + e.pod() + ": " + e.message())
                .containsExactly(
                        "FailedScheduling high: 0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential"
                                + " placement for pod on node n1, preempting 1 victims",
                        "Preempted low: Preempted by pod uid-high on node n1",
                        "Scheduled high: Successfully assigned ns/high to n1");
    }

    @Test
    void aPodOfABasicPodGroupDoesNotPreemptInItsPodGroupCycle() {
        String podGroup = """
                apiVersion: scheduling.k8s.io/v1beta1
                kind: PodGroup
                metadata: {name: loose, namespace: ns}
                spec:
                  priority: 100
                  schedulingPolicy: {basic: {}}
                """;
        SimulationResult r = simulate(
                node("n1", 4),
                bound("low", "n1", 0, 3),
                podGroup,
                PENDING.formatted("high", 100, 2, "schedulingGroup: {podGroupName: loose}"));

        assertThat(pod(r, "high").placement()).isEqualTo(PodResult.Placement.PENDING);
        assertThat(pod(r, "high").reason()).isEqualTo("0/1 nodes are available: 1 Insufficient cpu.");
        assertThat(pod(r, "low").node()).contains("n1");
        assertThat(r.gangs()).isEmpty();
    }

    @Test
    void victimsArePutBackFromTheMostImportantDownSoOnlyTheLeastImportantGoes() {
        // 4 cpu: a (10), b (5), c (1) use 1 each; high needs 2. All three off, then a and b fit back, c does not.
        SimulationResult r = simulate(
                node("n1", 4),
                bound("a", "n1", 10, 1),
                bound("b", "n1", 5, 1),
                bound("c", "n1", 1, 1),
                pending("high", 100, 2));

        assertThat(pod(r, "high").node()).contains("n1");
        assertThat(r.pods())
                .filteredOn(p -> p.placement() == PodResult.Placement.PREEMPTED)
                .extracting(PodResult::name)
                .containsExactly("c");
    }

    @Test
    void theNodeWithFewerPdbViolationsWinsOverTheOneWithLowerPriorityVictims() {
        String pdb = """
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: keep-px, namespace: ns}
                spec:
                  selector: {matchLabels: {app: px}}
                status: {disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1}
                """;
        String[] cluster = {
            node("n1", 2), node("n2", 2), bound("px", "n1", 1, 2), bound("py", "n2", 50, 2), pending("high", 100, 2)
        };

        SimulationResult withPdb = simulate(concat(cluster, pdb));
        assertThat(pod(withPdb, "high").node()).contains("n2");
        assertThat(pod(withPdb, "py").placement()).isEqualTo(PodResult.Placement.PREEMPTED);
        assertThat(pod(withPdb, "px").placement()).isEqualTo(PodResult.Placement.BOUND_BEFORE);

        // Without the PDB the lower highest-priority victim decides.
        SimulationResult without = simulate(cluster);
        assertThat(pod(without, "high").node()).contains("n1");
        assertThat(pod(without, "px").placement()).isEqualTo(PodResult.Placement.PREEMPTED);
    }

    @Test
    void amongEqualCandidatesFewerVictimsThenTheLatestStartedWin() {
        // n1 needs two victims of priority 1, n2 one: same highest priority, n2's sum is smaller.
        SimulationResult fewer = simulate(
                node("n1", 2),
                node("n2", 2),
                bound("a1", "n1", 1, 1),
                bound("a2", "n1", 1, 1),
                bound("b", "n2", 1, 2),
                pending("high", 100, 2));
        assertThat(pod(fewer, "high").node()).contains("n2");

        // Same victims' priorities and counts: the node whose victim started last.
        SimulationResult later = simulate(
                node("n1", 2),
                node("n2", 2),
                BOUND.formatted("early", "n1", 1, 2, "2026-01-01T00:00:00Z"),
                BOUND.formatted("late", "n2", 1, 2, "2026-01-02T00:00:00Z"),
                pending("high", 100, 2));
        assertThat(pod(later, "high").node()).contains("n2");
        assertThat(pod(later, "late").placement()).isEqualTo(PodResult.Placement.PREEMPTED);
    }

    @Test
    void aPodRejectedInPreFilterIsNotEligibleWithPolicyNeverAndOtherwiseFindsPreemptionNotHelpful() {
        String never = PENDING.formatted(
                "high", 100, 1, "preemptionPolicy: Never\n  resourceClaims: [{name: gpu, resourceClaimName: missing}]");
        String preempting =
                PENDING.formatted("high", 100, 1, "resourceClaims: [{name: gpu, resourceClaimName: missing}]");

        assertThat(pod(simulate(node("n1", 4), never), "high").reason())
                .isEqualTo(
                        "0/1 nodes are available: could not find ResourceClaim \"ns/missing\". preemption: not eligible due to"
                                + " preemptionPolicy=Never.");
        assertThat(pod(simulate(node("n1", 4), preempting), "high").reason())
                .isEqualTo(
                        "0/1 nodes are available: could not find ResourceClaim \"ns/missing\". preemption: 0/1 nodes are"
                                + " available: 1 Preemption is not helpful for scheduling.");
    }

    @Test
    void preemptionPolicyNeverLeavesThePodPendingWithUpstreamsMessage() {
        SimulationResult r = simulate(
                node("n1", 4), bound("low", "n1", 0, 3), PENDING.formatted("high", 100, 2, "preemptionPolicy: Never"));

        assertThat(pod(r, "high").reason())
                .isEqualTo(
                        "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.");
        assertThat(pod(r, "low").placement()).isEqualTo(PodResult.Placement.BOUND_BEFORE);
    }

    @Test
    void withoutLowerPriorityPodsTheDryRunReportsNoVictimsAndUnresolvableNodesAreNotHelped() {
        String tainted = """
                apiVersion: v1
                kind: Node
                metadata: {name: t1}
                spec:
                  taints: [{key: k, value: v, effect: NoSchedule}]
                status:
                  allocatable: {cpu: "8", memory: 64Gi, pods: "110"}
                """;
        SimulationResult r = simulate(node("n1", 4), tainted, bound("peer", "n1", 100, 3), pending("high", 100, 2));

        assertThat(pod(r, "high").reason())
                .isEqualTo("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had"
                        + " untolerated taint(s). preemption: 0/2 nodes are available: 1 No preemption victims found for"
                        + " incoming pod, 1 Preemption is not helpful for scheduling.");
        assertThat(finalPod(r, "high").getStatus().getNominatedNodeName()).isNull();
    }

    @Test
    void nodesDynamicResourcesRejectsAreUnresolvableAndADryRunDoesNotFreeAVictimsDevices() {
        String template = """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: one, namespace: ns}
                spec:
                  spec:
                    devices:
                      requests:
                      - name: gpus
                        exactly: {deviceClassName: gpu, count: 1}
                """;
        String gpuPod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: high, namespace: ns}
                spec:
                  priority: 100
                  containers: [{name: main, resources: {requests: {cpu: "%d"}}}]
                  resourceClaims: [{name: gpus, resourceClaimTemplateName: one}]
                """;
        // Only the GPU is missing: DynamicResources' rejection is UnschedulableAndUnresolvable, no dry run.
        SimulationResult gpuOnly = simulate(
                GPU_CLASS, Snapshots.node("n1", 1), template, allocatedClaim(), boundGpuPod(), gpuPod.formatted(1));
        assertThat(pod(gpuOnly, "high").reason())
                .isEqualTo("0/1 nodes are available: 1 cannot allocate all claims."
                        + " preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");

        // cpu is missing too, so the node is tried; with the holder gone the GPU is still in use for the dry run.
        SimulationResult both = simulate(
                GPU_CLASS, Snapshots.node("n1", 1), template, allocatedClaim(), boundGpuPod(), gpuPod.formatted(2));
        assertThat(pod(both, "high").reason())
                .isEqualTo("0/1 nodes are available: 1 Insufficient cpu."
                        + " preemption: 0/1 nodes are available: 1 cannot allocate all claims.");
        assertThat(pod(both, "holder").placement()).isEqualTo(PodResult.Placement.BOUND_BEFORE);
    }

    @Test
    void aVictimsClaimsAreReleasedAndItsReplicaSetCreatesAReplacementThatIsScheduledAgain() {
        String high = PENDING.formatted("high", 100, 15, "");
        SimulationResult r = simulate(
                GPU_CLASS,
                Snapshots.node("n1", 1),
                allocatedClaim(),
                boundGpuPod().replace("  uid: uid-holder\n", """
                          uid: uid-holder
                          generateName: rs-
                          ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: rs-uid, controller: true}]
                        """),
                high,
                """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: one, namespace: ns}
                spec:
                  spec:
                    devices:
                      requests:
                      - name: gpus
                        exactly: {deviceClassName: gpu, count: 1}
                """);

        assertThat(pod(r, "high").node()).contains("n1");
        assertThat(pod(r, "holder").placement()).isEqualTo(PodResult.Placement.PREEMPTED);
        // The claim was generated for the victim: deleted. The replacement gets its own claim and stays pending.
        List<ResourceClaim> claims = r.finalState().resourceClaims();
        assertThat(claims).extracting(c -> c.getMetadata().getName()).doesNotContain("holder-gpus-abcde");
        PodResult replacement = r.pods().stream()
                .filter(p -> p.name().startsWith("rs-"))
                .findFirst()
                .orElseThrow();
        assertThat(replacement.placement()).isEqualTo(PodResult.Placement.PENDING);
        assertThat(replacement.workload()).isEqualTo("ReplicaSet ns/rs");
        assertThat(replacement.reason()).startsWith("0/1 nodes are available: 1 Insufficient cpu.");
        assertThat(claims).singleElement().satisfies(c -> {
            assertThat(c.getMetadata().getOwnerReferences().get(0).getName()).isEqualTo(replacement.name());
            assertThat(c.getStatus()).isNull();
        });
    }

    /** A claim allocated to "holder" on n1 (gpu-0), generated from template "one" for it. */
    private static String allocatedClaim() {
        return """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata:
                  name: holder-gpus-abcde
                  namespace: ns
                  finalizers: [resource.kubernetes.io/delete-protection]
                  annotations: {resource.kubernetes.io/pod-claim-name: gpus}
                  ownerReferences: [{apiVersion: v1, kind: Pod, name: holder, uid: uid-holder, controller: true}]
                spec:
                  devices:
                    requests:
                    - name: gpus
                      exactly: {deviceClassName: gpu, count: 1}
                status:
                  allocation:
                    devices:
                      results: [{request: gpus, driver: gpu.example.com, pool: n1, device: gpu-0}]
                  reservedFor: [{resource: pods, name: holder, uid: uid-holder}]
                """;
    }

    private static String boundGpuPod() {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: holder
                  namespace: ns
                  uid: uid-holder
                spec:
                  nodeName: n1
                  priority: 0
                  containers: [{name: main, resources: {requests: {cpu: "15"}}}]
                  resourceClaims: [{name: gpus, resourceClaimTemplateName: one}]
                status:
                  phase: Running
                  resourceClaimStatuses: [{name: gpus, resourceClaimName: holder-gpus-abcde}]
                """;
    }

    private static String[] concat(String[] a, String b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + 1);
        out[a.length] = b;
        return out;
    }
}
