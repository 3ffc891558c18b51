package io.dra4j.testkit.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.scenario.LiveClusterException;
import io.dra4j.scenario.LiveSnapshot;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.PodGroup;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.Workload;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link LiveSnapshot} against a real kube-apiserver: every kind it lists, created through the API first. */
class LiveSnapshotIT {
    private static ControlPlane plane;

    @BeforeAll
    static void start() {
        plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly()
                .withRuntimeConfig("scheduling.k8s.io/v1beta1=true")
                .withFeatureGate("GenericWorkload", true));
        create(plane.client());
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    void listsEveryKindAsTheServerHoldsIt() throws Exception {
        LiveSnapshot snapshot = LiveSnapshot.take(plane.kubeconfig(), ControlPlane.CONTEXT);

        assertThat(snapshot.server()).startsWith(plane.server().toString());
        assertThat(snapshot.notServed()).isEmpty();
        assertThat(snapshot.objects())
                .extracting(o -> o.getKind() + " " + namespaced(o))
                .containsSubsequence(
                        "Node node-a",
                        "Node node-b",
                        "Pod team-a/trainer",
                        "Pod team-b/server",
                        "ResourceSlice node-a-gpus",
                        "DeviceClass gpu",
                        "ResourceClaim team-a/shared",
                        "ResourceClaimTemplate team-a/one-gpu",
                        "DeviceTaintRule xid-79",
                        "PriorityClass high",
                        "PodDisruptionBudget team-a/trainers",
                        "ResourceQuota team-a/gpus",
                        "Service team-b/web",
                        "ReplicationController team-b/legacy",
                        "ReplicaSet team-b/web",
                        "StatefulSet team-b/db",
                        "Workload team-a/training",
                        "PodGroup team-a/workers");
        // Kinds in the documented order, each object exactly as a direct read of it returns it.
        List<String> kinds =
                snapshot.objects().stream().map(HasMetadata::getKind).distinct().toList();
        assertThat(kinds)
                .containsExactly(
                        "Node",
                        "Pod",
                        "ResourceSlice",
                        "DeviceClass",
                        "ResourceClaim",
                        "ResourceClaimTemplate",
                        "DeviceTaintRule",
                        "PriorityClass",
                        "PodDisruptionBudget",
                        "ResourceQuota",
                        "Service",
                        "ReplicationController",
                        "ReplicaSet",
                        "StatefulSet",
                        "Workload",
                        "PodGroup");
        KubernetesClient client = plane.client();
        for (HasMetadata object : snapshot.objects()) {
            assertThat(object.getApiVersion())
                    .as("apiVersion of %s", namespaced(object))
                    .isNotEmpty();
            assertThat(object)
                    .as(namespaced(object))
                    .isEqualTo(client.resource(object).get());
        }
        // Server-side fields come along, as kubectl get -o yaml shows them.
        Node node = (Node) snapshot.objects().get(0);
        assertThat(node.getMetadata().getManagedFields()).isNotEmpty();
        assertThat(node.getStatus().getAllocatable()).containsEntry("pods", new Quantity("110"));
    }

    @Test
    void theSavedSnapshotReadsBackAsTheSameObjects(@TempDir Path dir) throws Exception {
        LiveSnapshot snapshot = LiveSnapshot.take(plane.client());
        Path file = dir.resolve("cluster.yaml");
        snapshot.write(file);

        String yaml = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(yaml).startsWith("# dra4j snapshot of " + snapshot.server() + "\n");
        KubernetesList read = new KubernetesSerialization().unmarshal(yaml, KubernetesList.class);
        assertThat(read.getKind()).isEqualTo("List");
        assertThat(read.getItems()).containsExactlyElementsOf(snapshot.objects());
        assertThat(dir)
                .isDirectoryContaining(p -> p.equals(file))
                .satisfies(d -> assertThat(Files.list(d)
                                .map(p -> p.getFileName().toString())
                                .toList())
                        .containsExactly("cluster.yaml"));
    }

