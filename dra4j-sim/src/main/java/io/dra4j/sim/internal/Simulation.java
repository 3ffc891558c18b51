package io.dra4j.sim.internal;

import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.GangResult;
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
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One simulation run: copies the snapshot, lets the controllers create pods and claims, then schedules the pending
 * pods in queue order, pass after pass, trying a pod that failed again only when the cluster changed after its last
 * attempt, until no pod is left to try; then the device taint eviction controller deletes the pods using devices
 * with untolerated NoExecute taints on a simulated clock, their controllers re-create them, and scheduling resumes.
 * Pods deleted by preemption or eviction release their claims as the resourceclaim controller does.
 * Gangs go through GangScheduling's pod group cycle ({@link #attemptGang}). Single-threaded; its state lives only
 * for the run. Over 800 lines for a reason: the run's state (outcomes, requeue bookkeeping, the clock, the deleted
 * and re-created pods) is shared by the pod cycle, the pod group cycle, eviction and the controllers' part.
 */
public final class Simulation {
    static final String DEFAULT_SCHEDULER = "default-scheduler";

    private final SimulationOptions options;
    private final ClusterSnapshot input;
    private final io.dra4j.sim.Simulator.Progress progress;
    private int attempts;
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
    private final Map<String, ResourceClaimTemplate> templates = new HashMap<>();
    private Scheduler scheduler;
    private final Nominator nominator = new Nominator();
    private Gangs gangs;
    /** Per gang, its last pod group cycle: what fitted, the status it ended with, its first member that did not fit. */
    private final Map<String, GangCycle> gangCycles = new HashMap<>();
    /** Every pod's outcome so far, in report order: bound before, then as queued (replacements at the end). */
    private final Map<String, Outcome> outcomes = new LinkedHashMap<>();

    private final Map<String, Pod> deleted = new HashMap<>();
    private final List<Pod> created = new ArrayList<>();
    private final Map<String, Integer> priority = new HashMap<>();
    private final Map<String, Integer> sequence = new HashMap<>();
    /** Per failed pod: the bindings and deletions counted at its last attempt, and whether bindings may help it. */
    private final Map<String, int[]> seenAt = new HashMap<>();
    /**
     * Bindings and deletions (with their claims' deallocation, and claims DynamicResources' PostFilter deallocated) so
     * far: the cluster events that requeue a pod.
     */
    private int bindings;

    private int deletions;
    private int replacements;
    /** The simulated clock: the latest creationTimestamp in the snapshot, advanced by eviction's waits. */
    private Instant clock = Instant.EPOCH;
    /** How far the simulated clock runs for evictions (a pod that tolerates a taint for a while is evicted again and again). */
    static final java.time.Duration EVICTION_HORIZON = java.time.Duration.ofHours(1);

    static final int MAX_EVICTION_ROUNDS = 100;

    /**
     * How often one pod may preempt without being bound. A pod that preempts and then still fails other than for
     * lack of room (an error clears its nomination) lets the victims' replacements take the node back, and
     * kube-scheduler would preempt them again without end; the simulation stops trying such a pod.
     */
    static final int MAX_PREEMPTIONS_PER_POD = 10;

    /** Preemptions carried out per pod so far; a pod that reached {@link #MAX_PREEMPTIONS_PER_POD} is not tried again. */
    private final Map<String, Integer> preemptions = new HashMap<>();

    /**
     * How often DynamicResources' PostFilter may deallocate a claim for one pod without the pod being bound. The
     * deallocation is a claim event that queues the pods using the claim again; when another of them allocates the
     * claim again on a node where this pod does not fit and then fails (say in PreBind), kube-scheduler repeats
     * the two attempts without end (its backoff only spreads them over time); the simulation stops trying the pod.
     */
    static final int MAX_DEALLOCATIONS_PER_POD = 10;

    /** PostFilter deallocations per pod so far; a pod that reached {@link #MAX_DEALLOCATIONS_PER_POD} is not tried again. */
    private final Map<String, Integer> deallocations = new HashMap<>();

    public Simulation(SimulationOptions options, ClusterSnapshot input) {
        this(options, input, options.effectiveFilterTimeout(), null, null);
    }

    public Simulation(SimulationOptions options, ClusterSnapshot input, io.dra4j.sim.Simulator.Progress progress) {
        this(options, input, options.effectiveFilterTimeout(), null, progress);
    }

    /** @param trace receives every scheduling attempt, or null */
    public Simulation(SimulationOptions options, ClusterSnapshot input, io.dra4j.sim.SchedulingTrace trace) {
        this(options, input, options.effectiveFilterTimeout(), trace, null);
    }

