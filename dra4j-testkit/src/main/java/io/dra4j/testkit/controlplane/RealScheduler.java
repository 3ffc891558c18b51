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
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
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
 * on create. Status given for other kinds is dropped by the server: claims already allocated are not a starting
 * state this helper can set up (pods already bound are, as long as they use no claims), and preemption is not
 * exercised (no kubelet runs to finish the deletion of a victim).
 */
public final class RealScheduler {
    /**
     * Creation order: what each kind refers to exists before it (the Services and controllers whose selectors make
     * PodTopologySpread's default spreading before the pods). Pending pods go through {@link #schedule}. No
     * controller but the claim controller runs, so a ReplicaSet, ReplicationController or StatefulSet creates no pods.
     */
    private static final List<Class<? extends HasMetadata>> ORDER = List.of(
            Namespace.class,
            PriorityClass.class,
            DeviceClass.class,
            Node.class,
            ResourceSlice.class,
            DeviceTaintRule.class,
            ResourceClaimTemplate.class,
            ResourceClaim.class,
            Service.class,
            ReplicationController.class,
            ReplicaSet.class,
            StatefulSet.class,
            Pod.class);
    /** The scheduling gate {@link #hold} puts on a pod: kube-scheduler leaves a gated pod alone. */
    public static final String HOLD_GATE = "dra4j.io/held";

    private static final Duration POLL = Duration.ofMillis(50);

    private final KubernetesClient client;
    private final Set<String> namespaces = new HashSet<>();

    public RealScheduler(ControlPlane controlPlane) {
        this.client = controlPlane.client();
    }

    /**
     * Creates the objects, kinds in dependency order (namespaces they need first), objects of one kind in the order
     * given. Pods that name their node already are created as they are: the scheduler only counts them (they use no
     * claims this helper could set up as allocated).
     *
     * @throws IllegalArgumentException for a pod without a node: pending pods are created by {@link #schedule}
     */
    public void apply(List<? extends HasMetadata> objects) {
        for (HasMetadata object : objects) {
            if (object instanceof Pod pod && !assigned(pod)) {
                throw new IllegalArgumentException("pod " + pod.getMetadata().getName()
                        + ": pending pods are created one at a time by schedule() or hold(), not by apply()");
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
        return schedule(
                snapshot.stream()
                        .filter(Pod.class::isInstance)
                        .map(Pod.class::cast)
                        .toList(),
                timeoutPerPod);
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
            if (assigned(pod)) {
                throw new IllegalArgumentException("pod " + pod.getMetadata().getName() + " is bound to "
                        + pod.getSpec().getNodeName() + " already: give bound pods to apply()");
            }
        }
        List<PodPlacement> placements = new ArrayList<>();
        for (Pod pod : pods) {
            Pod created = (Pod) create(pod);
            placements.add(await(
                    created.getMetadata().getNamespace(), created.getMetadata().getName(), timeout));
        }
        return placements;
    }

    /**
     * Creates a pending pod with the scheduling gate {@link #HOLD_GATE}, so that kube-scheduler does not take it yet,
     * and waits until the claim controller has made the claims its templates stand for. The cluster then holds the
     * pod as the scheduler will see it once {@link #release}d (its priority resolved by admission, its claims
     * created), which is the moment to take a snapshot for an offline simulator.
     *
     * @return the pod as the API server stores it
     * @throws IllegalStateException when the claims are not created in time
     */
    public Pod hold(Pod pod, Duration timeout) {
        if (assigned(pod)) {
            throw new IllegalArgumentException("pod " + pod.getMetadata().getName() + " is bound to "
                    + pod.getSpec().getNodeName() + " already");
        }
        Pod gated = client.getKubernetesSerialization().clone(pod);
        List<PodSchedulingGate> gates = new ArrayList<>();
        if (gated.getSpec().getSchedulingGates() != null) {
            gates.addAll(gated.getSpec().getSchedulingGates());
        }
        gates.add(new PodSchedulingGate(HOLD_GATE));
        gated.getSpec().setSchedulingGates(gates);
        Pod created = (Pod) create(gated);
        String namespace = created.getMetadata().getNamespace();
        String name = created.getMetadata().getName();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            Pod current = client.pods().inNamespace(namespace).withName(name).get();
            if (current != null && claims(current).size() == podClaims(current).size()) {
                return current;
            }
            sleep();
        }
        Pod current = client.pods().inNamespace(namespace).withName(name).get();
        throw new IllegalStateException("pod " + namespace + "/" + name + ": its claims were not created within "
                + timeout + ": " + (current == null ? "pod gone" : describe(current)));
    }

