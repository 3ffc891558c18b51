package io.dra4j.scenario;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.PodGroup;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.Workload;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A snapshot of a live cluster, taken read-only (list requests only) through the fabric8 client: the objects
 * {@code kubectl get nodes,pods,resourceslices,deviceclasses,resourceclaims,resourceclaimtemplates,
 * devicetaintrules,priorityclasses,poddisruptionbudgets,resourcequotas,services,replicationcontrollers,replicasets,
 * statefulsets,workloads,podgroups -A -o yaml} prints (the budgets for preemption, the quotas for lint, the Services
 * and controllers for the selectors of PodTopologySpread's default spreading), as the same fabric8 objects a snapshot
 * file of them gives, kinds in that order and objects in the server's order. {@link #toYaml()} writes them as such
 * a file ({@code kind: List}), for running offline later.
 *
 * <p>A kind the server does not serve (Workload and PodGroup need {@code scheduling.k8s.io/v1beta1}, off by default
 * in 1.37; older releases serve DeviceTaintRule in an older version) is listed in {@link #notServed()}, never
 * guessed. The fabric8 objects are mutable: they are the caller's, and the snapshot does not look at them again.
 *
 * @param server    the API server's URL
 * @param objects   the objects, kinds in {@link #KINDS} order
 * @param notServed the kinds (as {@code resource (group)}) this server serves in none of the versions dra4j reads
 */
public record LiveSnapshot(String server, List<HasMetadata> objects, List<String> notServed) {
    /** What is listed, in order, each kind with the versions dra4j reads it in, preferred first. */
    public static final List<List<Class<? extends HasMetadata>>> KINDS = List.of(
            List.of(Node.class),
            List.of(Pod.class),
            List.of(ResourceSlice.class),
            List.of(DeviceClass.class),
            List.of(ResourceClaim.class),
            List.of(ResourceClaimTemplate.class),
            List.of(
                    DeviceTaintRule.class,
                    io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule.class,
                    io.fabric8.kubernetes.api.model.resource.v1alpha3.DeviceTaintRule.class),
            List.of(PriorityClass.class),
            List.of(io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class),
            List.of(io.fabric8.kubernetes.api.model.ResourceQuota.class),
            List.of(io.fabric8.kubernetes.api.model.Service.class),
            List.of(io.fabric8.kubernetes.api.model.ReplicationController.class),
            List.of(io.fabric8.kubernetes.api.model.apps.ReplicaSet.class),
            List.of(io.fabric8.kubernetes.api.model.apps.StatefulSet.class),
            List.of(Workload.class, io.fabric8.kubernetes.api.model.scheduling.v1alpha3.Workload.class),
            List.of(PodGroup.class, io.fabric8.kubernetes.api.model.scheduling.v1alpha3.PodGroup.class));
    /** Objects per list request; larger clusters are read in pages, as kubectl does. */
    private static final long PAGE = 500;

    public LiveSnapshot {
        Objects.requireNonNull(server, "server");
        objects = List.copyOf(objects);
        notServed = List.copyOf(notServed);
    }

    /**
     * Lists the cluster that {@code context} of {@code kubeconfig} names (its current context when
     * {@code context} is null).
     *
     * @throws LiveClusterException when the kubeconfig cannot be read, names no such context, or the server does
     *                              not answer or refuses a list
     */
    public static LiveSnapshot take(Path kubeconfig, String context) throws LiveClusterException {
        Config config = config(kubeconfig, context);
        try (KubernetesClient client =
                new KubernetesClientBuilder().withConfig(config).build()) {
            return take(client);
        }
    }

    /**
     * The kubeconfig kubectl would read: the first file of {@code $KUBECONFIG} (dra4j does not merge several), else
     * {@code ~/.kube/config}.
     */
    public static Path defaultKubeconfig(Map<String, String> environment, Path home) {
        String list = environment.getOrDefault("KUBECONFIG", "");
        for (String entry : list.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                return Path.of(entry);
            }
        }
        return home.resolve(".kube").resolve("config");
    }

    /** Lists the cluster {@code client} talks to; the client stays open. */
    public static LiveSnapshot take(KubernetesClient client) throws LiveClusterException {
        String server = client.getMasterUrl().toString();
        List<HasMetadata> objects = new ArrayList<>();
        List<String> notServed = new ArrayList<>();
        for (List<Class<? extends HasMetadata>> versions : KINDS) {
            Class<? extends HasMetadata> served = null;
            for (Class<? extends HasMetadata> type : versions) {
                if (supports(client, server, type)) {
                    served = type;
                    break;
                }
            }
            if (served == null) {
                Class<? extends HasMetadata> preferred = versions.get(0);
                String group = HasMetadata.getGroup(preferred);
                notServed.add(HasMetadata.getPlural(preferred) + " (" + (group.isEmpty() ? "core" : group) + ")");
            } else {
                objects.addAll(list(client, server, served));
            }
        }
        return new LiveSnapshot(server, objects, notServed);
    }

    /** The snapshot as a {@code kind: List} YAML document, with a comment naming the server and what it lacks. */
    public String toYaml() {
        KubernetesList list = new KubernetesList(
                "v1",
                objects,
                "List",
                new ListMetaBuilder().withResourceVersion("").build());
        StringBuilder out =
                new StringBuilder("# dra4j snapshot of ").append(server).append('\n');
        if (!notServed.isEmpty()) {
            out.append("# not served there: ")
                    .append(String.join(", ", notServed))
                    .append('\n');
        }
        String yaml = new KubernetesSerialization().asYaml(list);
        return out.append(yaml.startsWith("---\n") ? yaml.substring(4) : yaml).toString();
    }

    /** Writes {@link #toYaml()} to {@code file}, through a temporary file beside it so that no half file is left. */
    public void write(Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        Path temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".tmp");
        try {
            Files.writeString(temporary, toYaml(), StandardCharsets.UTF_8);
            Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static boolean supports(KubernetesClient client, String server, Class<? extends HasMetadata> type)
            throws LiveClusterException {
        try {
            return client.supports(type);
        } catch (KubernetesClientException e) {
            throw new LiveClusterException("cannot ask " + server + " which API versions it serves: " + reason(e));
        }
    }

    private static <T extends HasMetadata> List<T> list(KubernetesClient client, String server, Class<T> type)
            throws LiveClusterException {
        List<T> all = new ArrayList<>();
        String next = null;
        try {
            do {
                ListOptionsBuilder options = new ListOptionsBuilder().withLimit(PAGE);
                if (next != null) {
                    options.withContinue(next);
                }
                KubernetesResourceList<T> page = Namespaced.class.isAssignableFrom(type)
                        ? client.resources(type).inAnyNamespace().list(options.build())
                        : client.resources(type).list(options.build());
                all.addAll(page.getItems());
                next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
            } while (next != null && !next.isEmpty());
        } catch (KubernetesClientException e) {
            throw new LiveClusterException("cannot list " + HasMetadata.getPlural(type) + " ("
                    + HasMetadata.getApiVersion(type) + ") from " + server + ": " + reason(e));
        }
        return all;
    }

    /** The client configuration of one context of a kubeconfig file, checked before any request is made. */
    private static Config config(Path kubeconfig, String context) throws LiveClusterException {
        String text;
        try {
            text = Files.readString(kubeconfig, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LiveClusterException("kubeconfig " + kubeconfig + ": cannot read it ("
                    + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()) + ")");
        }
        JsonNode root;
        try {
            root = Mappers.READER.readTree(text);
        } catch (JacksonException e) {
            throw new LiveClusterException("kubeconfig " + kubeconfig + ": not YAML: " + e.getOriginalMessage());
        }
        List<String> contexts = new ArrayList<>();
        root.path("contexts").forEach(c -> Json.text(c.get("name")).ifPresent(contexts::add));
        String wanted = context != null
                ? context
                : Json.text(root.get("current-context")).orElse("");
        if (wanted.isEmpty()) {
            throw new LiveClusterException("kubeconfig " + kubeconfig + ": no current-context; name one with --context"
                    + " (contexts: " + (contexts.isEmpty() ? "none" : String.join(", ", contexts)) + ")");
        }
        if (!contexts.contains(wanted)) {
            throw new LiveClusterException("kubeconfig " + kubeconfig + ": no context \"" + wanted + "\" (contexts: "
                    + (contexts.isEmpty() ? "none" : String.join(", ", contexts)) + ")");
        }
        try {
            Config config = Config.fromKubeconfig(
                    wanted, text, kubeconfig.toAbsolutePath().toString());
            // Fail fast instead of retrying for minutes against a server that is not there.
            config.setRequestRetryBackoffLimit(1);
            config.setConnectionTimeout(10_000);
            // Over HTTP/2 kube-apiserver answers a client it cannot authenticate with GOAWAY (its mitigation of
            // unauthenticated HTTP/2 floods), and the JDK client reports that instead of the 401.
            config.setHttp2Disable(true);
            return config;
        } catch (KubernetesClientException e) {
            throw new LiveClusterException("kubeconfig " + kubeconfig + ", context " + wanted + ": " + reason(e));
        }
    }

    private static String reason(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null) {
            return e.getStatus().getMessage() + " (HTTP " + e.getCode() + ")";
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return root == e ? message : e.getMessage() + ": " + message;
    }
}