    /** @param timeout the bound on each allocation (kube-scheduler's filterTimeout), null for none */
    Simulation(SimulationOptions options, ClusterSnapshot input, Duration timeout) {
        this(options, input, timeout, null, null);
    }

    private Simulation(
            SimulationOptions options,
            ClusterSnapshot input,
            Duration timeout,
            io.dra4j.sim.SchedulingTrace trace,
            io.dra4j.sim.Simulator.Progress progress) {
        this.options = options;
        this.input = input;
        this.timeout = timeout;
        this.trace = trace == null ? null : new TraceRecorder(trace);
        this.progress = progress == null ? (done, queued) -> {} : progress;
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
        for (Pod p : pods.values()) {
            clock = created(p).isAfter(clock) ? created(p) : clock;
        }
        Instant tainted = DeviceTaintEviction.latestTimeAdded(input.resourceSlices(), input.deviceTaintRules());
        clock = tainted.isAfter(clock) ? tainted : clock;
        cluster = new Cluster(
                options.gates(),
                timeout,
                input.nodes(),
                input.deviceClasses(),
                input.resourceSlices(),
                input.deviceTaintRules(),
                claims);
        expandWorkloads();
        recordControllerSelectors();
        createTemplateClaims();
        gangs = new Gangs(pods.values(), input.podGroups(), input.workloads(), options.gangs(), notes);
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
        return (nodeName == null || nodeName.isEmpty())
                && !"Succeeded".equals(phase)
                && !"Failed".equals(phase)
                && DEFAULT_SCHEDULER.equals(schedulerName(p));
    }

    /** How many scheduling cycles of the last {@link #run} took the repeated-failure shortcut (tests count them). */
    int repeatedFailures() {
        return scheduler == null ? 0 : scheduler.repeatedFailures();
    }

    public SimulationResult run() {
        prepare();
        List<Pod> queue = new ArrayList<>();
        for (Pod p : List.copyOf(pods.values())) {
            String nodeName = p.getSpec().getNodeName();
            String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            priorityOf(p);
            if (nodeName != null && !nodeName.isEmpty()) {
                NodeInfo n = cluster.nodesByName.get(nodeName);
                if (n == null) {
                    note(p, "bound to node " + nodeName + ", which is not in the snapshot");
                } else {
                    n.addPod(p);
                }
                outcomes.put(key(p), new Outcome(PodResult.Placement.BOUND_BEFORE, "", () -> ""));
            } else if (!DEFAULT_SCHEDULER.equals(schedulerName(p))) {
                outcomes.put(
                        key(p),
                        new Outcome(
                                PodResult.Placement.NOT_SCHEDULED,
                                "spec.schedulerName is " + schedulerName(p) + ", not " + DEFAULT_SCHEDULER,
                                () -> ""));
            } else if (!Selectors.list(p.getSpec().getSchedulingGates()).isEmpty()) {
                String msg = "Scheduling is blocked due to non-empty scheduling gates";
                condition(p, "False", "SchedulingGated", msg);
                outcomes.put(key(p), new Outcome(PodResult.Placement.PENDING, msg, () -> ""));
            } else if (gangs.blocked(p) != null) {
                // GangScheduling's PreEnqueue: the pod waits until its PodGroup exists.
                outcomes.put(key(p), new Outcome(PodResult.Placement.PENDING, gangs.blocked(p), () -> ""));
            } else {
                queue.add(p);
            }
        }
        queue.forEach(this::enqueue);
        // The queue's nominator takes the nominations the snapshot's pods carry.
        queue.forEach(p -> nominator.nominate(
                p, p.getStatus() == null ? null : p.getStatus().getNominatedNodeName()));
        queue.sort(queueOrder());
        queue.forEach(p -> outcomes.put(key(p), null));

        DefaultSelectors defaultSelectors =
                new DefaultSelectors(input.services(), input.replicationControllers(), controllerSelectors);
        scheduler = new Scheduler(
                cluster,
                options.percentageOfNodesToScore(),
                defaultSelectors::of,
                input.podDisruptionBudgets(),
                options.bindingConditions(),
                () -> clock,
                nominator);
        scheduler.trace(trace);
        List<Pod> pending = scheduleAll(new ArrayList<>(queue));
        // The device taint eviction controller, on the simulated clock: evictions due now, else the clock moves to
        // the next one within the horizon; each round of deletions lets the scheduler run again.
        DeviceTaintEviction eviction = new DeviceTaintEviction(input.resourceSlices(), input.deviceTaintRules(), clock);
        Instant horizon = clock.plus(EVICTION_HORIZON);
        for (int round = 0; ; round++) {
            List<Map.Entry<Pod, DeviceTaintEviction.Eviction>> due = new ArrayList<>();
            Instant next = null;
            for (NodeInfo n : cluster.nodes) {
                for (Pod p : n.pods) {
                    DeviceTaintEviction.Eviction e = eviction.podEviction(p, cluster);
                    if (e != null) {
                        due.add(Map.entry(p, e));
                        next = next == null || e.when().isBefore(next) ? e.when() : next;
                    }
                }
            }
            if (next == null) {
                break;
            }
            if (round == MAX_EVICTION_ROUNDS) {
                notes.add("device taint eviction stopped after " + MAX_EVICTION_ROUNDS + " rounds at " + clock
                        + ": pods tolerating a NoExecute taint for a while keep being re-created and evicted");
                break;
            }
            if (next.isAfter(horizon)) {
                notes.add(due.size() + " pod(s) would be evicted for NoExecute device taints after the simulated "
                        + "horizon of " + EVICTION_HORIZON.toMinutes() + " minutes (first at " + next
                        + "); not simulated");
                break;
            }
            clock = next.isAfter(clock) ? next : clock;
            Instant now = clock;
            due.removeIf(e -> e.getValue().when().isAfter(now));
            for (Map.Entry<Pod, DeviceTaintEviction.Eviction> e : due) {
                Pod p = e.getKey();
                events.add(new SchedulingEvent(
                        "Normal", "DeviceTaintManagerEviction", ns(p), name(p), "Marking for deletion"));
                delete(
                        p,
                        PodResult.Placement.EVICTED,
                        "Device Taint manager: deleting due to NoExecute taint "
                                + e.getValue().taint() + " at " + now);
            }
            pending.addAll(created);
            created.clear();
            pending = scheduleAll(pending);
        }
        List<PodResult> results = new ArrayList<>();
        List<Pod> remaining = new ArrayList<>();
        for (Map.Entry<String, Outcome> e : outcomes.entrySet()) {
            Pod p = pods.get(e.getKey());
            Outcome o = e.getValue();
            results.add(result(p, o.placement(), o.reason(), o.draReason().get()));
            if (!deleted.containsKey(e.getKey())) {
                remaining.add(p);
            }
        }
        for (Pod p : pods.values()) {
            if (!outcomes.containsKey(key(p))) {
                remaining.add(p);
            }
        }
        ClusterSnapshot finalState = input.with(input.nodes(), remaining, input.resourceSlices(), cluster.claims());
        return new SimulationResult(results, events, notes, finalState, gangResults());
    }

