package io.dra4j.sim;

import static io.dra4j.sim.Snapshots.GPU_CLASS;
import static io.dra4j.sim.Snapshots.node;
import static io.dra4j.sim.Snapshots.pod;
import static io.dra4j.sim.Snapshots.simulate;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulatorTest {
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
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: %s, namespace: ns}
            spec:
              %s
              containers:
              - name: main
                resources:
                  requests: {cpu: "%s"}
              resourceClaims:
              - name: gpus
                resourceClaimTemplateName: %s
            """;

    private static String podYaml(String name, String template) {
        return POD.formatted(name, "", "1", template);
    }

    @Test
    void templateClaimsAreNamedAsTheResourceClaimControllerDoesAndAllocatedAndReservedForThePod() {
        SimulationResult r = simulate(GPU_CLASS, node("n1", 2), TEMPLATE.formatted("one", 1), podYaml("p", "one"));

        assertThat(pod(r, "p").node()).contains("n1");
        ResourceClaim claim = r.finalState().resourceClaims().get(0);
        assertThat(claim.getMetadata().getName()).matches("p-gpus-[bcdfghjklmnpqrstvwxz2456789]{5}");
        assertThat(claim.getMetadata().getAnnotations()).containsEntry("resource.kubernetes.io/pod-claim-name", "gpus");
        assertThat(claim.getStatus().getAllocation().getDevices().getResults()).hasSize(1);
        Pod p = r.finalState().pods().get(0);
        assertThat(claim.getStatus().getReservedFor())
                .singleElement()
                .satisfies(ref ->
                        assertThat(ref.getUid()).isEqualTo(p.getMetadata().getUid()));
        assertThat(p.getStatus().getResourceClaimStatuses())
                .singleElement()
                .satisfies(s -> assertThat(s.getResourceClaimName())
                        .isEqualTo(claim.getMetadata().getName()));
        assertThat(r.events()).extracting(SchedulingEvent::message).containsExactly("Successfully assigned ns/p to n1");
    }

    @Test
    void podsThatDoNotFitGetTheFitErrorMessageAndTheAllocatorsDecisiveReason() {
        SimulationResult r = simulate(
                GPU_CLASS, node("n1", 2), node("n2", 1), TEMPLATE.formatted("three", 3), podYaml("p", "three"));

        PodResult p = pod(r, "p");
        assertThat(p.placement()).isEqualTo(PodResult.Placement.PENDING);
        assertThat(p.reason())
                .isEqualTo("0/2 nodes are available: 2 cannot allocate all claims."
                        + " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
        assertThat(p.draReason())
                .startsWith("n1: claim ns/")
                .contains("request gpus: 3 device(s) requested, only 2 in usable pools on node n1");
        Pod pod = r.finalState().pods().get(0);
        assertThat(pod.getStatus().getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("PodScheduled");
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("Unschedulable");
        });
    }

    @Test
    void devicesTakenByEarlierPodsAreNotGivenAgainAndPriorityDecidesWhoGetsThem() {
        String priority = """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: 1000
                """;
        SimulationResult r = simulate(
                GPU_CLASS,
                priority,
                node("n1", 2),
                TEMPLATE.formatted("two", 2),
                podYaml("low", "two"),
                POD.formatted("high", "priorityClassName: high", "1", "two"));

        assertThat(pod(r, "high").node()).contains("n1");
        assertThat(pod(r, "low").placement()).isEqualTo(PodResult.Placement.PENDING);
        assertThat(r.pods()).extracting(PodResult::name).containsExactly("high", "low");
    }

    @Test
    void missingClassesAndTemplatesAreExplainedNotErrors() {
        SimulationResult r =
                simulate(node("n1", 1), TEMPLATE.formatted("t", 1), podYaml("a", "t"), podYaml("b", "nope"));

        assertThat(pod(r, "a").reason())
                .isEqualTo("0/1 nodes are available: request gpus: device class gpu does not exist."
                        + " preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
        assertThat(pod(r, "b").reason())
                .contains("ResourceClaim not created yet (ResourceClaimTemplate nope not found)");
        assertThat(pod(r, "b").notes()).singleElement().asString().contains("ResourceClaimTemplate ns/nope not found");
    }

    @Test
    void aSharedClaimIsAllocatedOnceAndReservedForEveryPodUsingIt() {
        String claim = """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata: {name: shared, namespace: ns}
                spec:
                  devices:
                    requests:
                    - name: gpus
                      exactly: {deviceClassName: gpu}
                """;
        String user = """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: ns}
                spec:
                  containers: [{name: main}]
                  resourceClaims: [{name: gpus, resourceClaimName: shared}]
                """;
        SimulationResult r =
                simulate(GPU_CLASS, node("n1", 1), node("n2", 1), claim, user.formatted("a"), user.formatted("b"));

        assertThat(pod(r, "a").node()).isEqualTo(pod(r, "b").node());
        ResourceClaim c = r.finalState().resourceClaims().get(0);
        assertThat(c.getStatus().getReservedFor()).extracting(x -> x.getName()).containsExactly("a", "b");
        assertThat(c.getStatus().getAllocation().getDevices().getResults()).hasSize(1);
    }

    @Test
    void firstAvailableScoringPrefersTheNodeWhereTheFirstChoiceFits() {
        String classes = """
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata: {name: big}
                spec:
                  selectors: [{cel: {expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].island == 1'}}]
                ---
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata: {name: small}
                spec:
                  selectors: [{cel: {expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].island == 0'}}]
                """;
        String template = """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: fallback, namespace: ns}
                spec:
                  spec:
                    devices:
                      requests:
                      - name: gpu
                        firstAvailable:
                        - {name: big, deviceClassName: big}
                        - {name: small, deviceClassName: small}
                """;
        // n1 has only island 0 (one GPU), n2 has islands 0 and 1.
        SimulationResult r = simulate(classes, node("n1", 1), node("n2", 2), template, podYaml("p", "fallback"));

        assertThat(pod(r, "p").node()).contains("n2");
        ResourceClaim c = r.finalState().resourceClaims().get(0);
        assertThat(c.getStatus()
                        .getAllocation()
                        .getDevices()
                        .getResults()
                        .get(0)
                        .getRequest())
                .isEqualTo("gpu/big");
    }

    @Test
    void extendedResourcesGoToTheDevicePluginWhereANodeOffersThemAndThroughTheClassElsewhere() {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: ns}
                spec:
                  nodeSelector: {kubernetes.io/hostname: %s}
                  containers:
                  - name: main
                    resources:
                      requests: {example.com/gpu: "1"}
                      limits: {example.com/gpu: "1"}
                """;
        SimulationResult r = simulate(
                GPU_CLASS,
                node("plugin", 0, ", example.com/gpu: \"1\""),
                node("dra", 1),
                pod.formatted("on-plugin", "plugin"),
                pod.formatted("on-dra", "dra"),
                pod.formatted("second", "plugin"));

        assertThat(pod(r, "on-plugin").node()).contains("plugin");
        assertThat(pod(r, "on-dra").node()).contains("dra");
        assertThat(pod(r, "second").reason()).contains("Insufficient example.com/gpu");
        List<ResourceClaim> claims = r.finalState().resourceClaims();
        assertThat(claims).singleElement().satisfies(c -> {
            assertThat(c.getMetadata().getName()).startsWith("on-dra-extended-resources-");
            assertThat(c.getSpec().getDevices().getRequests().get(0).getName()).isEqualTo("container-0-request-0");
            assertThat(c.getStatus().getAllocation()).isNotNull();
        });
        Pod onDra = r.finalState().pods().stream()
                .filter(p -> p.getMetadata().getName().equals("on-dra"))
                .findFirst()
                .orElseThrow();
        assertThat(onDra.getStatus().getExtendedResourceClaimStatus().getResourceClaimName())
                .isEqualTo(claims.get(0).getMetadata().getName());
        // Quota: the pod already charges requests.example.com/gpu; its claim charges the class's devices and the
        // implicit name only (kube-apiserver's claimEvaluator subtracts the owner's usage).
        assertThat(DeviceUsage.of(r.finalState()).quotaPerNamespace().get("ns"))
                .containsExactly(
                        Map.entry("count/resourceclaims.resource.k8s.io", 1L),
                        Map.entry("gpu.deviceclass.resource.k8s.io/devices", 1L),
                        Map.entry("requests.deviceclass.resource.kubernetes.io/gpu", 1L));
    }

    @Test
    void workloadsExpandIntoPodsNamedAsTheirControllersNameThem() {
        String workloads = """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: ns}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                    spec: {containers: [{name: main}]}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: ns}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: main}]}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: idx, namespace: ns}
                spec:
                  completionMode: Indexed
                  completions: 2
                  parallelism: 2
                  template:
                    spec: {restartPolicy: Never, containers: [{name: main}]}
                ---
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent, namespace: ns}
                spec:
                  selector: {matchLabels: {app: agent}}
                  template:
                    metadata: {labels: {app: agent}}
                    spec:
                      nodeSelector: {kubernetes.io/hostname: n2}
                      containers: [{name: main}]
                """;
        SimulationResult r = simulate(node("n1", 0), node("n2", 0), workloads);

        List<String> names = r.pods().stream().map(PodResult::name).toList();
        assertThat(names).contains("db-0", "db-1");
        assertThat(names.stream()
                        .filter(n -> n.matches("web-[bcdfghjklmnpqrstvwxz2456789]+-[bcdfghjklmnpqrstvwxz2456789]{5}")))
                .hasSize(2);
        assertThat(names.stream().filter(n -> n.matches("idx-[01]-[bcdfghjklmnpqrstvwxz2456789]{5}")))
                .hasSize(2);
        assertThat(r.pods().stream().filter(p -> p.name().startsWith("agent-")))
                .singleElement()
                .satisfies(p -> assertThat(p.node()).contains("n2"));
        assertThat(pod(r, "db-0").workload()).isEqualTo("StatefulSet ns/db");
        assertThat(r.placed()).isEqualTo(7);
        // The same input gives the same names.
        assertThat(simulate(node("n1", 0), node("n2", 0), workloads).pods())
                .extracting(PodResult::name)
                .containsExactlyElementsOf(names);
    }

    @Test
    void workloadsReadFromAClusterAddNoPodsTheirControllersHaveNotCreated() {
        String workloads = """
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata: {name: web, namespace: ns%1$s}
                spec:
                  replicas: 3
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: main}]}
                ---
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: ns%1$s}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                    spec: {containers: [{name: main}]}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: api, namespace: ns%1$s}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: api}}
                  template:
                    metadata: {labels: {app: api}}
                    spec: {containers: [{name: main}]}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: batch, namespace: ns%1$s}
                spec:
                  template:
                    spec: {restartPolicy: Never, containers: [{name: main}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web-x7k2p
                  namespace: ns
                  labels: {app: web}
                  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u-web, controller: true}]
                spec: {containers: [{name: main}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: db-0
                  namespace: ns
                  labels: {app: db}
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u-db, controller: true}]
                spec: {containers: [{name: main}]}
                """;
        // As written to be applied: the controllers' missing pods are created.
        assertThat(simulate(node("n1", 0), workloads.formatted("")).pods()).hasSize(3 + 2 + 2 + 1);

        // As read from a cluster (the API server's UIDs): only the pods that exist, and a note for each shortfall.
        SimulationResult live = simulate(node("n1", 0), workloads.formatted(", uid: u-live"));
        assertThat(live.pods()).extracting(PodResult::name).containsExactlyInAnyOrder("web-x7k2p", "db-0");
        assertThat(live.notes())
                .containsExactlyInAnyOrder(
                        "ReplicaSet ns/web: 1 of 3 pods exist in the cluster; only those are simulated"
                                + " (its controller creates the others there)",
                        "StatefulSet ns/db: 1 of 2 pods exist in the cluster; only those are simulated"
                                + " (its controller creates the others there)",
                        "Deployment ns/api: 0 of 2 pods exist in the cluster; only those are simulated"
                                + " (its controller creates the others there)",
                        "Job ns/batch: 0 of 1 pods exist in the cluster; only those are simulated"
                                + " (its controller creates the others there)");
    }

    @Test
    void nodeFiltersGiveUpstreamReasons() {
        String nodes = """
                apiVersion: v1
                kind: Node
                metadata: {name: cordoned, labels: {zone: a}}
                spec: {unschedulable: true}
                status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: tainted, labels: {zone: a}}
                spec:
                  taints: [{key: dedicated, value: infra, effect: NoSchedule}]
                status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: small, labels: {zone: a}}
                status: {allocatable: {cpu: "1", memory: 8Gi, pods: "10"}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: elsewhere, labels: {zone: b}}
                status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
                """;
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  nodeSelector: {zone: a}
                  containers:
                  - name: main
                    resources: {requests: {cpu: "2"}}
                """;
        SimulationResult r = simulate(nodes, pod);

        assertThat(pod(r, "p").reason())
                .isEqualTo("0/4 nodes are available: 1 Insufficient cpu, "
                        + "1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s), "
                        + "1 node(s) were unschedulable. preemption: 0/4 nodes are available: 4 Preemption is not helpful for "
                        + "scheduling.");
        assertThat(pod(r, "p").namespace()).isEqualTo("default");
    }

    @Test
    void replicasSpreadOverNodesByTheSystemDefaultTopologySpreadEvenWhenLeastAllocatedPrefersOneNode() {
        String nodes = """
                apiVersion: v1
                kind: Node
                metadata: {name: big, labels: {kubernetes.io/hostname: big}}
                status: {allocatable: {cpu: "64", memory: 64Gi, pods: "110"}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: small, labels: {kubernetes.io/hostname: small}}
                status: {allocatable: {cpu: "8", memory: 64Gi, pods: "110"}}
                """;
        String deployment = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: ns}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: main, resources: {requests: {cpu: "1", memory: 1Gi}}}]}
                """;
        String barePods = """
                apiVersion: v1
                kind: Pod
                metadata: {name: bare-%d, namespace: ns, labels: {app: web}}
                spec: {containers: [{name: main, resources: {requests: {cpu: "1", memory: 1Gi}}}]}
                """;

        SimulationResult spread = simulate(nodes, deployment);
        SimulationResult bare = simulate(nodes, barePods.formatted(0), barePods.formatted(1));

        assertThat(spread.pods()).extracting(p -> p.node().orElseThrow()).containsExactlyInAnyOrder("big", "small");
        // Pods no controller owns get no default constraints: LeastAllocated and BalancedAllocation keep both on big.
        assertThat(bare.pods()).extracting(p -> p.node().orElseThrow()).containsExactly("big", "big");
    }
}
