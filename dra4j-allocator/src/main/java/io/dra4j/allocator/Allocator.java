package io.dra4j.allocator;

import io.dra4j.allocator.internal.AllocationException;
import io.dra4j.allocator.internal.AllocatorInputs;
import io.dra4j.allocator.internal.ClusterView;
import io.dra4j.allocator.internal.EngineFeatures;
import io.dra4j.allocator.internal.Explainer;
import io.dra4j.allocator.internal.LazyResults;
import io.dra4j.allocator.internal.Search;
import io.dra4j.allocator.internal.Suggestions;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The structured device allocator: given the cluster's DeviceClasses, ResourceSlices and devices already in use, it
 * decides for one node whether a pod's claims can be allocated and with which devices, making the same decisions as
 * Kubernetes 1.37's scheduler ({@code k8s.io/dynamic-resource-allocation/structured} v0.37).
 *
 * <p>An allocator is a thin view on one version of a {@link ClusterState}: build it from the objects (as
 * kube-scheduler does once per pod cycle) or on an existing state, and call {@link #allocate} for each candidate
 * node; instances are immutable and thread-safe. Inputs are never modified.
 */
public final class Allocator {
    private final ClusterState state;
    private final ClusterView view;
    private final Supplier<String> shareIds;
    private final Duration timeout;

    private Allocator(ClusterState state, Supplier<String> shareIds, Duration timeout) {
        this.state = state;
        this.view = state.view();
        this.shareIds = shareIds;
        this.timeout = timeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The cluster state version this allocator decides on. */
    public ClusterState clusterState() {
        return state;
    }

    /**
     * Allocates devices for all claims together (all or nothing) on the given node.
     *
     * @return {@link AllocationOutcome.Allocated} with one result per claim in claim order,
     * {@link AllocationOutcome.Unschedulable} when no combination of devices works on this node, or
     * {@link AllocationOutcome.Failed} with upstream's error text for invalid input
     */
    public AllocationOutcome allocate(Node node, List<ResourceClaim> claims) {
        return allocateWithStats(node, claims).outcome();
    }

    /** An outcome together with the number of search steps it took (upstream's allocateOne invocations). */
    public record Attempt(AllocationOutcome outcome, long searchSteps) {}

    /** Like {@link #allocate}, also reporting how many search steps were needed. */
    public Attempt allocateWithStats(Node node, List<ResourceClaim> claims) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(claims, "claims");
        long deadline = timeout == null ? 0 : System.nanoTime() + timeout.toNanos();
        Search search = new Search(view, node, claims, shareIds, deadline);
        try {
            if (!search.run()) {
                return new Attempt(new AllocationOutcome.Unschedulable("cannot allocate all claims"), search.steps());
            }
            return new Attempt(new AllocationOutcome.Allocated(LazyResults.of(search)), search.steps());
        } catch (AllocationException e) {
            if (e.timedOut()) {
                // kube-scheduler's words (statusError: the pod is retried, not marked unschedulable), plus the work
                // done.
                String name =
                        node.getMetadata() == null ? "" : node.getMetadata().getName();
                return new Attempt(
                        new AllocationOutcome.Failed(
                                "node " + name + ": " + e.getMessage() + " (timed out after " + seconds(timeout)
                                        + " and " + search.steps() + " search steps)",
                                false),
                        search.steps());
            }
            return new Attempt(new AllocationOutcome.Failed(e.getMessage(), e.perNode()), search.steps());
        } catch (IllegalArgumentException e) {
            return new Attempt(new AllocationOutcome.Failed(e.getMessage(), false), search.steps());
        }
    }

    /** "10s", "1.5s", as Go prints a time.Duration of whole milliseconds. */
    private static String seconds(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0
                ? millis / 1000 + "s"
                : java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + "s";
    }

    /**
     * Explains the decision for these claims on this node: the outcome (identical to {@link #allocate}), the
     * decisive reason, the candidate funnel of every request, unusable pools, and changes verified to make the
     * claims fit. Computed only when asked; {@link #allocate} does none of this work.
     */
    public Explanation explain(Node node, List<ResourceClaim> claims) {
        AllocationOutcome outcome = allocate(node, claims);
        Search search = new Search(view, node, claims, shareIds, 0);
        Explainer.Analysis analysis = Explainer.analyze(search, outcome);
        List<Explanation.ClaimReport> reports = new java.util.ArrayList<>();
        for (int ci = 0; ci < analysis.funnels().size(); ci++) {
            reports.add(Explainer.report(search, ci, analysis.funnels().get(ci), outcome));
        }
        List<Explanation.Suggestion> suggestions =
                Suggestions.find(analysis, outcome, inputsFor(node, claims), this::allocateWhatIf);
        return new Explanation(outcome, analysis.decisive(), reports, analysis.pools(), suggestions);
    }

    /**
     * Allocates as {@link #allocate} does, on a copy of this allocator's inputs with one change applied (a what-if);
     * this allocator and the given objects stay unchanged.
     */
    public AllocationOutcome allocateWith(Explanation.Change change, Node node, List<ResourceClaim> claims) {
        return allocateWhatIf(Suggestions.apply(change, inputsFor(node, claims)));
    }

    private AllocatorInputs inputsFor(Node node, List<ResourceClaim> claims) {
        return new AllocatorInputs(
                state.featureGates(),
                state.allocatedState(),
                state.deviceClasses(),
                state.resourceSlices(),
                state.deviceTaintRules(),
                node,
                claims);
    }

    /** A what-if is a state built from scratch from the changed inputs, reusing this lineage's compiled CEL, and
     * bounded by this allocator's timeout. */
    private AllocationOutcome allocateWhatIf(AllocatorInputs in) {
        Builder b = Allocator.builder()
                .featureGates(in.gates())
                .allocatedState(in.state())
                .deviceClasses(in.classes())
                .resourceSlices(in.slices())
                .deviceTaintRules(in.taintRules())
                .timeout(timeout);
        if (ClusterView.celFeatures(EngineFeatures.from(in.gates()))
                .equals(view.celEnvironment().features())) {
            b.celEnvironment(view.celEnvironment());
        }
        return b.build().allocate(in.node(), in.claims());
    }

    /** Collects the inputs of an allocator, or the state it views. Not thread-safe. */
    public static final class Builder {
        private final ClusterState.Builder state = ClusterState.builder();
        private ClusterState existing;
        private Supplier<String> shareIds = () -> UUID.randomUUID().toString();
        private Duration timeout;

        private Builder() {}

        /** An allocator on an existing state version; the object setters below are then ignored. */
        public Builder clusterState(ClusterState state) {
            this.existing = Objects.requireNonNull(state);
            return this;
        }

        public Builder featureGates(FeatureGates gates) {
            state.featureGates(gates);
            return this;
        }

        public Builder allocatedState(AllocatedState allocatedState) {
            state.allocatedState(allocatedState);
            return this;
        }

        public Builder deviceClasses(List<DeviceClass> classes) {
            state.deviceClasses(classes);
            return this;
        }

        /** All ResourceSlices of the cluster, including those of other nodes (they decide pool completeness). */
        public Builder resourceSlices(List<ResourceSlice> slices) {
            state.resourceSlices(slices);
            return this;
        }

        /** DeviceTaintRules; applied when DRADeviceTaintRules is on, as the scheduler's slice tracker does. */
        public Builder deviceTaintRules(List<DeviceTaintRule> rules) {
            state.deviceTaintRules(rules);
            return this;
        }

        /** See {@link ClusterState.Builder#celEnvironment}. */
        public Builder celEnvironment(DeviceSelectorEnvironment environment) {
            state.celEnvironment(environment);
            return this;
        }

        /** Where share IDs of multi-allocatable devices come from; random UUIDs by default. */
        public Builder shareIds(Supplier<String> shareIds) {
            this.shareIds = Objects.requireNonNull(shareIds);
            return this;
        }

        /** Upstream's per-node Filter timeout; none by default. */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * Builds the cluster state (or takes the given one) and the allocator on it. Slices are compiled when a node
         * first needs them; a slice that cannot be compiled (for example an unparsable quantity) makes allocations
         * that see it fail with a message that names the slice, device and field.
         */
        public Allocator build() {
            return new Allocator(existing != null ? existing : state.build(), shareIds, timeout);
        }
    }
}
