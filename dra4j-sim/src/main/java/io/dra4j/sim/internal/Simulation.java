package io.dra4j.sim.internal;

import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SchedulingEvent;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One simulation run: copies the snapshot, lets the controllers create pods and claims, then schedules the pending
 * pods in queue order, pass after pass, trying a pod that failed again only when some pod was bound after its last
 * attempt (upstream requeues unschedulable pods on cluster events and at the latest after five minutes), until no
 * pod is left to try. Single-threaded; its state lives only for the run.
 */
public final class Simulation {
    static final String DEFAULT_SCHEDULER = "default-scheduler";

    private final SimulationOptions options;
    private final ClusterSnapshot input;
    private final List<String> notes = new ArrayList<>();
    private final List<SchedulingEvent> events = new ArrayList<>();
    private final Map<String, Pod> pods = new LinkedHashMap<>();
    private final Map<String, String> workloadOf = new HashMap<>();
    private final Map<String, List<String>> podNotes = new HashMap<>();
    /** Selectors of the ReplicaSets and StatefulSets by {@code namespace/Kind/name}, for PodTopologySpread's defaults. */
    private final Map<String, LabelSelector> controllerSelectors = new HashMap<>();
    private Cluster cluster;
    private final TraceRecorder trace;

    private final Duration timeout;

    public Simulation(SimulationOptions options, ClusterSnapshot input) {
        this(options, input, null, null);
    }

    /** @param trace receives every scheduling attempt, or null */
    public Simulation(SimulationOptions options, ClusterSnapshot input, io.dra4j.sim.SchedulingTrace trace) {
        this(options, input, null, trace);
    }

    /** @param timeout the bound on each allocation (kube-scheduler's filterTimeout), null for none */
    Simulation(SimulationOptions options, ClusterSnapshot input, Duration timeout) {
        this(options, input, timeout, null);
    }

    private Simulation(SimulationOptions options, ClusterSnapshot input, Duration timeout,
                       io.dra4j.sim.SchedulingTrace trace) {
        this.options = options;
        this.input = input;
        this.timeout = timeout;
        this.trace = trace == null ? null : new TraceRecorder(trace);
    }

    /**
     * The controllers' part, before any scheduling: copies of the snapshot's pods and claims (nothing below touches
     * the snapshot's objects), the cluster, the workloads' pods, and the claims made from templates.
     */
    void prepare() {
        for (Pod p : input.pods()) {
            Pod copy = new PodBuilder(p).build();
            normalise(copy);
            pods.put(key(copy), copy);
        }
        List<ResourceClaim> claims = new ArrayList<>();
        for (ResourceClaim c : input.resourceClaims()) {
            ResourceClaim copy = new ResourceClaimBuilder(c).build();
            if (copy.getMetadata().getNamespace() == null) {
                copy.getMetadata().setNamespace(Manifests.namespaceOf(c));
            }
            claims.add(copy);
        }
        cluster = new Cluster(options.gates(), timeout, input.nodes(), input.deviceClasses(), input.resourceSlices(),
                input.deviceTaintRules(), claims);
        expandWorkloads();
        recordControllerSelectors();
        createTemplateClaims();
    }

    /** The cluster once {@link #prepare} ran. */
    Cluster cluster() {
        return cluster;
    }

    /** The pods once {@link #prepare} ran (the workloads' among them), in input order. */
    List<Pod> pods() {
        return List.copyOf(pods.values());
    }

    /** What {@link #prepare} noted about a pod (a template not found, volumes not simulated, ...). */
    List<String> notesOf(Pod p) {
        return podNotes.getOrDefault(key(p), List.of());
    }

    /** Whether a pod is left to kube-scheduler: not bound, not finished, for the default scheduler. */
    static boolean pending(Pod p) {
        String nodeName = p.getSpec().getNodeName();
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return (nodeName == null || nodeName.isEmpty()) && !"Succeeded".equals(phase) && !"Failed".equals(phase)
                && DEFAULT_SCHEDULER.equals(schedulerName(p));
    }