    /**
     * Schedules the pending pods pass after pass until no pod is left to try; returns those still pending. A pod
     * that failed is tried again only after the cluster changed since its last attempt (upstream requeues
     * unschedulable pods on cluster events and at the latest after five minutes).
     */
    private List<Pod> scheduleAll(List<Pod> pending) {
        while (!pending.isEmpty()) {
            // PrioritySort over what is pending now (pods re-created by their controllers included).
            pending.sort(queueOrder());
            List<Pod> still = new ArrayList<>();
            boolean tried = false;
            Set<String> cycled = new HashSet<>();
            for (Pod p : pending) {
                if (deleted.containsKey(key(p))) {
                    continue;
                }
                Gangs.Gang gang = gangs.of(p);
                if (gang != null) {
                    // The first member in queue order brings its whole gang into one pod group cycle.
                    if (cycled.add(gang.name()) && retry(seenAt.get(gang.name()))) {
                        tried = true;
                        attemptGang(
                                gang,
                                pending.stream()
                                        .filter(m -> gang == gangs.of(m) && !deleted.containsKey(key(m)))
                                        .toList());
                    }
                    if (!bound(p)) {
                        still.add(p);
                    }
                    continue;
                }
                // A pod that failed is tried again only after an event that may help it, as upstream's queueing
                // hints requeue it: a deletion frees resources for any rejection; a binding helps only pods that
                // InterPodAffinity or PodTopologySpread rejected (and pods whose attempt ended in an error).
                if (!retry(seenAt.get(key(p)))
                        || preemptions.getOrDefault(key(p), 0) >= MAX_PREEMPTIONS_PER_POD
                        || deallocations.getOrDefault(key(p), 0) >= MAX_DEALLOCATIONS_PER_POD) {
                    still.add(p);
                    continue;
                }
                tried = true;
                if (!attempt(p)) {
                    still.add(p);
                }
            }
            still.addAll(created);
            created.clear();
            if (!tried && still.size() == pending.size()) {
                break;
            }
            pending = still;
        }
        return pending;
    }

    /** Whether a pod (or gang) last tried at {@code seen} may fit now; true when it was never tried. */
    private boolean retry(int[] seen) {
        return seen == null || seen[1] != deletions || seen[2] != 0 && seen[0] != bindings;
    }

