package io.dra4j.sim;

import static io.dra4j.sim.Snapshots.GPU_CLASS;
import static io.dra4j.sim.Snapshots.node;
import static io.dra4j.sim.Snapshots.parse;
import static io.dra4j.sim.Snapshots.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GangSchedulingTest {
    private static final String TEMPLATE = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: %s, namespace: ns}
            spec:
              spec:
                devices:
                  requests:
                  - name: gpus
                    exactly: {deviceClassName: gpu, count: %d}
            """;
    /** A Job whose pods name PodGroup {@code %3$s} (none when empty), each with a claim from template {@code %4$s}. */
    private static final String JOB = """
            apiVersion: batch/v1
            kind: Job
            metadata: {name: %1$s, namespace: ns, creationTimestamp: "2026-01-01T00:00:00Z"}
            spec:
              parallelism: %2$d
              completions: %2$d
              template:
                spec:
                  %3$s
                  restartPolicy: Never
                  containers:
                  - name: main
                    image: trainer
                    resources: {requests: {cpu: "1"}}
                  resourceClaims:
                  - name: gpus
                    resourceClaimTemplateName: %4$s
            """;

    private static final String POD_GROUP = """
            apiVersion: scheduling.k8s.io/v1beta1
            kind: PodGroup
            metadata: {name: %s, namespace: ns}
            spec:
              schedulingPolicy: {gang: {minCount: %d}}
            """;
    private static final String LATER_POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: %s, namespace: ns, creationTimestamp: "2026-01-01T01:00:00Z", labels: {%s}}
            spec:
              containers:
              - name: main
                image: x
                resources: {requests: {cpu: "1"}}
              resourceClaims:
              - name: gpus
                resourceClaimTemplateName: %s
            """;

    private static SimulationResult run(List<SimulationOptions.Gang> gangs, String... documents) {
        ClusterSnapshot s = parse(documents);
        String before = dump(s);
        SimulationResult r = new Simulator(SimulationOptions.defaults().withGangs(gangs)).run(s);
        assertThat(dump(s)).as("the snapshot's objects are not modified").isEqualTo(before);
        return r;
    }

    private static String dump(ClusterSnapshot s) {
        List<HasMetadata> all = new ArrayList<>(s.pods());
        all.addAll(s.resourceClaims());
        all.addAll(s.jobs());
        all.addAll(s.podGroups());
        all.addAll(s.workloads());
        return Serialization.asYaml(all);
    }

    private static long allocatedClaims(SimulationResult r) {
        return r.finalState().resourceClaims().stream()
                .filter(c -> c.getStatus() != null && c.getStatus().getAllocation() != null)
                .count();
    }

    @Test
    void aJobsGangOfTemplateClaimsThatFitsIsPlacedWhole() {
        SimulationResult r = run(
                List.of(),
                GPU_CLASS,
                node("n1", 2),
                node("n2", 2),
                TEMPLATE.formatted("one", 1),
                POD_GROUP.formatted("workers", 4),
                JOB.formatted("train", 4, "schedulingGroup: {podGroupName: workers}", "one"));

        assertThat(r.placed()).isEqualTo(4);
        assertThat(r.gangs()).singleElement().satisfies(g -> {
            assertThat(g.name()).isEqualTo("PodGroup ns/workers");
            assertThat(g.fits()).isTrue();
            assertThat(g.placed()).isEqualTo(4);
            assertThat(g.members()).hasSize(4).allMatch(m -> m.startsWith("ns/train-"));
            assertThat(g.reason()).isEmpty();
        });
        assertThat(allocatedClaims(r)).isEqualTo(4);
    }

    @Test
    void aPodGroupWhosePriorityIsNotItsMembersFailsValidationAndNoMemberIsTried() {
        String priorityClass = """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: 1000
                """;
        SimulationResult r = run(
                List.of(),
                GPU_CLASS,
                priorityClass,
                node("n1", 4),
                TEMPLATE.formatted("one", 1),
                POD_GROUP.formatted("workers", 2),
                JOB.formatted(
                        "train", 2, "schedulingGroup: {podGroupName: workers}\n      priorityClassName: high", "one"));

        String message =
                "all pods in a single pod group should have the same priority as the pod group's priority, got 1000 and 0";
        assertThat(r.placed()).isZero();
        assertThat(r.pods()).hasSize(2).allSatisfy(p -> assertThat(p.reason()).isEqualTo(message));
        assertThat(r.gangs()).singleElement().satisfies(g -> {
            assertThat(g.fits()).isFalse();
            assertThat(g.reason()).isEqualTo(message);
        });
        assertThat(allocatedClaims(r)).isZero();
    }

    @Test
    void aGangThatDoesNotFitReservesNothingAndLaterPodsUseTheDevices() {
        SimulationResult r = run(
                List.of(),
                GPU_CLASS,
                node("n1", 2),
                node("n2", 2),
                TEMPLATE.formatted("one", 1),
                TEMPLATE.formatted("two", 2),
                POD_GROUP.formatted("workers", 5),
                JOB.formatted("train", 5, "schedulingGroup: {podGroupName: workers}", "one"),
                LATER_POD.formatted("later-a", "", "two"),
                LATER_POD.formatted("later-b", "", "two"));

        GangResult g = r.gangs().get(0);
        assertThat(g.fits()).isFalse();
        assertThat(g.placed()).isZero();
        assertThat(g.fitted()).isEqualTo(4);
        assertThat(g.missing()).isEqualTo(1);
        assertThat(g.reason()).isEqualTo("minCount (5) cannot be satisfied: 4 scheduled, 0 remaining");
        assertThat(g.firstUnfit()).isEqualTo(g.members().get(4));
        assertThat(g.unfitReason()).startsWith("0/2 nodes are available: 2 cannot allocate all claims.");
        assertThat(g.unfitDraReason()).contains("claim ns/");
        for (String m : g.members()) {
            PodResult p = pod(r, m.substring(3));
            assertThat(p.placement()).isEqualTo(PodResult.Placement.PENDING);
            assertThat(p.node()).isEmpty();
        }
        assertThat(pod(r, g.members().get(0).substring(3)).reason()).isEqualTo(g.reason());
        // Every device the gang held in its attempt is free again: the two later pods take all four.
        assertThat(pod(r, "later-a").node()).isPresent();
        assertThat(pod(r, "later-b").node()).isPresent();
        for (ResourceClaim c : r.finalState().resourceClaims()) {
            boolean gangClaim = c.getMetadata().getName().startsWith("train-");
            assertThat(c.getStatus() == null || c.getStatus().getAllocation() == null)
                    .isEqualTo(gangClaim);
            if (gangClaim) {
                assertThat(c.getStatus() == null || c.getStatus().getReservedFor() == null)
                        .isTrue();
                assertThat(c.getMetadata().getFinalizers()).isNullOrEmpty();
            }
        }
        assertThat(r.finalState().pods().stream()
                        .filter(p -> p.getMetadata().getName().startsWith("train-")))
                .allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isNull());
    }

    @Test
    void minCountBelowTheGangsSizePlacesWhatFitsOnceMinCountDoes() {
        SimulationResult r = run(
                List.of(),
                GPU_CLASS,
                node("n1", 2),
                node("n2", 2),
                TEMPLATE.formatted("one", 1),
                POD_GROUP.formatted("workers", 3),
                JOB.formatted("train", 5, "schedulingGroup: {podGroupName: workers}", "one"));

        GangResult g = r.gangs().get(0);
        assertThat(g.fits()).isTrue();
        assertThat(g.placed()).isEqualTo(4);
        assertThat(g.minCount()).isEqualTo(3);
        assertThat(g.firstUnfit()).isEqualTo(g.members().get(4));
        PodResult last = pod(r, g.members().get(4).substring(3));
        assertThat(last.placement()).isEqualTo(PodResult.Placement.PENDING);
        assertThat(last.reason()).startsWith("0/2 nodes are available: 2 cannot allocate all claims.");
        assertThat(allocatedClaims(r)).isEqualTo(4);
    }

    @Test
    void aMinCountAboveTheMembersWaitsInPreEnqueueAndAMissingPodGroupHoldsItsPods() {
        SimulationResult r = run(
                List.of(),
                GPU_CLASS,
                node("n1", 4),
                TEMPLATE.formatted("one", 1),
                POD_GROUP.formatted("workers", 3),
                JOB.formatted("small", 2, "schedulingGroup: {podGroupName: workers}", "one"),
                JOB.formatted("orphan", 1, "schedulingGroup: {podGroupName: nowhere}", "one"));

        assertThat(r.placed()).isZero();
        GangResult g = r.gangs().get(0);
        assertThat(g.fits()).isFalse();
        assertThat(g.reason()).isEqualTo("waiting for minCount pods from a gang to appear in scheduling queue");
        PodResult orphan = r.pods().stream()
                .filter(p -> p.name().startsWith("orphan-"))
                .findFirst()
                .orElseThrow();
        assertThat(orphan.placement()).isEqualTo(PodResult.Placement.PENDING);
        assertThat(orphan.reason()).isEqualTo("waiting for pods's pod group \"nowhere\" to appear in scheduling queue");
        assertThat(allocatedClaims(r)).isZero();
    }

    @Test
    void aBasicPolicyMakesNoGang() {
        SimulationResult r = run(
                List.of(),
                GPU_CLASS,
                node("n1", 2),
                TEMPLATE.formatted("one", 1),
                """
                apiVersion: scheduling.k8s.io/v1beta1
                kind: PodGroup
                metadata: {name: loose, namespace: ns}
                spec:
                  schedulingPolicy: {basic: {}}
                """,
                JOB.formatted("train", 3, "schedulingGroup: {podGroupName: loose}", "one"));

        assertThat(r.gangs()).isEmpty();
        assertThat(r.placed()).isEqualTo(2);
    }

    @Test
    void podsMarkedByALabelKeyFormOneGangPerValue() {
        String[] docs = {
            GPU_CLASS,
            node("n1", 2),
            node("n2", 2),
            TEMPLATE.formatted("two", 2),
            LATER_POD.formatted("a-0", "team: a", "two"),
            LATER_POD.formatted("a-1", "team: a", "two"),
            LATER_POD.formatted("a-2", "team: a", "two"),
            LATER_POD.formatted("b-0", "team: b", "two")
        };

        SimulationResult loose = run(List.of(), docs);
        assertThat(loose.placed()).isEqualTo(2);

        SimulationResult gangs = run(List.of(new SimulationOptions.Gang("team")), docs);
        assertThat(gangs.gangs())
                .extracting(GangResult::name, GangResult::fits)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("gang ns/team=a", false),
                        org.assertj.core.groups.Tuple.tuple("gang ns/team=b", true));
        assertThat(pod(gangs, "b-0").node()).isPresent();
        assertThat(List.of("a-0", "a-1", "a-2"))
                .allSatisfy(n -> assertThat(pod(gangs, n).node()).isEmpty());
        assertThat(gangs.gangs().get(0).reason())
                .isEqualTo("minCount (3) cannot be satisfied: 2 scheduled, 0 remaining");

        SimulationResult selected = run(List.of(new SimulationOptions.Gang("team in (b)")), docs);
        assertThat(selected.gangs()).singleElement().satisfies(g -> {
            assertThat(g.name()).isEqualTo("gang ns/team in (b)");
            assertThat(g.members()).containsExactly("ns/b-0");
        });
    }

    @Test
    void workloadAndPodGroupAsKubectlGetPrintsThemAreRead() {
        String list = """
                apiVersion: v1
                kind: List
                items:
                - apiVersion: scheduling.k8s.io/v1beta1
                  kind: Workload
                  metadata:
                    creationTimestamp: "2026-11-30T10:00:00Z"
                    generation: 1
                    name: training
                    namespace: ns
                    resourceVersion: "812"
                    uid: 4f7d9a62-1c1e-4d3b-9a51-0b9f3b7a2c10
                  spec:
                    controllerRef: {apiGroup: batch, kind: Job, name: train}
                    podGroupTemplates:
                    - name: workers
                      schedulingPolicy:
                        gang: {minCount: 4}
                - apiVersion: scheduling.k8s.io/v1beta1
                  kind: PodGroup
                  metadata:
                    creationTimestamp: "2026-11-30T10:00:01Z"
                    generation: 1
                    name: training-workers
                    namespace: ns
                    ownerReferences:
                    - apiVersion: scheduling.k8s.io/v1beta1
                      kind: Workload
                      name: training
                      uid: 4f7d9a62-1c1e-4d3b-9a51-0b9f3b7a2c10
                    resourceVersion: "815"
                    uid: 0c3e2b7e-8f1a-4a55-b7f0-6a1d2e9c4b11
                  spec:
                    schedulingPolicy:
                      gang: {minCount: 4}
                    workloadRef: {templateName: workers, workloadName: training}
                  status:
                    conditions:
                    - lastTransitionTime: "2026-11-30T10:00:02Z"
                      message: "minCount (4) cannot be satisfied: 2 scheduled, 0 remaining"
                      observedGeneration: 1
                      reason: Unschedulable
                      status: "False"
                      type: PodGroupInitiallyScheduled
                metadata: {resourceVersion: ""}
                """;
        SimulationResult r = run(
                List.of(),
                GPU_CLASS,
                node("n1", 2),
                node("n2", 2),
                TEMPLATE.formatted("one", 1),
                list,
                JOB.formatted("train", 4, "schedulingGroup: {podGroupName: training-workers}", "one"));

        assertThat(r.finalState().workloads()).hasSize(1);
        assertThat(r.gangs()).singleElement().satisfies(g -> {
            assertThat(g.name()).isEqualTo("PodGroup ns/training-workers");
            assertThat(g.workload()).isEqualTo("Workload ns/training, template workers");
            assertThat(g.minCount()).isEqualTo(4);
            assertThat(g.fits()).isTrue();
        });
    }
}
