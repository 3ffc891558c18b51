package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * DefaultPreemption's PostFilter for one pod that fits no node, as kube-scheduler 1.37's preemption Evaluator runs it
 * (pkg/scheduler/framework/preemption, plugins/defaultpreemption): eligibility, a dry run on every node whose Filter
 * status was Unschedulable (not UnschedulableAndUnresolvable), victim selection per node (SelectVictimsOnNode) and
 * the choice among candidate nodes (pickOneNodeForPreemption). Where upstream is random or parallel, dra4j is
 * deterministic: the dry run starts at offset 0 and visits the potential nodes in node-tree order, equally important
 * victims keep the node's pod order, and the last tie among candidates goes to the first candidate found.
 *
 * <p>DynamicResources has no PreFilterExtensions in 1.37, so a dry run does not give a victim's devices back to the
 * preemptor: its Filter sees the devices in use as they were at PreFilter, and only the plugins that count pods
 * (NodeResourcesFit, NodePorts, PodTopologySpread, InterPodAffinity) see the victims gone.
 */
final class Preemption {
    static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";
    static final String NO_VICTIMS = "No preemption victims found for incoming pod";
    static final String NEVER = "not eligible due to preemptionPolicy=Never.";
    /** DefaultPreemptionArgs' defaults. */
    static final int MIN_CANDIDATE_NODES_PERCENTAGE = 10;

    static final int MIN_CANDIDATE_NODES_ABSOLUTE = 100;

    /** The Filter plugins of the preemptor's cycle, run again on a node after its pods changed. */
    interface Filters {
        FilterStatus run(NodeInfo node);

        /** Pods were taken off or put back on a node: state computed over all pods is stale. */
        void podsChanged();
    }

    /**
     * PostFilter's result. {@code nominatedNode}: the node to nominate, "" to clear the pod's nomination, null to
     * leave it as it is; {@code victims} the pods to delete; {@code message} the PostFilter message that FitError
     * appends.
     */
    record Outcome(String nominatedNode, List<Pod> victims, String message) {
        Outcome {
            victims = List.copyOf(victims);
        }
    }

    private record Candidate(NodeInfo node, List<Pod> victims, int pdbViolations) {}

    private final Pod preemptor;
    private final int priority;
    private final List<PodDisruptionBudget> pdbs;
    private final Filters filters;

    Preemption(Pod preemptor, List<PodDisruptionBudget> pdbs, Filters filters) {
        this.preemptor = preemptor;
        this.priority = priority(preemptor);
        this.pdbs = pdbs;
        this.filters = filters;
    }

    /**
     * @param allNodes every node, in node-tree order
     * @param statuses the Filter status of every node that failed (nodes PreFilter left out included)
     */
    Outcome postFilter(List<NodeInfo> allNodes, Map<NodeInfo, FilterStatus> statuses) {
        if (never(preemptor)) {
            return new Outcome(null, List.of(), "preemption: " + NEVER);
        }
        // The victims of an earlier preemption are deleted at once in the simulation, so no pod is ever terminating
        // on the nominated node and the pod is always eligible.
        List<NodeInfo> potential = new ArrayList<>();
        for (NodeInfo n : allNodes) {
            FilterStatus s = statuses.get(n);
            if (s != null && s.code() == FilterStatus.Code.UNSCHEDULABLE) {
                potential.add(n);
            }
        }
        Map<NodeInfo, FilterStatus> dryRunStatuses = new java.util.LinkedHashMap<>();
        List<Candidate> nonViolating = new ArrayList<>();
        List<Candidate> violating = new ArrayList<>();
        int wanted = numCandidates(potential.size());
        // DryRunPreemption: stop once a candidate without PDB violations is found and enough candidates are.
        for (NodeInfo n : potential) {
            if (!nonViolating.isEmpty() && nonViolating.size() + violating.size() >= wanted) {
                break;
            }
            Object r = selectVictimsOnNode(n);
            if (r instanceof Candidate c) {
                (c.pdbViolations == 0 ? nonViolating : violating).add(c);
            } else {
                dryRunStatuses.put(n, (FilterStatus) r);
            }
        }
        List<Candidate> candidates = new ArrayList<>(nonViolating);
        candidates.addAll(violating);
        if (candidates.isEmpty()) {
            return new Outcome("", List.of(), "preemption: " + fitError(allNodes.size(), dryRunStatuses));
        }
        Candidate best = pickOne(candidates);
        return new Outcome(
                best.node.name,
                best.victims,
                "preemption: found a potential placement for pod on node " + best.node.name + ", preempting "
                        + best.victims.size() + " victims");
    }