    @Test
    void workloadsFromTheClusterAddNoPodsLiveOrSaved(@TempDir Path dir) throws Exception {
        LiveSnapshot snapshot = LiveSnapshot.take(plane.kubeconfig(), ControlPlane.CONTEXT);
        Path file = dir.resolve("cluster.yaml");
        snapshot.write(file);
        List<String> podsInTheCluster = snapshot.objects().stream()
                .filter(Pod.class::isInstance)
                .map(LiveSnapshotIT::namespaced)
                .sorted()
                .toList();

        SimulationResult live =
                simulate(ManifestReader.parse(snapshot.toYaml().getBytes(StandardCharsets.UTF_8), "cluster"));
        SimulationResult saved = simulate(ManifestReader.read(file));

        // No controller runs in this cluster: the ReplicaSet has 1 of its 3 pods, the StatefulSet 1 of 2, the
        // ReplicationController none; the simulation takes the pods that exist, and says so.
        for (SimulationResult result : List.of(live, saved)) {
            assertThat(result.pods().stream()
                            .map(p -> p.namespace() + "/" + p.name())
                            .sorted()
                            .toList())
                    .isEqualTo(podsInTheCluster);
            assertThat(result.notes())
                    .contains(
                            "ReplicaSet team-b/web: 1 of 3 pods exist in the cluster; only those are simulated"
                                    + " (its controller creates the others there)",
                            "StatefulSet team-b/db: 1 of 2 pods exist in the cluster; only those are simulated"
                                    + " (its controller creates the others there)");
        }
        assertThat(saved.pods()).isEqualTo(live.pods());
    }

    private static SimulationResult simulate(Manifests manifests) {
        assertThat(manifests.problems()).isEmpty();
        return new Simulator(SimulationOptions.defaults()).run(ClusterSnapshot.of(manifests));
    }

    @Test
    void takingTheSnapshotChangesNothing() throws Exception {
        Map<String, String> before = versions(LiveSnapshot.take(plane.client()));
        Map<String, String> after = versions(LiveSnapshot.take(plane.kubeconfig(), null));
        assertThat(after).isEqualTo(before);
    }

    @Test
    void theContextIsChosenAndAnUnreachableServerIsNamed(@TempDir Path dir) throws Exception {
        String original = Files.readString(plane.kubeconfig(), StandardCharsets.UTF_8);
        // A second context first and current, pointing at a port nothing listens on.
        String unreachable = original.replace(
                        "clusters:\n", "clusters:\n- name: gone\n  cluster:\n" + "    server: https://127.0.0.1:1\n")
                .replace(
                        "contexts:\n",
                        "contexts:\n- name: gone\n  context:\n    cluster: gone\n    user: " + ControlPlane.CONTEXT
                                + "\n")
                .replace("current-context: " + ControlPlane.CONTEXT, "current-context: gone");
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, unreachable, StandardCharsets.UTF_8);

        assertThat(LiveSnapshot.take(kubeconfig, ControlPlane.CONTEXT).objects())
                .isNotEmpty();

