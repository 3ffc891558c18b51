package io.dra4j.sim.internal;

import io.dra4j.sim.SchedulingTrace;
import io.dra4j.sim.TraceAttempt;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Collects what one scheduling attempt decided, as the scheduler goes, and hands it to the {@link SchedulingTrace}
 * when the attempt ends. Only used when a trace is asked for; single-threaded, reset per attempt.
 */
final class TraceRecorder {
    private final SchedulingTrace trace;
    private TraceAttempt.Verdict preFilter;
    private final List<String> feasible = new ArrayList<>();
    private final Map<String, TraceAttempt.Verdict> rejected = new LinkedHashMap<>();
    private final Map<String, TraceAttempt.NodeScore> scores = new LinkedHashMap<>();
    private final List<String> best = new ArrayList<>();
    private String error = "";

    TraceRecorder(SchedulingTrace trace) {
        this.trace = trace;
    }

    void begin() {
        preFilter = null;
        feasible.clear();
        rejected.clear();
        scores.clear();
        best.clear();
        error = "";
    }

    static TraceAttempt.Verdict verdict(FilterStatus s) {
        String code = switch (s.code()) {
            case UNSCHEDULABLE -> "Unschedulable";
            case UNRESOLVABLE -> "UnschedulableAndUnresolvable";
            case ERROR -> "Error";
        };
        return new TraceAttempt.Verdict(s.plugin(), code, s.reasons());
    }

    void preFilter(FilterStatus s) {
        if (s.code() == FilterStatus.Code.ERROR) {
            error = s.reasons().get(0);
        } else {
            preFilter = verdict(s);
        }
    }

    void filtered(NodeInfo n, FilterStatus s) {
        if (s == null) {
            feasible.add(n.name);
        } else if (s.code() == FilterStatus.Code.ERROR) {
            error = s.reasons().get(0);
        } else {
            rejected.put(n.name, verdict(s));
        }
    }

    /** A node that NodeAffinity's PreFilterResult left out, with the status upstream records for it. */
    void preFilteredOut(NodeInfo n) {
        rejected.put(
                n.name,
                new TraceAttempt.Verdict(
                        "",
                        "UnschedulableAndUnresolvable",
                        List.of("node(s) didn't satisfy plugin(s) [NodeAffinity]")));
    }

    void scored(NodeInfo n, long total, Map<String, Long> perPlugin) {
        scores.put(n.name, new TraceAttempt.NodeScore(total, perPlugin));
    }

    /** The Error that ended the attempt after a node was chosen (in PreBind). */
    void error(String message) {
        error = message;
    }

    void best(List<String> nodes) {
        best.addAll(nodes);
    }

    /**
     * Ends the attempt: for a bound pod, the allocation of each of its claims as written to the claim; for a pod
     * that did not fit, the node DefaultPreemption nominated (null: it left the nomination) and its victims.
     */
    void end(Pod pod, String node, String nominate, List<Pod> victims, Cluster cluster) {
        Map<String, AllocationResult> claims = new LinkedHashMap<>();
        if (node != null) {
            String ns = pod.getMetadata().getNamespace();
            for (PodResourceClaim pc : Selectors.list(pod.getSpec().getResourceClaims())) {
                String name = DynamicResources.claimName(pod, pc);
                ResourceClaim c = name == null ? null : cluster.claim(ns, name);
                if (c != null && c.getStatus() != null && c.getStatus().getAllocation() != null) {
                    claims.put(
                            pc.getName(),
                            new AllocationResultBuilder(c.getStatus().getAllocation()).build());
                }
            }
            var ext = pod.getStatus() == null ? null : pod.getStatus().getExtendedResourceClaimStatus();
            ResourceClaim c = ext == null ? null : cluster.claim(ns, ext.getResourceClaimName());
            if (c != null && c.getStatus() != null && c.getStatus().getAllocation() != null) {
                claims.put(
                        TraceAttempt.EXTENDED_RESOURCES,
                        new AllocationResultBuilder(c.getStatus().getAllocation()).build());
            }
        }
        trace.attempt(new TraceAttempt(
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                Optional.ofNullable(preFilter),
                feasible,
                rejected,
                scores,
                best,
                Optional.ofNullable(node),
                claims,
                error,
                Optional.ofNullable(nominate),
                victims.stream()
                        .map(v -> v.getMetadata().getNamespace() + "/"
                                + v.getMetadata().getName())
                        .toList()));
    }
}