    /** PodEligibleToPreemptOthers' first rule: a pod whose preemptionPolicy is Never does not preempt. */
    static boolean never(Pod pod) {
        return "Never".equals(pod.getSpec().getPreemptionPolicy());
    }

    /** calculateNumCandidates: 10% of the potential nodes, at least 100, at most all of them. */
    static int numCandidates(int numNodes) {
        int n = numNodes * MIN_CANDIDATE_NODES_PERCENTAGE / 100;
        return Math.min(Math.max(n, MIN_CANDIDATE_NODES_ABSOLUTE), numNodes);
    }

    /**
     * SelectVictimsOnNode: every lower-priority pod taken off; if the preemptor then fits, victims are put back
     * from the most important down (those whose eviction would violate a PDB first) as long as it still fits.
     * Returns a {@link Candidate} or the node's {@link FilterStatus}. The node is left as it was.
     */
    private Object selectVictimsOnNode(NodeInfo n) {
        List<Pod> before = List.copyOf(n.pods);
        List<Pod> potential = new ArrayList<>();
        for (Pod p : before) {
            if (priority(p) < priority) {
                potential.add(p);
            }
        }
        if (potential.isEmpty()) {
            return FilterStatus.unresolvable("DefaultPreemption", NO_VICTIMS);
        }
        try {
            potential.forEach(n::removePod);
            filters.podsChanged();
            FilterStatus s = filters.run(n);
            if (s != null) {
                return s;
            }
            potential.sort(MORE_IMPORTANT);
            List<Pod> violatingVictims = new ArrayList<>();
            List<Pod> nonViolatingVictims = new ArrayList<>();
            splitByPdbViolation(potential, violatingVictims, nonViolatingVictims);
            List<Pod> victims = new ArrayList<>();
            int violations = 0;
            for (Pod v : violatingVictims) {
                if (!reprieve(n, v)) {
                    victims.add(v);
                    violations++;
                }
            }
            for (Pod v : nonViolatingVictims) {
                if (!reprieve(n, v)) {
                    victims.add(v);
                }
            }
            if (!violatingVictims.isEmpty() && !nonViolatingVictims.isEmpty()) {
                victims.sort(MORE_IMPORTANT);
            }
            return new Candidate(n, victims, violations);
        } finally {
            n.resetPods(before);
            filters.podsChanged();
        }
    }

    /** Puts the victim back; if the preemptor no longer fits, takes it off again and returns false. */
    private boolean reprieve(NodeInfo n, Pod victim) {
        n.addPod(victim);
        filters.podsChanged();
        if (filters.run(n) == null) {
            return true;
        }
        n.removePod(victim);
        filters.podsChanged();
        return false;
    }

    /**
     * FilterVictimsWithPDBViolation: in order, each victim matched by a PDB of its namespace (non-empty selector,
     * the pod not yet in disruptedPods) uses up one of the PDB's disruptionsAllowed; it violates once one goes below 0.
     */
    private void splitByPdbViolation(List<Pod> victims, List<Pod> violating, List<Pod> nonViolating) {
        int[] allowed = new int[pdbs.size()];
        for (int i = 0; i < pdbs.size(); i++) {
            PodDisruptionBudget pdb = pdbs.get(i);
            allowed[i] = pdb.getStatus() == null || pdb.getStatus().getDisruptionsAllowed() == null
                    ? 0
                    : pdb.getStatus().getDisruptionsAllowed();
        }
        for (Pod v : victims) {
            boolean violates = false;
            Map<String, String> labels = v.getMetadata().getLabels();
            for (int i = 0; i < pdbs.size() && !violates && labels != null && !labels.isEmpty(); i++) {
                PodDisruptionBudget pdb = pdbs.get(i);
                LabelSelector selector =
                        pdb.getSpec() == null ? null : pdb.getSpec().getSelector();
                if (!io.dra4j.scenario.Manifests.namespaceOf(pdb)
                                .equals(v.getMetadata().getNamespace())
                        || selector == null
                        || emptySelector(selector)
                        || !Selectors.matches(selector, labels)) {
                    continue;
                }
                if (pdb.getStatus() != null
                        && pdb.getStatus().getDisruptedPods() != null
                        && pdb.getStatus()
                                .getDisruptedPods()
                                .containsKey(v.getMetadata().getName())) {
                    continue;
                }
                allowed[i]--;
                violates = allowed[i] < 0;
            }
            (violates ? violating : nonViolating).add(v);
        }
    }