    private static boolean bound(Pod p) {
        return p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty();
    }

    /** A gang's last pod group cycle. */
    private record GangCycle(
            int fitted,
            String status,
            String firstUnfit,
            String unfitReason,
            java.util.function.Supplier<String> unfitDraReason) {}

    /**
     * GangScheduling with its pod group cycle (schedule_one_podgroup.go): the gang's pending members are scheduled
     * one after another in queue order, each reserved on its node so the next sees it; PlacementFeasible stops the
     * cycle once the members scheduled and those left cannot reach minCount. When at least minCount are scheduled
     * (members bound before count) the reserved members are bound and the others stay pending with their own
     * FitError; otherwise every reservation is taken back (claims as they were, devices free) and the members that
     * fitted are pending with the gang's status. PreEnqueue holds the gang while fewer than minCount members exist.
     * DefaultPreemption is not run for gang members (upstream's workload-aware preemption is not simulated).
     */
    private void attemptGang(Gangs.Gang g, List<Pod> members) {
        String invalid = invalidPodGroup(g, members);
        if (invalid != null) {
            // handlePodGroupFailureBeforeScheduling: every member fails with the error before any is tried.
            members.forEach(p -> recordFailure(p, Scheduler.Attempt.failed(invalid, "", false)));
            seenAt.put(g.name(), new int[] {bindings, deletions, 0});
            gangCycles.put(g.name(), new GangCycle(0, invalid, "", "", () -> ""));
            return;
        }
        int scheduled = 0;
        for (String m : gangs.members(g)) {
            Pod p = pods.get(m);
            scheduled += p != null && !deleted.containsKey(m) && bound(p) ? 1 : 0;
        }
        int remaining = members.size();
        if (scheduled + remaining < g.minCount()) {
            String status = "waiting for minCount pods from a gang to appear in scheduling queue";
            members.forEach(p -> outcomes.put(key(p), new Outcome(PodResult.Placement.PENDING, status, () -> "")));
            seenAt.put(g.name(), new int[] {bindings, deletions, 0});
            gangCycles.put(g.name(), new GangCycle(scheduled, status, "", "", () -> ""));
            return;
        }
        List<Map.Entry<Pod, Scheduler.Attempt>> fitted = new ArrayList<>();
        Map<Pod, Scheduler.Attempt> failed = new LinkedHashMap<>();
        String status = null;
        boolean helped = false;
        for (Pod p : members) {
            if (trace != null) {
                trace.begin();
            }
            Scheduler.Attempt a = scheduler.schedule(p, true);
            if (trace != null) {
                trace.end(p, a.node(), null, List.of(), cluster);
            }
            progress.attempted(++attempts, sequence.size());
            remaining--;
            if (a.node() != null) {
                fitted.add(Map.entry(p, a));
                scheduled++;
            } else {
                failed.put(p, a);
                helped |= a.helpedByBindings();
                if (a.error()) {
                    status = "failed to schedule other pod from a pod group: " + a.message();
                    break;
                }
            }
            if (remaining + scheduled < g.minCount()) {
                status = "minCount (" + g.minCount() + ") cannot be satisfied: " + scheduled + " scheduled, "
                        + remaining + " remaining";
                break;
            }
        }
        Map.Entry<Pod, Scheduler.Attempt> first =
                failed.entrySet().stream().findFirst().orElse(null);
        gangCycles.put(
                g.name(),
                new GangCycle(
                        scheduled,
                        status == null ? "" : status,
                        first == null ? "" : key(first.getKey()),
                        first == null ? "" : first.getValue().message(),
                        first == null ? () -> "" : first.getValue().draReason()));
        seenAt.put(g.name(), new int[] {bindings, deletions, helped ? 1 : 0});
        if (status == null) {
            fitted.forEach(e -> recordBound(e.getKey(), e.getValue()));
        } else {
            // Unreserve, latest first: each reservation is taken back as it was made.
            for (int i = fitted.size() - 1; i >= 0; i--) {
                fitted.get(i).getValue().undo().run();
            }
            // PodGroupPostFilter: the claims DynamicResources' PostFilter would free for each member that did not fit.
            for (Scheduler.Attempt a : failed.values()) {
                if (a.deallocate() != null) {
                    a.deallocate().run();
                    deletions++;
                }
            }
        }
        for (Pod p : members) {
            Scheduler.Attempt a = failed.get(p);
            if (a != null) {
                recordFailure(p, a);
            } else if (!bound(p)) {
                recordFailure(p, Scheduler.Attempt.failed(status, "", false));
            }
        }
    }