    /**
     * Takes {@link #HOLD_GATE} off a pod made by {@link #hold} and waits for the scheduler's decision.
     *
     * @throws IllegalStateException when the pod is neither bound nor unschedulable in time
     */
    public PodPlacement release(Pod held, Duration timeout) {
        String namespace = held.getMetadata().getNamespace();
        String name = held.getMetadata().getName();
        client.pods().inNamespace(namespace).withName(name).edit(p -> {
            p.getSpec()
                    .setSchedulingGates(p.getSpec().getSchedulingGates().stream()
                            .filter(g -> !HOLD_GATE.equals(g.getName()))
                            .toList());
            return p;
        });
        return await(namespace, name, timeout);
    }

    /**
     * Deletes a pod at once (no kubelet runs to finish a graceful deletion) and waits until it is gone, e.g. one that
     * stayed unschedulable and would otherwise be retried by the scheduler later.
     */
    public void delete(String namespace, String name, Duration timeout) {
        client.pods().inNamespace(namespace).withName(name).withGracePeriod(0).delete();
        Instant deadline = Instant.now().plus(timeout);
        while (client.pods().inNamespace(namespace).withName(name).get() != null) {
            if (!Instant.now().isBefore(deadline)) {
                throw new IllegalStateException("pod " + namespace + "/" + name + " was not deleted within " + timeout);
            }
            sleep();
        }
    }

    private static boolean assigned(Pod pod) {
        return pod.getSpec() != null
                && pod.getSpec().getNodeName() != null
                && !pod.getSpec().getNodeName().isEmpty();
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
            boolean reserved = claims.size() == podClaims(pod).size()
                    && claims.values().stream()
                            .allMatch(c -> c.getStatus() != null
                                    && c.getStatus().getAllocation() != null
                                    && c.getStatus().getReservedFor() != null
                                    && c.getStatus().getReservedFor().stream().anyMatch(r -> uid.equals(r.getUid())));
            return reserved
                    ? Optional.of(
                            new PodPlacement(namespace, pod.getMetadata().getName(), Optional.of(node), "", "", claims))
                    : Optional.empty();
        }
        // SchedulingGated is the condition a held pod carries until the scheduler has looked at it after release.
        return scheduledCondition(pod)
                .filter(c -> "False".equals(c.getStatus()) && !"SchedulingGated".equals(c.getReason()))
                .map(c -> new PodPlacement(
                        namespace,
                        pod.getMetadata().getName(),
                        Optional.empty(),
                        nullToEmpty(c.getReason()),
                        nullToEmpty(c.getMessage()),
                        claims));
    }

    private Map<String, ResourceClaim> claims(Pod pod) {
        Map<String, ResourceClaim> claims = new LinkedHashMap<>();
        for (PodResourceClaim podClaim : podClaims(pod)) {
            claimName(pod, podClaim)
                    .map(claimName -> client.resources(ResourceClaim.class)
                            .inNamespace(pod.getMetadata().getNamespace())
                            .withName(claimName)
                            .get())
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
        return pod.getSpec().getResourceClaims() == null
                ? List.of()
                : pod.getSpec().getResourceClaims();
    }

    private static Optional<PodCondition> scheduledCondition(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()))
                .findFirst();
    }

    private String describe(Pod pod) {
        Map<String, ResourceClaim> claims = claims(pod);
        List<String> missing = podClaims(pod).stream()
                .map(PodResourceClaim::getName)
                .filter(n -> !claims.containsKey(n))
                .toList();
        return "node " + Optional.ofNullable(pod.getSpec().getNodeName()).orElse("(none)")
                + ", claims not created yet: " + (missing.isEmpty() ? "none" : String.join(", ", missing))
                + ", PodScheduled: "
                + scheduledCondition(pod)
                        .map(c -> c.getStatus() + " " + c.getReason())
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
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(namespace)
                            .endMetadata()
                            .build())
                    .create();
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