    public SimulationResult run() {
        prepare();
        List<PodResult> results = new ArrayList<>();
        List<Pod> queue = new ArrayList<>();
        for (Pod p : pods.values()) {
            String nodeName = p.getSpec().getNodeName();
            String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            if (nodeName != null && !nodeName.isEmpty()) {
                NodeInfo n = cluster.nodesByName.get(nodeName);
                if (n == null) {
                    note(p, "bound to node " + nodeName + ", which is not in the snapshot");
                } else {
                    n.addPod(p);
                }
                results.add(result(p, PodResult.Placement.BOUND_BEFORE, "", ""));
            } else if (!DEFAULT_SCHEDULER.equals(schedulerName(p))) {
                results.add(result(p, PodResult.Placement.NOT_SCHEDULED,
                        "spec.schedulerName is " + schedulerName(p) + ", not " + DEFAULT_SCHEDULER, ""));
            } else if (!Selectors.list(p.getSpec().getSchedulingGates()).isEmpty()) {
                String msg = "Scheduling is blocked due to non-empty scheduling gates";
                condition(p, "False", "SchedulingGated", msg);
                results.add(result(p, PodResult.Placement.PENDING, msg, ""));
            } else {
                queue.add(p);
            }
        }
        Map<String, Integer> priority = new HashMap<>();
        Map<String, Integer> sequence = new HashMap<>();
        for (Pod p : queue) {
            priority.put(key(p), priorityOf(p));
            sequence.put(key(p), sequence.size());
        }
        // PrioritySort: higher priority first, then earlier creation (queue order for pods without a timestamp).
        queue.sort(Comparator.<Pod>comparingInt(p -> -priority.get(key(p)))
                .thenComparing(Simulation::created)
                .thenComparingInt(p -> sequence.get(key(p))));

        Scheduler scheduler = new Scheduler(cluster, options.percentageOfNodesToScore(),
                p -> controllerSelectors.get(ns(p) + "/" + controllerOf(p)));
        scheduler.trace(trace);
        Map<String, Scheduler.Attempt> last = new LinkedHashMap<>();
        Map<String, Integer> placementsSeen = new HashMap<>();
        int placements = 0;
        List<Pod> pending = queue;
        while (!pending.isEmpty()) {
            List<Pod> still = new ArrayList<>();
            boolean tried = false;
            for (Pod p : pending) {
                // A pod that failed is tried again only after some pod was bound since its last attempt.
                Integer seen = placementsSeen.get(key(p));
                if (seen != null && seen == placements) {
                    still.add(p);
                    continue;
                }
                tried = true;
                if (trace != null) {
                    trace.begin();
                }
                Scheduler.Attempt a = scheduler.schedule(p);
                if (trace != null) {
                    trace.end(p, a.node(), cluster);
                }
                last.put(key(p), a);
                if (a.node() != null) {
                    placements++;
                    condition(p, "True", null, null);
                    events.add(new SchedulingEvent("Normal", "Scheduled", ns(p), name(p), "Successfully assigned "
                            + ns(p) + "/" + name(p) + " to " + a.node()));
                } else {
                    placementsSeen.put(key(p), placements);
                    still.add(p);
                    condition(p, "False", a.error() ? "SchedulerError" : "Unschedulable", a.message());
                    events.add(new SchedulingEvent("Warning", "FailedScheduling", ns(p), name(p), a.message()));
                }
            }
            if (!tried) {
                break;
            }
            pending = still;
        }
        for (Pod p : queue) {
            Scheduler.Attempt a = last.get(key(p));
            results.add(a.node() != null ? result(p, PodResult.Placement.PLACED, "", "")
                    : result(p, PodResult.Placement.PENDING, a.message(), a.draReason().get()));
        }
        ClusterSnapshot finalState = new ClusterSnapshot(input.nodes(), List.copyOf(pods.values()),
                input.priorityClasses(), input.deviceClasses(), input.resourceSlices(), cluster.claims(),
                input.resourceClaimTemplates(), input.deviceTaintRules(), input.deployments(), input.replicaSets(),
                input.statefulSets(), input.jobs(), input.daemonSets());
        return new SimulationResult(results, events, notes, finalState);
    }

    /** Namespace and UID as the API server would have set them when the pod was created. */
    private static void normalise(Pod p) {
        PodDefaults.apply(p);
        if (p.getMetadata().getNamespace() == null || p.getMetadata().getNamespace().isEmpty()) {
            p.getMetadata().setNamespace(Manifests.DEFAULT_NAMESPACE);
        }
        if (p.getMetadata().getName() == null || p.getMetadata().getName().isEmpty()) {
            p.getMetadata().setName(Names.generate(p.getMetadata().getNamespace(), p.getMetadata().getGenerateName(),
                    x -> false));
        }
        if (p.getMetadata().getUid() == null || p.getMetadata().getUid().isEmpty()) {
            p.getMetadata().setUid(WorkloadExpander.uid(p.getMetadata().getNamespace(), "Pod", p.getMetadata().getName()));
        }
    }