    /**
     * scheduleOnePodGroup's validatePodGroup for a PodGroup's queued members (null when they pass): the members have
     * the PodGroup's priority (resolved from its class as the Priority admission plugin resolves it) and the preemption
     * policy of the first of them. A gang marked with {@code --gang} has no PodGroup to check.
     */
    private String invalidPodGroup(Gangs.Gang g, List<Pod> members) {
        if (g.podGroup() == null) {
            return null;
        }
        PriorityClass groupClass = priorityClassFor(g.podGroup().priorityClassName());
        int groupPriority = g.podGroup().priority() != null
                ? g.podGroup().priority()
                : groupClass == null ? 0 : groupClass.getValue();
        String policy = null;
        for (Pod p : members) {
            int priority = priorityOf(p);
            if (priority != groupPriority) {
                return "all pods in a single pod group should have the same priority as the pod group's priority, got "
                        + priority + " and " + groupPriority;
            }
            String own = p.getSpec().getPreemptionPolicy() == null
                    ? "PreemptLowerPriority"
                    : p.getSpec().getPreemptionPolicy();
            if (policy == null) {
                policy = own;
            } else if (!policy.equals(own)) {
                return "all pods in a single pod group should have the same preemption policy, got " + own + " and "
                        + policy;
            }
        }
        return null;
    }

    /** The gangs' outcome at the end of the run, members in queue order. */
    private List<GangResult> gangResults() {
        List<GangResult> out = new ArrayList<>();
        for (Gangs.Gang g : gangs.all()) {
            if (g.basic()) {
                continue;
            }
            List<String> members = new ArrayList<>(gangs.members(g));
            members.sort(Comparator.comparingInt(m -> sequence.getOrDefault(m, Integer.MAX_VALUE)));
            int placed = 0;
            for (String m : members) {
                placed += !deleted.containsKey(m) && bound(pods.get(m)) ? 1 : 0;
            }
            GangCycle c = gangCycles.get(g.name());
            boolean fits = placed >= g.minCount();
            String reason = fits
                    ? ""
                    : c != null
                            ? c.status()
                            : outcomes.containsKey(members.get(0)) && outcomes.get(members.get(0)) != null
                                    ? outcomes.get(members.get(0)).reason()
                                    : "";
            out.add(new GangResult(
                    g.name(),
                    g.workload(),
                    g.minCount(),
                    members,
                    placed,
                    c == null ? placed : c.fitted(),
                    fits,
                    reason,
                    c == null ? "" : c.firstUnfit(),
                    c == null ? "" : c.unfitReason(),
                    c == null ? "" : c.unfitDraReason().get()));
        }
        return out;
    }

    /** What became of a pod so far; the DRA reason is computed only when reported. */
    private record Outcome(
            PodResult.Placement placement, String reason, java.util.function.Supplier<String> draReason) {}

    /**
     * One scheduling cycle for the pod, and the PostFilter's preemption carried out: the nomination recorded, the
     * victims deleted, and the pod tried again at once on its nominated node (the victims are gone at once here,
     * where upstream waits for them to terminate and requeues the pod on their deletion). True when it was bound.
     */
    private boolean attempt(Pod p) {
        if (trace != null) {
            trace.begin();
        }
        Scheduler.Attempt a = scheduler.schedule(p);
        if (trace != null) {
            trace.end(p, a.node(), a.nominate(), a.victims(), cluster);
        }
        progress.attempted(++attempts, sequence.size());
        if (a.node() != null) {
            recordBound(p, a);
            return true;
        }
        seenAt.put(key(p), new int[] {bindings, deletions, a.helpedByBindings() ? 1 : 0});
        if (a.deallocate() != null) {
            // DynamicResources' PostFilter frees a claim: a claim event, which requeues this pod and others.
            a.deallocate().run();
            deletions++;
            if (deallocations.merge(key(p), 1, Integer::sum) == MAX_DEALLOCATIONS_PER_POD) {
                notes.add("pod " + key(p) + " had a claim deallocated by DynamicResources' PostFilter "
                        + MAX_DEALLOCATIONS_PER_POD + " times without being bound (another pod allocated it again "
                        + "each time and failed); not tried again");
            }
        }
        recordFailure(p, a);
        // handleSchedulingFailure's nomination: a FitError's PostFilter result (null leaves it), any other failure
        // clears it.
        String nominate = a.error() ? "" : a.nominate();
        if (nominate != null) {
            p.getStatus().setNominatedNodeName(nominate.isEmpty() ? null : nominate);
            nominator.nominate(p, nominate);
        }
        if (a.victims().isEmpty()) {
            return false;
        }
        // The preemption's executor clears the nominations of lower-priority pods nominated to the same node: they
        // may no longer fit there.
        for (Pod lower : nominator.lowerPriority(a.nominate(), Preemption.priority(p))) {
            lower.getStatus().setNominatedNodeName(null);
            nominator.remove(lower);
        }
        for (Pod victim : a.victims()) {
            String message = "Preempted by pod " + p.getMetadata().getUid() + " on node " + a.nominate();
            events.add(new SchedulingEvent("Normal", "Preempted", ns(victim), name(victim), message));
            delete(victim, PodResult.Placement.PREEMPTED, message);
        }
        if (preemptions.merge(key(p), 1, Integer::sum) == MAX_PREEMPTIONS_PER_POD) {
            notes.add("pod " + key(p) + " preempted " + MAX_PREEMPTIONS_PER_POD + " times without being bound (the "
                    + "victims' replacements took the room again each time); not tried again");
        }
        return attempt(p);
    }

