package io.dra4j.allocator;

import io.dra4j.allocator.internal.ClusterView;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import java.util.Objects;

/**
 * The cluster as the DRA allocator sees it, as an immutable value: device classes, every ResourceSlice, the
 * DeviceTaintRules, the devices that allocated claims hold, and the feature gates. Built once, then updated: each
 * {@code with...}/{@code without...} returns a new version that shares everything it did not change with this one,
 * so an update costs what changed (one slice, one claim's devices), not the cluster. A version never changes, so
 * any number of threads may allocate against it while another thread derives and publishes newer versions.
 *
 * <p>Compiled slices, selector results and per-node views belong to the lineage of versions built from one
 * {@link #builder()} call (with the compiled CEL expressions of the {@link DeviceSelectorEnvironment} given to the
 * builder, or a new one); they are reused across versions where their inputs are unchanged and never shared with
 * another lineage. Objects handed to a state must not be modified afterwards (as informer objects are not).
 */
public final class ClusterState {
    private final ClusterView view;

    private ClusterState(ClusterView view) {
        this.view = view;
    }

    public static Builder builder() {
        return new Builder();
    }

    ClusterView view() {
        return view;
    }

    public FeatureGates featureGates() {
        return view.gates();
    }

    /**
     * The compiled CEL expressions of this lineage, for {@link Builder#celEnvironment} of states built later (a
     * scheduler's scoped or what-if states), so that they do not compile the same selectors again.
     */
    public DeviceSelectorEnvironment celEnvironment() {
        return view.celEnvironment();
    }

    /** An allocator on this version, with random share IDs and no timeout. */
    public Allocator allocator() {
        return Allocator.builder().clusterState(this).build();
    }

    /** This state with the slice added, or replacing the slice with the same name. */
    public ClusterState withResourceSlice(ResourceSlice slice) {
        return new ClusterState(view.withResourceSlice(slice));
    }

    public ClusterState withoutResourceSlice(String name) {
        return next(view.withoutResourceSlice(name));
    }

    /** This state with the class added, or replacing the class with the same name. */
    public ClusterState withDeviceClass(DeviceClass deviceClass) {
        return new ClusterState(view.withDeviceClass(deviceClass));
    }

    public ClusterState withoutDeviceClass(String name) {
        return next(view.withoutDeviceClass(name));
    }

    /** This state with the rule added, or replacing the rule with the same name. */
    public ClusterState withDeviceTaintRule(DeviceTaintRule rule) {
        return new ClusterState(view.withDeviceTaintRule(rule));
    }

    public ClusterState withoutDeviceTaintRule(String name) {
        return next(view.withoutDeviceTaintRule(name));
    }

    /**
     * This state with the devices of a claim that has {@code status.allocation} in use (exclusive devices, shares with
     * their consumed capacity, and through them the counters partitionable devices consume), replacing an earlier
     * allocation of the claim with the same namespace and name.
     */
    public ClusterState withAllocatedClaim(ResourceClaim claim) {
        return new ClusterState(view.withAllocatedClaim(Objects.requireNonNull(claim, "claim")));
    }

    /** Like {@link #withAllocatedClaim} for a claim and the result an allocation gave it; the claim is not modified. */
    public ClusterState withAllocation(ResourceClaim claim, AllocationResult result) {
        ResourceClaim allocated = new ResourceClaimBuilder(claim)
                .editOrNewStatus()
                .withAllocation(result)
                .endStatus()
                .build();
        return withAllocatedClaim(allocated);
    }

    /** This state without the allocation of the claim (namespace may be null or empty for a claim without one). */
    public ClusterState withoutAllocatedClaim(String namespace, String name) {
        String key = namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
        return next(view.withoutAllocatedClaim(key));
    }

    /** The slices in the order they were first given (the order upstream's stable variant sees them in). */
    public List<ResourceSlice> resourceSlices() {
        return view.resourceSlices();
    }

    public List<DeviceClass> deviceClasses() {
        return view.deviceClasses();
    }

    public List<DeviceTaintRule> deviceTaintRules() {
        return view.deviceTaintRules();
    }

    /** The allocated claims, in the order they were added. */
    public List<ResourceClaim> allocatedClaims() {
        return view.allocatedClaims();
    }

    /**
     * The allocated claims with a result in a pool of one of these slices (by driver and pool name), in the order
     * they were added: the claims a state of only these slices needs, without a pass over every allocated claim.
     */
    public List<ResourceClaim> allocatedClaimsHoldingPoolsOf(List<ResourceSlice> slices) {
        java.util.Set<io.dra4j.allocator.internal.SliceInfo.PoolId> pools = new java.util.HashSet<>();
        for (ResourceSlice s : slices) {
            var spec = s.getSpec();
            if (spec != null
                    && spec.getDriver() != null
                    && spec.getPool() != null
                    && spec.getPool().getName() != null) {
                pools.add(new io.dra4j.allocator.internal.SliceInfo.PoolId(
                        spec.getDriver(), spec.getPool().getName()));
            }
        }
        return view.allocatedClaimsHolding(pools);
    }

    /** Every device in use, from the builder's allocated state and the allocated claims. */
    public AllocatedState allocatedState() {
        return view.allocatedState();
    }

    private ClusterState next(ClusterView v) {
        return v == view ? this : new ClusterState(v);
    }

    /** Collects the objects of the first version. Not thread-safe. */
    public static final class Builder {
        private FeatureGates gates = FeatureGates.defaults();
        private AllocatedState allocatedState = AllocatedState.EMPTY;
        private List<ResourceClaim> allocatedClaims = List.of();
        private List<DeviceClass> classes = List.of();
        private List<ResourceSlice> slices = List.of();
        private List<DeviceTaintRule> taintRules = List.of();
        private DeviceSelectorEnvironment cel;

        private Builder() {}

        public Builder featureGates(FeatureGates gates) {
            this.gates = Objects.requireNonNull(gates);
            return this;
        }

        /** Devices in use that are not tied to a claim object; they stay in use in every later version. */
        public Builder allocatedState(AllocatedState state) {
            this.allocatedState = Objects.requireNonNull(state);
            return this;
        }

        /** Claims with {@code status.allocation}; later versions can deallocate them by name. */
        public Builder allocatedClaims(List<ResourceClaim> claims) {
            this.allocatedClaims = List.copyOf(claims);
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

        /**
         * The compiled CEL expressions to use (as upstream passes its CEL cache to NewAllocator), for example one
         * environment shared by the states a scheduler builds over time; by default each state gets a new one. Its
         * features must be those the gates select.
         *
         * @throws IllegalArgumentException at {@link #build()} when its features do not match the gates
         */
        public Builder celEnvironment(DeviceSelectorEnvironment environment) {
            this.cel = Objects.requireNonNull(environment);
            return this;
        }

        public ClusterState build() {
            return new ClusterState(
                    ClusterView.build(gates, cel, classes, slices, taintRules, allocatedState, allocatedClaims));
        }
    }
}