    private static boolean emptySelector(LabelSelector s) {
        return (s.getMatchLabels() == null || s.getMatchLabels().isEmpty())
                && (s.getMatchExpressions() == null || s.getMatchExpressions().isEmpty());
    }

    /**
     * pickOneNodeForPreemption: fewest PDB violations, then the lowest highest victim priority, the smallest sum of
     * priorities, the fewest victims, the latest start among the highest-priority victims; then the first candidate.
     */
    private static Candidate pickOne(List<Candidate> candidates) {
        List<java.util.function.ToLongFunction<Candidate>> scores = List.of(
                c -> -c.pdbViolations,
                c -> -(long) priority(c.victims.get(0)),
                c -> {
                    long sum = 0;
                    for (Pod p : c.victims) {
                        sum += (long) priority(p) + Integer.MAX_VALUE + 1L;
                    }
                    return -sum;
                },
                c -> -c.victims.size(),
                Preemption::earliestStartOfHighestPriority);
        List<Candidate> left = candidates;
        for (var f : scores) {
            long max = Long.MIN_VALUE;
            List<Candidate> selected = new ArrayList<>();
            for (Candidate c : left) {
                long s = f.applyAsLong(c);
                if (s > max) {
                    max = s;
                    selected.clear();
                }
                if (s == max) {
                    selected.add(c);
                }
            }
            if (selected.size() == 1) {
                return selected.get(0);
            }
            left = selected;
        }
        return left.get(0);
    }

    /** GetEarliestPodStartTime in nanoseconds (a pod not started counts as starting now: later than any other). */
    private static long earliestStartOfHighestPriority(Candidate c) {
        int max = priority(c.victims.get(0));
        Instant earliest = startTime(c.victims.get(0));
        for (Pod p : c.victims) {
            int pr = priority(p);
            if (pr == max && startTime(p).isBefore(earliest)) {
                earliest = startTime(p);
            } else if (pr > max) {
                max = pr;
                earliest = startTime(p);
            }
        }
        return earliest.equals(Instant.MAX)
                ? Long.MAX_VALUE
                : earliest.getEpochSecond() * 1_000_000_000L + earliest.getNano();
    }

    /**
     * MoreImportantVictim for single pods: higher priority first, then the one started earlier (a pod without
     * status.startTime counts as starting now); equal ones keep their order.
     */
    static final Comparator<Pod> MORE_IMPORTANT =
            Comparator.<Pod>comparingInt(p -> -priority(p)).thenComparing(Preemption::startTime);

    /** status.startTime; {@link Instant#MAX} (upstream: now) when unset or unreadable. */
    static Instant startTime(Pod p) {
        String t = p.getStatus() == null ? null : p.getStatus().getStartTime();
        if (t == null || t.isEmpty()) {
            return Instant.MAX;
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            return Instant.MAX;
        }
    }

    /** corev1helpers.PodPriority: spec.priority, 0 when unset. */
    static int priority(Pod p) {
        Integer v = p.getSpec().getPriority();
        return v == null ? 0 : v;
    }

    /** The FitError of a preemption that found no candidate: dry-run statuses, the other nodes "not helpful". */
    private static String fitError(int numAll, Map<NodeInfo, FilterStatus> statuses) {
        Map<String, Integer> histogram = new TreeMap<>();
        for (FilterStatus s : statuses.values()) {
            for (String r : s.reasons()) {
                histogram.merge(r, 1, Integer::sum);
            }
        }
        if (statuses.size() < numAll) {
            histogram.merge(NOT_HELPFUL, numAll - statuses.size(), Integer::sum);
        }
        List<String> reasons = new ArrayList<>();
        histogram.forEach((r, c) -> reasons.add(c + " " + r));
        reasons.sort(null);
        return "0/" + numAll + " nodes are available: " + String.join(", ", reasons) + ".";
    }
}