    /** A binding's condition, events and outcome. */
    private void recordBound(Pod p, Scheduler.Attempt a) {
        if (a.waitedOnNode() != null) {
            events.add(new SchedulingEvent(
                    "Normal",
                    "BindingConditionsPending",
                    ns(p),
                    name(p),
                    "waiting for binding conditions for device on node " + a.waitedOnNode()));
        }
        bindings++;
        condition(p, "True", null, null);
        events.add(new SchedulingEvent(
                "Normal",
                "Scheduled",
                ns(p),
                name(p),
                "Successfully assigned " + ns(p) + "/" + name(p) + " to " + a.node()));
        outcomes.put(key(p), new Outcome(PodResult.Placement.PLACED, "", () -> ""));
    }

    /** A failed attempt's condition, event and outcome. */
    private void recordFailure(Pod p, Scheduler.Attempt a) {
        if (a.waitedOnNode() != null) {
            events.add(new SchedulingEvent(
                    "Normal",
                    "BindingConditionsPending",
                    ns(p),
                    name(p),
                    "waiting for binding conditions for device on node " + a.waitedOnNode()));
        }
        condition(p, "False", a.error() ? "SchedulerError" : "Unschedulable", a.message());
        events.add(new SchedulingEvent("Warning", "FailedScheduling", ns(p), name(p), a.message()));
        outcomes.put(key(p), new Outcome(PodResult.Placement.PENDING, a.message(), a.draReason()));
    }

    /**
     * A pod deleted (preempted or evicted): off its node, its claims released as the resourceclaim controller
     * releases them, and when a controller owns it, the replacement that controller creates queued.
     */
    private void delete(Pod p, PodResult.Placement why, String reason) {
        NodeInfo n = cluster.nodesByName.get(p.getSpec().getNodeName());
        if (n != null) {
            n.removePod(p);
        }
        deleted.put(key(p), p);
        nominator.remove(p);
        outcomes.put(key(p), new Outcome(why, reason, () -> ""));
        deletions++;
        releaseClaims(p);
        Pod replacement = replacement(p);
        if (replacement != null) {
            pods.put(key(replacement), replacement);
            workloadOf.put(key(replacement), workloadOf.getOrDefault(key(p), ""));
            gangs.replaced(p, replacement);
            deleted.remove(key(replacement));
            createTemplateClaims(replacement);
            enqueue(replacement);
            outcomes.put(key(replacement), new Outcome(PodResult.Placement.PENDING, "", () -> ""));
            created.add(replacement);
        }
    }

    /**
     * The resourceclaim controller on a pod that is gone: the pod is taken out of each claim's reservedFor; a claim
     * reserved for nobody any more is deallocated (allocation cleared, its finalizer removed), and one generated
     * for the pod is deleted.
     */
    private void releaseClaims(Pod p) {
        List<String> names = new ArrayList<>();
        for (PodResourceClaim pc : Selectors.list(p.getSpec().getResourceClaims())) {
            String name = DynamicResources.claimName(p, pc);
            if (name != null) {
                names.add(name);
            }
        }
        if (p.getStatus() != null && p.getStatus().getExtendedResourceClaimStatus() != null) {
            names.add(p.getStatus().getExtendedResourceClaimStatus().getResourceClaimName());
        }
        String uid = p.getMetadata().getUid();
        List<ResourceClaim> touched = new ArrayList<>();
        for (String name : names) {
            ResourceClaim c = cluster.claim(ns(p), name);
            if (c == null || c.getStatus() == null) {
                continue;
            }
            touched.add(c);
            List<ResourceClaimConsumerReference> reserved =
                    new ArrayList<>(Selectors.list(c.getStatus().getReservedFor()));
            if (!reserved.removeIf(r -> uid.equals(r.getUid()))) {
                continue;
            }
            c.getStatus().setReservedFor(reserved.isEmpty() ? null : reserved);
            if (reserved.isEmpty()) {
                List<String> finalizers =
                        new ArrayList<>(Selectors.list(c.getMetadata().getFinalizers()));
                if (finalizers.remove(DynamicResources.DELETE_PROTECTION_FINALIZER)) {
                    c.getStatus().setAllocation(null);
                    c.getStatus().setDevices(null);
                    c.getMetadata().setFinalizers(finalizers.isEmpty() ? null : finalizers);
                }
                if (Selectors.list(c.getMetadata().getOwnerReferences()).stream()
                        .anyMatch(o -> "Pod".equals(o.getKind()) && uid.equals(o.getUid()))) {
                    cluster.removeClaim(c);
                }
            }
        }
        cluster.claimsChanged(touched);
    }

