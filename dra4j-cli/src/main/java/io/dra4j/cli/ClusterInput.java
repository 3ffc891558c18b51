package io.dra4j.cli;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.ManifestProblem;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.scenario.SkippedObject;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.DraCheck;
import io.dra4j.sim.PodClaims;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;

/**
 * The Kubernetes manifests given to {@code allocate} or {@code explain}, read as one cluster (as
 * {@code kubectl apply -f a -f b} would see them) and checked with {@link DraCheck}. What cannot be used is said on
 * standard error: problems with file, object and field (an input that holds no object among them), and objects of
 * kinds the commands do not read.
 */
final class ClusterInput {
    /** The kinds the commands read, for messages. */
    static final String KINDS_READ =
            "DeviceClass, ResourceSlice, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule, "
                    + "Node and Pod (and Deployment, ReplicaSet, StatefulSet, Job, DaemonSet for their pods)";

    /** The check's result, and whether any input had a problem (exit status 1). */
    record Checked(DraCheck.Result result, boolean problems) {}

    private ClusterInput() {}

    /**
     * Reads the sources, reports on {@code err}, and checks the pods and claims; empty when nothing could be
     * checked (the reason is on {@code err}).
     */
    static Optional<Checked> check(
            List<ManifestReader.Source> sources,
            Inputs inputs,
            KubernetesVersion version,
            boolean explain,
            String command,
            PrintWriter err) {
        FeatureGates gates;
        try {
            gates = inputs.gates(version);
        } catch (IllegalArgumentException e) {
            err.println("dra4j: " + e.getMessage());
            return Optional.empty();
        }
        // The API server that would hold these objects validates with the same gates.
        Manifests m = ManifestReader.parse(sources, inputs.validate, gates);
        boolean problems = !m.problems().isEmpty();
        for (ManifestProblem p : m.problems()) {
            err.println("dra4j: " + p.describe());
        }
        for (SkippedObject s : m.skipped()) {
            err.println("dra4j: " + s.origin() + ": " + (s.kind() + " " + s.name()).trim() + " (" + s.apiVersion()
                    + ") is not used by " + command + ", which reads " + KINDS_READ);
        }
        DraCheck.Result result;
        try {
            result = new DraCheck(gates, inputs.timeout)
                    .run(ClusterSnapshot.of(m), Optional.ofNullable(inputs.node), explain);
        } catch (IllegalArgumentException e) {
            err.println("dra4j: " + e.getMessage());
            return Optional.empty();
        }
        result.notes().forEach(n -> err.println("dra4j: note: " + n));
        if (result.pods().isEmpty()) {
            err.println("dra4j: nothing to allocate: the input holds no pending pod with claims and no unallocated "
                    + "ResourceClaim that no pod uses");
        }
        return Optional.of(new Checked(result, problems));
    }

    /** {@code pod team-a/train-0 on node-1}: the label and, when a node was tried, the chosen one. */
    static String title(PodClaims p) {
        return p.label()
                + (p.node().isEmpty() || !(p.outcome() instanceof AllocationOutcome.Allocated)
                        ? ""
                        : " on " + p.node());
    }

    /** The pod's namespace/name, null for a claim no pod uses. */
    static String pod(PodClaims p) {
        return p.pod().isEmpty() ? null : p.namespace() + "/" + p.pod();
    }

    /** The explanation on the chosen node, or one made of the outcome when no node was tried (PreFilter). */
    static Explanation explanation(PodClaims p) {
        return p.explanation().orElseGet(() -> {
            String why = p.outcome() instanceof AllocationOutcome.Failed f
                    ? f.message()
                    : p.outcome() instanceof AllocationOutcome.Unschedulable u ? u.reason() : "";
            return new Explanation(p.outcome(), why, List.of(), List.of(), List.of());
        });
    }

    /** The ranking in a line: the nodes the claims fit (best first, with the score), then those they do not. */
    static String ranking(PodClaims p) {
        StringBuilder fits = new StringBuilder();
        StringBuilder not = new StringBuilder();
        p.nodes().forEach(v -> {
            if (v.allocated()) {
                fits.append(fits.length() == 0 ? "" : ", ")
                        .append(v.node())
                        .append(" (score ")
                        .append(v.score())
                        .append(')');
            } else {
                not.append(not.length() == 0 ? "" : ", ").append(v.node());
            }
        });
        return "  nodes: " + (fits.length() == 0 ? "none fit" : "fit on " + fits)
                + (not.length() == 0 ? "" : "; not on " + not);
    }
}