        Instant start = Instant.now();
        assertThatThrownBy(() -> LiveSnapshot.take(kubeconfig, null))
                .isInstanceOf(LiveClusterException.class)
                .hasMessageContaining("https://127.0.0.1:1");
        assertThat(Duration.between(start, Instant.now()))
                .as("failing on an unreachable server")
                .isLessThan(Duration.ofSeconds(60));
    }

    @Test
    void aRefusedRequestSaysWhy(@TempDir Path dir) throws Exception {
        String original = Files.readString(plane.kubeconfig(), StandardCharsets.UTF_8);
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(
                kubeconfig, original.replace("token: " + plane.token(), "token: not-a-token"), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LiveSnapshot.take(kubeconfig, null))
                .isInstanceOf(LiveClusterException.class)
                .hasMessageContaining(plane.server().toString())
                .hasMessageContaining("Unauthorized");
    }

    private static Map<String, String> versions(LiveSnapshot snapshot) {
        return snapshot.objects().stream()
                .collect(Collectors.toMap(
                        o -> o.getKind() + " " + namespaced(o),
                        o -> o.getMetadata().getResourceVersion()));
    }

    private static String namespaced(HasMetadata object) {
        String namespace = object.getMetadata().getNamespace();
        return (namespace == null ? "" : namespace + "/") + object.getMetadata().getName();
    }

    private static io.fabric8.kubernetes.api.model.PodTemplateSpec template(Map<String, String> labels) {
        return new io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("pause")
                .endContainer()
                .endSpec()
                .build();
    }

    /** A pod as the controller of {@code owner} makes it: its template's labels, a controller reference. */
    private static Pod ownedPod(String name, Map<String, String> labels, HasMetadata owner) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("team-b")
                .withLabels(labels)
                .addNewOwnerReference()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .endOwnerReference()
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("pause")
                .endContainer()
                .endSpec()
                .build();
    }

    private static void create(KubernetesClient client) {
        for (String namespace : List.of("team-a", "team-b")) {
            client.resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(namespace)
                            .endMetadata()
                            .build())
                    .create();
        }
        for (String name : List.of("node-b", "node-a")) {
            client.resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .addToLabels("pool", "h100")
                            .endMetadata()
                            .withNewStatus()
                            .addToAllocatable(Map.of("cpu", new Quantity("8"), "pods", new Quantity("110")))
                            .addToCapacity(Map.of("cpu", new Quantity("8"), "pods", new Quantity("110")))
                            .endStatus()
                            .build())
                    .create();
        }
        client.resource(new io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder()
                        .withNewMetadata()
                        .withName("trainers")
                        .withNamespace("team-a")
                        .endMetadata()
                        .withNewSpec()
                        .withNewMinAvailable(1)
                        .withNewSelector()
                        .addToMatchLabels("app", "trainer")
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
        client.resource(new PriorityClassBuilder()
                        .withNewMetadata()
                        .withName("high")
                        .endMetadata()
                        .withValue(1000)
                        .build())
                .create();
        client.resource(new DeviceClassBuilder()
                        .withNewMetadata()
                        .withName("gpu")
                        .endMetadata()
                        .withNewSpec()
                        .addNewSelector()
                        .withNewCel()
                        .withExpression("device.driver == \"gpu.example.com\"")
                        .endCel()
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
        client.resource(new ResourceSliceBuilder()
                        .withNewMetadata()
                        .withName("node-a-gpus")
                        .endMetadata()
                        .withNewSpec()
                        .withDriver("gpu.example.com")
                        .withNodeName("node-a")
                        .withNewPool()
                        .withName("node-a")
                        .withGeneration(1L)
                        .withResourceSliceCount(1L)
                        .endPool()
                        .addNewDevice()
                        .withName("gpu-0")
                        .endDevice()
                        .addNewDevice()
                        .withName("gpu-1")
                        .endDevice()
                        .endSpec()
                        .build())
                .create();
        client.resource(new DeviceTaintRuleBuilder()
                        .withNewMetadata()
                        .withName("xid-79")
                        .endMetadata()
                        .withNewSpec()
                        .withNewDeviceSelector()
                        .withDriver("gpu.example.com")
                        .withPool("node-a")
                        .withDevice("gpu-1")
                        .endDeviceSelector()
                        .withNewTaint()
                        .withKey("gpu.example.com/xid")
                        .withValue("79")
                        .withEffect("NoSchedule")
                        .endTaint()
                        .endSpec()
                        .build())
                .create();
        client.resource(new ResourceClaimTemplateBuilder()
                        .withNewMetadata()
                        .withName("one-gpu")
                        .withNamespace("team-a")
                        .endMetadata()
                        .withNewSpec()
                        .withNewSpec()
                        .withNewDevices()
                        .addNewRequest()
                        .withName("gpu")
                        .withNewExactly()
                        .withDeviceClassName("gpu")
                        .endExactly()
                        .endRequest()
                        .endDevices()
                        .endSpec()
                        .endSpec()
                        .build())
                .create();
        client.resource(new ResourceClaimBuilder()
                        .withNewMetadata()
                        .withName("shared")
                        .withNamespace("team-a")
                        .endMetadata()
                        .withNewSpec()
                        .withNewDevices()
                        .addNewRequest()
                        .withName("gpu")
                        .withNewExactly()
                        .withDeviceClassName("gpu")
                        .endExactly()
                        .endRequest()
                        .endDevices()
                        .endSpec()
                        .build())
                .create();
        client.resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("trainer")
                        .withNamespace("team-a")
                        .endMetadata()
                        .withNewSpec()
                        .withPriorityClassName("high")
                        .addNewContainer()
                        .withName("main")
                        .withImage("pause")
                        .endContainer()
                        .addNewResourceClaim()
                        .withName("gpu")
                        .withResourceClaimTemplateName("one-gpu")
                        .endResourceClaim()
                        .endSpec()
                        .build())
                .create();
        client.resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("server")
                        .withNamespace("team-b")
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("main")
                        .withImage("pause")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        Workload workload = client.getKubernetesSerialization()
                .unmarshal(
                        String.join(
                                "\n",
                                "apiVersion: scheduling.k8s.io/v1beta1",
                                "kind: Workload",
                                "metadata: {name: training, namespace: team-a}",
                                "spec:",
                                "  podGroupTemplates:",
                                "  - name: workers",
                                "    schedulingPolicy: {gang: {minCount: 2}}",
                                ""),
                        Workload.class);
        client.resource(workload).create();
        PodGroup group = client.getKubernetesSerialization()
                .unmarshal(
                        String.join(
                                "\n",
                                "apiVersion: scheduling.k8s.io/v1beta1",
                                "kind: PodGroup",
                                "metadata: {name: workers, namespace: team-a}",
                                "spec:",
                                "  schedulingPolicy: {gang: {minCount: 2}}",
                                ""),
                        PodGroup.class);
        client.resource(group).create();
        // Workloads without their controllers running: a ReplicaSet and a StatefulSet with fewer pods than replicas,
        // a ReplicationController with none, and a Service selecting the ReplicaSet's pods.
        Map<String, String> web = Map.of("app", "web");
        client.resource(new io.fabric8.kubernetes.api.model.ServiceBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .withNamespace("team-b")
                        .endMetadata()
                        .withNewSpec()
                        .withSelector(web)
                        .addNewPort()
                        .withPort(80)
                        .endPort()
                        .endSpec()
                        .build())
                .create();
        client.resource(new io.fabric8.kubernetes.api.model.ReplicationControllerBuilder()
                        .withNewMetadata()
                        .withName("legacy")
                        .withNamespace("team-b")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(1)
                        .withSelector(Map.of("app", "legacy"))
                        .withTemplate(template(Map.of("app", "legacy")))
                        .endSpec()
                        .build())
                .create();
        var replicaSet = client.resource(new io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .withNamespace("team-b")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(3)
                        .withNewSelector()
                        .withMatchLabels(web)
                        .endSelector()
                        .withTemplate(template(web))
                        .endSpec()
                        .build())
                .create();
        var statefulSet = client.resource(new io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder()
                        .withNewMetadata()
                        .withName("db")
                        .withNamespace("team-b")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(2)
                        .withNewSelector()
                        .withMatchLabels(Map.of("app", "db"))
                        .endSelector()
                        .withTemplate(template(Map.of("app", "db")))
                        .endSpec()
                        .build())
                .create();
        client.resource(ownedPod("web-x7k2p", web, replicaSet)).create();
        client.resource(ownedPod(
                        "db-0",
                        Map.of(
                                "app",
                                "db",
                                "statefulset.kubernetes.io/pod-name",
                                "db-0",
                                "apps.kubernetes.io/pod-index",
                                "0"),
                        statefulSet))
                .create();
        // Last: with no quota controller running, a quota admits nothing it constrains until its status is set.
        client.resource(new io.fabric8.kubernetes.api.model.ResourceQuotaBuilder()
                        .withNewMetadata()
                        .withName("gpus")
                        .withNamespace("team-a")
                        .endMetadata()
                        .withNewSpec()
                        .addToHard("requests.nvidia.com/gpu", new Quantity("4"))
                        .endSpec()
                        .build())
                .create();
    }
}
