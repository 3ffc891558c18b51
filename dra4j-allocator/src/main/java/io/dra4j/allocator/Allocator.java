package io.dra4j.allocator;

import io.dra4j.allocator.internal.AllocationException;
import io.dra4j.allocator.internal.AllocatorInputs;
import io.dra4j.allocator.internal.Explainer;
import io.dra4j.allocator.internal.Suggestions;
import io.dra4j.allocator.internal.ClusterView;
import io.dra4j.allocator.internal.EngineFeatures;
import io.dra4j.allocator.internal.ResultAssembler;
import io.dra4j.allocator.internal.Search;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
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
 * <p>Build once per cluster state (as kube-scheduler does once per pod cycle) and call {@link #allocate} for each
 * candidate node; instances are immutable and thread-safe. Inputs are never modified.
 */
public final class Allocator {
    private final ClusterView view;
    private final Builder inputs;
    private final Supplier<String> shareIds;
    private final Duration timeout;

    private Allocator(Builder b) {
        EngineFeatures features = EngineFeatures.from(b.gates);
        this.view = new ClusterView(features, b.allocatedState, b.classes, b.slices, b.taintRules);
        this.inputs = b.copy();
        this.shareIds = b.shareIds;
        this.timeout = b.timeout;
    }

    public static Builder builder() {
        return new Builder();
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
    public record Attempt(AllocationOutcome outcome, long searchSteps) {
    }

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
            List<AllocationResult> results = ResultAssembler.assemble(search);
            return new Attempt(new AllocationOutcome.Allocated(results), search.steps());
        } catch (AllocationException e) {
            if (e.timedOut()) {
                // kube-scheduler's words (statusError: the pod is retried, not marked unschedulable), plus the work done.
                String name = node.getMetadata() == null ? "" : node.getMetadata().getName();
                return new Attempt(new AllocationOutcome.Failed("node " + name + ": " + e.getMessage() + " (timed out after "
                        + seconds(timeout) + " and " + search.steps() + " search steps)", false), search.steps());
            }
            return new Attempt(new AllocationOutcome.Failed(e.getMessage(), e.perNode()), search.steps());
        } catch (IllegalArgumentException e) {
            return new Attempt(new AllocationOutcome.Failed(e.getMessage(), false), search.steps());
        }
    }

    /** "10s", "1.5s", as Go prints a time.Duration of whole milliseconds. */
    private static String seconds(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s"
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
        List<Explanation.Suggestion> suggestions = Suggestions.find(analysis, outcome, inputsFor(node, claims),
                this::allocateWhatIf);
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
        return new AllocatorInputs(inputs.gates, inputs.allocatedState, inputs.classes, inputs.slices, inputs.taintRules,
                node, claims);
    }

    /** A what-if allocation, bounded by this allocator's timeout. */
    private AllocationOutcome allocateWhatIf(AllocatorInputs in) {
        return Allocator.builder().featureGates(in.gates()).allocatedState(in.state()).deviceClasses(in.classes())
                .resourceSlices(in.slices()).deviceTaintRules(in.taintRules()).timeout(timeout).build()
                .allocate(in.node(), in.claims());
    }

    /** Collects the inputs of an allocator. Not thread-safe. */
    public static final class Builder {
        private FeatureGates gates = FeatureGates.defaults();
        private AllocatedState allocatedState = AllocatedState.EMPTY;
        private List<DeviceClass> classes = List.of();
        private List<ResourceSlice> slices = List.of();
        private List<DeviceTaintRule> taintRules = List.of();
        private Supplier<String> shareIds = () -> UUID.randomUUID().toString();
        private Duration timeout;

        private Builder() {
        }

        public Builder featureGates(FeatureGates gates) {
            this.gates = Objects.requireNonNull(gates);
            return this;
        }

        public Builder allocatedState(AllocatedState state) {
            this.allocatedState = Objects.requireNonNull(state);
            return this;
        }

        public Builder deviceClasses(List<DeviceClass> classes) {
            this.classes = List.copyOf(classes);
            return this;
        }

        /** All ResourceSlices of the cluster, including those of other nodes (they decide pool completeness). */
        public Builder resourceSlices(List<ResourceSlice> slices) {
            this.slices = List.copyOf(slices);
            return this;
        }

        /** DeviceTaintRules; applied when DRADeviceTaintRules is on, as the scheduler's slice tracker does. */
        public Builder deviceTaintRules(List<DeviceTaintRule> rules) {
            this.taintRules = List.copyOf(rules);
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
         * Compiles the cluster view.
         *
         * @throws IllegalArgumentException when a slice cannot be compiled (for example an unparsable quantity);
         *                                  the message names the slice, device and field
         */
        public Allocator build() {
            return new Allocator(this);
        }

        private Builder copy() {
            Builder b = new Builder();
            b.gates = gates;
            b.allocatedState = allocatedState;
            b.classes = classes;
            b.slices = slices;
            b.taintRules = taintRules;
            b.shareIds = shareIds;
            b.timeout = timeout;
            return b;
        }
    }
}