    /**
     * The pod its controller creates for a deleted one: a StatefulSet's under the same name, the others' under a
     * new name from their generateName; none for a bare pod. The replacement is created now on the simulated clock.
     */
    private Pod replacement(Pod p) {
        String kind = controllerOf(p);
        if (kind.isEmpty()) {
            return null;
        }
        String name;
        if (kind.startsWith("StatefulSet/")) {
            name = name(p);
        } else {
            String base = p.getMetadata().getGenerateName() != null
                            && !p.getMetadata().getGenerateName().isEmpty()
                    ? p.getMetadata().getGenerateName()
                    : kind.substring(kind.indexOf('/') + 1) + "-";
            name = Names.generate(ns(p), base, x -> pods.containsKey(ns(p) + "/" + x));
        }
        Pod r = new PodBuilder(p)
                .editMetadata()
                .withName(name)
                .withUid(WorkloadExpander.uid(ns(p), "Pod", name + "#" + (replacements++)))
                .withCreationTimestamp(clock.toString())
                .withDeletionTimestamp(null)
                .endMetadata()
                .build();
        r.getSpec().setNodeName(null);
        r.setStatus(new PodStatus());
        r.getStatus().setPhase("Pending");
        return r;
    }

    /** PrioritySort: higher priority first, then earlier creation (queue order for pods without a timestamp). */
    private Comparator<Pod> queueOrder() {
        return Comparator.<Pod>comparingInt(p -> -priority.get(key(p)))
                .thenComparing(Simulation::created)
                .thenComparingInt(p -> sequence.get(key(p)));
    }

    private void enqueue(Pod p) {
        priority.put(key(p), priorityOf(p));
        sequence.put(key(p), sequence.size());
    }