    private void expandWorkloads() {
        List<Pod> existing = List.copyOf(pods.values());
        WorkloadExpander x = new WorkloadExpander(existing, pods::containsKey, notes);
        input.deployments().forEach(d -> add(x.deployment(d, input.replicaSets()), d));
        input.replicaSets().forEach(r -> add(x.replicaSet(r), r));
        input.statefulSets().forEach(s -> add(x.statefulSet(s), s));
        input.jobs().forEach(j -> add(x.job(j), j));
        input.daemonSets().forEach(d -> add(x.daemonSet(d, cluster.nodes), d));
        for (Pod p : pods.values()) {
            for (OwnerReference r : Selectors.list(p.getMetadata().getOwnerReferences())) {
                if (Boolean.TRUE.equals(r.getController())) {
                    workloadOf.putIfAbsent(key(p), r.getKind() + " " + ns(p) + "/" + r.getName());
                }
            }
        }
    }

    /** {@code Kind/name} of the pod's controller, or "" when it has none. */
    private static String controllerOf(Pod p) {
        for (OwnerReference r : Selectors.list(p.getMetadata().getOwnerReferences())) {
            if (Boolean.TRUE.equals(r.getController())) {
                return r.getKind() + "/" + r.getName();
            }
        }
        return "";
    }

    /**
     * The selectors DefaultSelector finds for a pod: its ReplicaSet's (for a Deployment's pods the Deployment's
     * selector plus pod-template-hash, as the ReplicaSet has) or its StatefulSet's. Services are not read, so their
     * selectors are not part of it.
     */
    private void recordControllerSelectors() {
        for (var rs : input.replicaSets()) {
            controllerSelectors.put(Manifests.namespaceOf(rs) + "/ReplicaSet/" + rs.getMetadata().getName(),
                    rs.getSpec().getSelector());
        }
        for (var s : input.statefulSets()) {
            controllerSelectors.put(Manifests.namespaceOf(s) + "/StatefulSet/" + s.getMetadata().getName(),
                    s.getSpec().getSelector());
        }
        for (Pod p : pods.values()) {
            String owner = controllerOf(p);
            String hash = p.getMetadata().getLabels() == null ? null : p.getMetadata().getLabels().get("pod-template-hash");
            if (!owner.startsWith("ReplicaSet/") || hash == null || controllerSelectors.containsKey(ns(p) + "/" + owner)) {
                continue;
            }
            for (var d : input.deployments()) {
                if (Manifests.namespaceOf(d).equals(ns(p)) && owner.equals("ReplicaSet/" + d.getMetadata().getName() + "-" + hash)) {
                    controllerSelectors.put(ns(p) + "/" + owner, new LabelSelectorBuilder(d.getSpec().getSelector())
                            .addToMatchLabels("pod-template-hash", hash).build());
                }
            }
        }
    }

    private void add(List<Pod> created, HasMetadata workload) {
        for (Pod p : created) {
            pods.put(key(p), p);
            workloadOf.put(key(p), workload.getKind() + " " + ns(p) + "/" + workload.getMetadata().getName());
        }
    }

    /**
     * The resourceclaim controller: a claim for every template reference that has none yet, named
     * {@code <pod>-<claim>-<5 characters>}, owned by the pod, recorded in the pod's status.
     */
    private void createTemplateClaims() {
        Map<String, ResourceClaimTemplate> templates = new HashMap<>();
        for (ResourceClaimTemplate t : input.resourceClaimTemplates()) {
            templates.put(Manifests.namespaceOf(t) + "/" + t.getMetadata().getName(), t);
        }
        for (Pod p : pods.values()) {
            for (Volume v : Selectors.list(p.getSpec().getVolumes())) {
                if (v.getPersistentVolumeClaim() != null || v.getEphemeral() != null) {
                    note(p, "volume " + v.getName() + " uses a PersistentVolumeClaim: volumes are not simulated");
                }
            }
            for (PodResourceClaim pc : Selectors.list(p.getSpec().getResourceClaims())) {
                if (pc.getResourceClaimTemplateName() == null || DynamicResources.claimName(p, pc) != null) {
                    continue;
                }
                ResourceClaimTemplate t = templates.get(ns(p) + "/" + pc.getResourceClaimTemplateName());
                if (t == null) {
                    note(p, "claim " + pc.getName() + ": ResourceClaimTemplate " + ns(p) + "/"
                            + pc.getResourceClaimTemplateName() + " not found, so no claim can be created");
                    continue;
                }
                String name = Names.generate(ns(p), Names.claimGenerateName(name(p), pc.getName()),
                        x -> cluster.claim(ns(p), x) != null);
                Map<String, String> annotations = new LinkedHashMap<>();
                if (t.getSpec().getMetadata() != null && t.getSpec().getMetadata().getAnnotations() != null) {
                    annotations.putAll(t.getSpec().getMetadata().getAnnotations());
                }
                annotations.put(DynamicResources.POD_CLAIM_NAME_ANNOTATION, pc.getName());
                ResourceClaim claim = new ResourceClaimBuilder()
                        .withNewMetadata().withName(name).withNamespace(ns(p))
                        .withGenerateName(Names.claimGenerateName(name(p), pc.getName()))
                        .withUid(WorkloadExpander.uid(ns(p), "ResourceClaim", name))
                        .withLabels(t.getSpec().getMetadata() == null ? null : t.getSpec().getMetadata().getLabels())
                        .withAnnotations(annotations)
                        .withOwnerReferences(podOwner(p))
                        .withCreationTimestamp(p.getMetadata().getCreationTimestamp())
                        .endMetadata()
                        .withSpec(new ResourceClaimBuilder().withSpec(t.getSpec().getSpec()).build().getSpec())
                        .build();
                cluster.addClaim(claim);
                if (p.getStatus() == null) {
                    p.setStatus(new PodStatus());
                }
                List<PodResourceClaimStatus> st = new ArrayList<>(Selectors.list(p.getStatus().getResourceClaimStatuses()));
                st.add(new PodResourceClaimStatus(pc.getName(), name));
                p.getStatus().setResourceClaimStatuses(st);
            }
        }
    }

