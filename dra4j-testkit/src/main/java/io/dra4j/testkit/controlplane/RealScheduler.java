package io.dra4j.testkit.controlplane;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Scheduling through the real kube-scheduler: loads a cluster's objects into a {@link ControlPlane} started with
 * {@link ControlPlaneOptions#scheduling()}, then creates pods one at a time, in the order given, and waits for
 * each to be bound (with its claims allocated and reserved for it) or reported unschedulable before creating the
 * next. One at a time makes the outcome the one of a scheduling queue that sees the pods in that order, which is
 * what an offline simulator is compared with.
 *
 * <p>Objects are created as they are given, without the fields the server owns (uid, resourceVersion,
 * creationTimestamp, managedFields); nodes keep their status (so their allocatable), which the API server accepts
 * on create. Status given for other kinds is dropped by the server: claims already allocated and pods already
 * bound are not a starting state this helper can set up, and preemption is not exercised (no kubelet runs to
 * finish the deletion of a victim).
 */
public final class RealScheduler {
    /** Creation order: what each kind refers to exists before it. Pods go through {@link #schedule}. */
    private static final List<Class<? extends HasMetadata>> ORDER = List.of(Namespace.class, PriorityClass.class,
            DeviceClass.class, Node.class, ResourceSlice.class, DeviceTaintRule.class, ResourceClaimTemplate.class,
            ResourceClaim.class);
    private static final Duration POLL = Duration.ofMillis(50);

    private final KubernetesClient client;
    private final Set<String> namespaces = new HashSet<>();

    public RealScheduler(ControlPlane controlPlane) {
        this.client = controlPlane.client();
    }

    /**
     * Creates the objects, kinds in dependency order (namespaces they need first), objects of one kind in the order
     * given.
     *
     * @throws IllegalArgumentException for a pod: pods are created by {@link #schedule}
     */
    public void apply(List<? extends HasMetadata> objects) {
        for (HasMetadata object : objects) {
            if (object instanceof Pod pod) {
                throw new IllegalArgumentException("pod " + pod.getMetadata().getName()
                        + ": pods are created one at a time by schedule(), not by apply()");
            }
        }
        List<HasMetadata> sorted = new ArrayList<>(objects);
        sorted.sort(Comparator.comparingInt(RealScheduler::rank));
        for (HasMetadata object : sorted) {
            create(object);
        }
    }

    /**
     * A whole snapshot: {@link #apply} every object but the pods, then {@link #schedule} the pods in the order given.
     */
    public List<PodPlacement> run(List<? extends HasMetadata> snapshot, Duration timeoutPerPod) {
        apply(snapshot.stream().filter(o -> !(o instanceof Pod)).toList());
        return schedule(snapshot.stream().filter(Pod.class::isInstance).map(Pod.class::cast).toList(), timeoutPerPod);
    }

    /**
     * Creates the pods one at a time and returns where each landed.
     *
     * @param timeout how long one pod may take to be bound or found unschedulable
     * @throws IllegalArgumentException for a pod that names its node already (not a starting state this can set up)
     * @throws IllegalStateException    when a pod is neither bound nor unschedulable in time (the message says which
     *                                  claims are still missing)
     */
    public List<PodPlacement> schedule(List<Pod> pods, Duration timeout) {
        for (Pod pod : pods) {
            if (pod.getSpec() != null && pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
                throw new IllegalArgumentException("pod " + pod.getMetadata().getName() + " is bound to "
                        + pod.getSpec().getNodeName() + " already: bound pods are not a starting state RealScheduler"
                        + " can set up");
            }
        }
        List<PodPlacement> placements = new ArrayList<>();
        for (Pod pod : pods) {
            Pod created = (Pod) create(pod);
            placements.add(await(created.getMetadata().getNamespace(), created.getMetadata().getName(), timeout));
        }
        return placements;
    }

    private PodPlacement await(String namespace, String name, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        String last = "not seen yet";
        while (Instant.now().isBefore(deadline)) {
            Pod pod = client.pods().inNamespace(namespace).withName(name).get();
            if (pod != null) {
                Optional<PodPlacement> placement = settled(pod);
                if (placement.isPresent()) {
                    return placement.get();
                }
                last = describe(pod);
            }
            sleep();
        }
        throw new IllegalStateException("pod " + namespace + "/" + name + " was neither bound nor found unschedulable"
                + " within " + timeout + ": " + last);
    }

    /** The pod's placement once the scheduler is done with it: bound with every claim reserved, or unschedulable. */
    private Optional<PodPlacement> settled(Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        Map<String, ResourceClaim> claims = claims(pod);
        String node = pod.getSpec().getNodeName();
        if (node != null && !node.isEmpty()) {
            String uid = pod.getMetadata().getUid();
            boolean reserved = claims.size() == podClaims(pod).size() && claims.values().stream()
                    .allMatch(c -> c.getStatus() != null && c.getStatus().getAllocation() != null
                            && c.getStatus().getReservedFor() != null && c.getStatus().getReservedFor().stream()
                            .anyMatch(r -> uid.equals(r.getUid())));
            return reserved ? Optional.of(new PodPlacement(namespace, pod.getMetadata().getName(), Optional.of(node),
                    "", "", claims)) : Optional.empty();
        }
        return scheduledCondition(pod)
                .filter(c -> "False".equals(c.getStatus()))
                .map(c -> new PodPlacement(namespace, pod.getMetadata().getName(), Optional.empty(),
                        nullToEmpty(c.getReason()), nullToEmpty(c.getMessage()), claims));
    }

    private Map<String, ResourceClaim> claims(Pod pod) {
        Map<String, ResourceClaim> claims = new LinkedHashMap<>();
        for (PodResourceClaim podClaim : podClaims(pod)) {
            claimName(pod, podClaim).map(claimName -> client.resources(ResourceClaim.class)
                            .inNamespace(pod.getMetadata().getNamespace()).withName(claimName).get())
                    .ifPresent(claim -> claims.put(podClaim.getName(), claim));
        }
        return claims;
    }

    /** The claim a pod claim refers to: named directly, or the one the claim controller made from the template. */
    private static Optional<String> claimName(Pod pod, PodResourceClaim podClaim) {
        if (podClaim.getResourceClaimName() != null) {
            return Optional.of(podClaim.getResourceClaimName());
        }
        if (pod.getStatus() == null || pod.getStatus().getResourceClaimStatuses() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getResourceClaimStatuses().stream()
                .filter(s -> podClaim.getName().equals(s.getName()))
                .map(PodResourceClaimStatus::getResourceClaimName)
                .filter(n -> n != null && !n.isEmpty())
                .findFirst();
    }

    private static List<PodResourceClaim> podClaims(Pod pod) {
        return pod.getSpec().getResourceClaims() == null ? List.of() : pod.getSpec().getResourceClaims();
    }

    private static Optional<PodCondition> scheduledCondition(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType())).findFirst();
    }

    private String describe(Pod pod) {
        Map<String, ResourceClaim> claims = claims(pod);
        List<String> missing = podClaims(pod).stream().map(PodResourceClaim::getName)
                .filter(n -> !claims.containsKey(n)).toList();
        return "node " + Optional.ofNullable(pod.getSpec().getNodeName()).orElse("(none)")
                + ", claims not created yet: " + (missing.isEmpty() ? "none" : String.join(", ", missing))
                + ", PodScheduled: " + scheduledCondition(pod).map(c -> c.getStatus() + " " + c.getReason())
                .orElse("(no condition)");
    }

    private HasMetadata create(HasMetadata object) {
        HasMetadata copy = client.getKubernetesSerialization().clone(object);
        ObjectMeta meta = copy.getMetadata();
        meta.setUid(null);
        meta.setResourceVersion(null);
        meta.setCreationTimestamp(null);
        meta.setManagedFields(null);
        meta.setGeneration(null);
        if (copy instanceof Namespaced) {
            if (meta.getNamespace() == null || meta.getNamespace().isEmpty()) {
                meta.setNamespace("default");
            }
            ensureNamespace(meta.getNamespace());
        }
        if (copy instanceof Namespace) {
            namespaces.add(meta.getName());
        }
        return client.resource(copy).create();
    }

    private void ensureNamespace(String namespace) {
        if (namespaces.add(namespace) && client.namespaces().withName(namespace).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                    .build()).create();
        }
    }

    private static int rank(HasMetadata object) {
        for (int i = 0; i < ORDER.size(); i++) {
            if (ORDER.get(i).isInstance(object)) {
                return i;
            }
        }
        return ORDER.size();
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the scheduler", e);
        }
    }
}