    /** Namespace and UID as the API server would have set them when the pod was created. */
    private static void normalise(Pod p) {
        PodDefaults.apply(p);
        if (p.getMetadata().getNamespace() == null
                || p.getMetadata().getNamespace().isEmpty()) {
            p.getMetadata().setNamespace(Manifests.DEFAULT_NAMESPACE);
        }
        if (p.getMetadata().getName() == null || p.getMetadata().getName().isEmpty()) {
            p.getMetadata()
                    .setName(Names.generate(
                            p.getMetadata().getNamespace(), p.getMetadata().getGenerateName(), x -> false));
        }
        if (p.getMetadata().getUid() == null || p.getMetadata().getUid().isEmpty()) {
            p.getMetadata()
                    .setUid(WorkloadExpander.uid(
                            p.getMetadata().getNamespace(),
                            "Pod",
                            p.getMetadata().getName()));
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
     * The workload selectors DefaultSelector finds for a pod ({@link DefaultSelectors} adds the Services' and
     * ReplicationControllers'): its ReplicaSet's (for a Deployment's pods the Deployment's selector plus
     * pod-template-hash, as the ReplicaSet has) or its StatefulSet's.
     */
    private void recordControllerSelectors() {
        for (var rs : input.replicaSets()) {
            controllerSelectors.put(
                    Manifests.namespaceOf(rs) + "/ReplicaSet/"
                            + rs.getMetadata().getName(),
                    rs.getSpec().getSelector());
        }
        for (var s : input.statefulSets()) {
            controllerSelectors.put(
                    Manifests.namespaceOf(s) + "/StatefulSet/" + s.getMetadata().getName(),
                    s.getSpec().getSelector());
        }
        for (Pod p : pods.values()) {
            String owner = controllerOf(p);
            String hash = p.getMetadata().getLabels() == null
                    ? null
                    : p.getMetadata().getLabels().get("pod-template-hash");
            if (!owner.startsWith("ReplicaSet/")
                    || hash == null
                    || controllerSelectors.containsKey(ns(p) + "/" + owner)) {
                continue;
            }
            for (var d : input.deployments()) {
                if (Manifests.namespaceOf(d).equals(ns(p))
                        && owner.equals("ReplicaSet/" + d.getMetadata().getName() + "-" + hash)) {
                    controllerSelectors.put(
                            ns(p) + "/" + owner,
                            new LabelSelectorBuilder(d.getSpec().getSelector())
                                    .addToMatchLabels("pod-template-hash", hash)
                                    .build());
                }
            }
        }
    }

    private void add(List<Pod> created, HasMetadata workload) {
        for (Pod p : created) {
            pods.put(key(p), p);
            workloadOf.put(
                    key(p),
                    workload.getKind() + " " + ns(p) + "/"
                            + workload.getMetadata().getName());
        }
    }

    /**
     * The resourceclaim controller: a claim for every template reference that has none yet, named
     * {@code <pod>-<claim>-<5 characters>}, owned by the pod, recorded in the pod's status.
     */
    private void createTemplateClaims() {
        for (ResourceClaimTemplate t : input.resourceClaimTemplates()) {
            templates.put(Manifests.namespaceOf(t) + "/" + t.getMetadata().getName(), t);
        }
        pods.values().forEach(this::createTemplateClaims);
    }

    private void createTemplateClaims(Pod p) {
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
                note(
                        p,
                        "claim " + pc.getName() + ": ResourceClaimTemplate " + ns(p) + "/"
                                + pc.getResourceClaimTemplateName() + " not found, so no claim can be created");
                continue;
            }
            String name = Names.generate(
                    ns(p), Names.claimGenerateName(name(p), pc.getName()), x -> cluster.claim(ns(p), x) != null);
            Map<String, String> annotations = new LinkedHashMap<>();
            if (t.getSpec().getMetadata() != null && t.getSpec().getMetadata().getAnnotations() != null) {
                annotations.putAll(t.getSpec().getMetadata().getAnnotations());
            }
            annotations.put(DynamicResources.POD_CLAIM_NAME_ANNOTATION, pc.getName());
            ResourceClaim claim = new ResourceClaimBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withNamespace(ns(p))
                    .withGenerateName(Names.claimGenerateName(name(p), pc.getName()))
                    .withUid(WorkloadExpander.uid(ns(p), "ResourceClaim", name))
                    .withLabels(
                            t.getSpec().getMetadata() == null
                                    ? null
                                    : t.getSpec().getMetadata().getLabels())
                    .withAnnotations(annotations)
                    .withOwnerReferences(podOwner(p))
                    .withCreationTimestamp(p.getMetadata().getCreationTimestamp())
                    .endMetadata()
                    .withSpec(new ResourceClaimBuilder()
                            .withSpec(t.getSpec().getSpec())
                            .build()
                            .getSpec())
                    .build();
            cluster.addClaim(claim);
            if (p.getStatus() == null) {
                p.setStatus(new PodStatus());
            }
            List<PodResourceClaimStatus> st =
                    new ArrayList<>(Selectors.list(p.getStatus().getResourceClaimStatuses()));
            st.add(new PodResourceClaimStatus(pc.getName(), name));
            p.getStatus().setResourceClaimStatuses(st);
        }
    }

    private static OwnerReference podOwner(Pod p) {
        return new OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Pod")
                .withName(name(p))
                .withUid(p.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    /** spec.priority when set (the admission plugin sets it), else the PriorityClass, else the global default, else 0. */
    private int priorityOf(Pod p) {
        if (p.getSpec().getPriority() != null) {
            return p.getSpec().getPriority();
        }
        String cls = p.getSpec().getPriorityClassName();
        PriorityClass pc = priorityClassFor(cls);
        if (pc == null && cls != null && !cls.isEmpty()) {
            note(p, "PriorityClass " + cls + " not found (the API server would refuse the pod); priority 0 used");
            return 0;
        }
        if (pc == null) {
            return 0;
        }
        p.getSpec().setPriority(pc.getValue());
        return pc.getValue();
    }

    /**
     * The class the Priority admission plugin's establishPriority takes the value from: the named class, without a
     * name the global default class; null when there is none (then the priority is 0).
     */
    private PriorityClass priorityClassFor(String cls) {
        boolean named = cls != null && !cls.isEmpty();
        for (PriorityClass pc : input.priorityClasses()) {
            if (named ? cls.equals(pc.getMetadata().getName()) : Boolean.TRUE.equals(pc.getGlobalDefault())) {
                return pc;
            }
        }
        return null;
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
        return new PodResult(
                ns(p),
                name(p),
                Optional.ofNullable(node == null || node.isEmpty() ? null : node),
                placement,
                reason,
                draReason,
                workloadOf.getOrDefault(key(p), ""),
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