    private static OwnerReference podOwner(Pod p) {
        return new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod").withName(name(p))
                .withUid(p.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build();
    }

    /** spec.priority when set (the admission plugin sets it), else the PriorityClass, else the global default, else 0. */
    private int priorityOf(Pod p) {
        if (p.getSpec().getPriority() != null) {
            return p.getSpec().getPriority();
        }
        String cls = p.getSpec().getPriorityClassName();
        for (PriorityClass pc : input.priorityClasses()) {
            if (cls != null && cls.equals(pc.getMetadata().getName())) {
                p.getSpec().setPriority(pc.getValue());
                return pc.getValue();
            }
        }
        if (cls != null && !cls.isEmpty()) {
            note(p, "PriorityClass " + cls + " not found (the API server would refuse the pod); priority 0 used");
            return 0;
        }
        for (PriorityClass pc : input.priorityClasses()) {
            if (Boolean.TRUE.equals(pc.getGlobalDefault())) {
                p.getSpec().setPriority(pc.getValue());
                return pc.getValue();
            }
        }
        return 0;
    }

    private static Instant created(Pod p) {
        String ts = p.getMetadata().getCreationTimestamp();
        if (ts == null || ts.isEmpty()) {
            return Instant.MIN;
        }
        try {
            return Instant.parse(ts);
        } catch (DateTimeParseException e) {
            return Instant.MIN;
        }
    }

    private static String schedulerName(Pod p) {
        String s = p.getSpec().getSchedulerName();
        return s == null || s.isEmpty() ? DEFAULT_SCHEDULER : s;
    }

    /** Sets the PodScheduled condition as kube-scheduler does. */
    private static void condition(Pod p, String status, String reason, String message) {
        if (p.getStatus() == null) {
            p.setStatus(new PodStatus());
        }
        List<PodCondition> conditions = new ArrayList<>();
        for (PodCondition c : Selectors.list(p.getStatus().getConditions())) {
            if (!"PodScheduled".equals(c.getType())) {
                conditions.add(c);
            }
        }
        PodCondition c = new PodCondition();
        c.setType("PodScheduled");
        c.setStatus(status);
        c.setReason(reason);
        c.setMessage(message);
        conditions.add(c);
        p.getStatus().setConditions(conditions);
        if (p.getStatus().getPhase() == null) {
            p.getStatus().setPhase("Pending");
        }
    }

    private void note(Pod p, String text) {
        podNotes.computeIfAbsent(key(p), k -> new ArrayList<>()).add(text);
    }

    private PodResult result(Pod p, PodResult.Placement placement, String reason, String draReason) {
        String node = p.getSpec().getNodeName();
        return new PodResult(ns(p), name(p), Optional.ofNullable(node == null || node.isEmpty() ? null : node),
                placement, reason, draReason, workloadOf.getOrDefault(key(p), ""),
                podNotes.getOrDefault(key(p), List.of()));
    }

    static String key(Pod p) {
        return ns(p) + "/" + name(p);
    }

    static String ns(Pod p) {
        return p.getMetadata().getNamespace();
    }

    static String name(Pod p) {
        return p.getMetadata().getName();
    }
}
