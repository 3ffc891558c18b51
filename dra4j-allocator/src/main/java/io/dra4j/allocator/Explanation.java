package io.dra4j.allocator;

import java.util.List;

/**
 * Why claims can or cannot be allocated on a node: the outcome the allocator decided (computed exactly as
 * {@link Allocator#allocate} computes it), the decisive reason, a funnel of candidate devices per request, the
 * pools that could not be used, and changes that were verified to make the claims fit.
 *
 * @param outcome     the allocation decision itself
 * @param decisive    the one reason to show first: for an unschedulable outcome the first stage where a request
 *                    loses too many devices (or the combination problem when every request alone would fit), for an
 *                    error the error, for an allocation a one-line summary
 * @param claims      per claim, per request: the candidate funnel and the first rejections by reason
 * @param pools       pools on this node that are incomplete or invalid
 * @param suggestions changes to the inputs that were applied and re-allocated successfully, smallest first
 */
public record Explanation(
        AllocationOutcome outcome,
        String decisive,
        List<ClaimReport> claims,
        List<PoolNote> pools,
        List<Suggestion> suggestions) {

    public Explanation {
        claims = List.copyOf(claims);
        pools = List.copyOf(pools);
        suggestions = List.copyOf(suggestions);
    }

    /** One claim's requests. */
    public record ClaimReport(String claim, List<RequestReport> requests) {
        public ClaimReport {
            requests = List.copyOf(requests);
        }
    }

    /**
     * One request or subrequest ({@code request/subrequest}).
     *
     * @param requested   devices asked for; -1 for allocationMode All
     * @param funnel      candidates left after each stage, in order
     * @param rejections  the first rejected devices per reason, with the concrete cause
     * @param constraints what the claim's constraints leave of the candidates
     * @param chosen      for an allocated claim: the devices taken for this request and why they came first
     * @param shortfall   the first stage that left fewer devices than requested, or null
     */
    public record RequestReport(
            String request,
            long requested,
            List<Stage> funnel,
            List<Rejection> rejections,
            List<String> constraints,
            List<String> chosen,
            String shortfall) {
        public RequestReport {
            funnel = List.copyOf(funnel);
            rejections = List.copyOf(rejections);
            constraints = List.copyOf(constraints);
            chosen = List.copyOf(chosen);
        }
    }

    /** How many candidate devices are left after a stage. */
    public record Stage(String stage, int remaining) {}

    /** One rejected device and the concrete reason. */
    public record Rejection(Reason reason, DeviceId device, String detail) {}

    /** Why a device cannot serve a request. */
    public enum Reason {
        BINDING_CONDITIONS_DISABLED,
        CLASS_SELECTOR,
        REQUEST_SELECTOR,
        SELECTOR_ERROR,
        NODE_SELECTION,
        IN_USE,
        NODE_OPERATIONS,
        PARTITIONABLE_DISABLED,
        COUNTERS,
        TAINT,
        CAPACITY,
        CONSTRAINT
    }

    /** A pool visible from the node that the allocator cannot use. */
    public record PoolNote(String pool, String problem) {}

    /**
     * A change that was applied to a copy of the inputs and made the claims allocatable on this node ({@code
     * remains} empty), or, for a {@link Change.GuardSelector}, turned the error into a decision that still does not
     * fit: then {@code remains} is the reason the claims stay unschedulable with the guard.
     */
    public record Suggestion(String description, Change change, String remains) {
        /** A change that makes the claims fit. */
        public Suggestion(String description, Change change) {
            this(description, change, "");
        }

        /** Whether the claims fit with the change. */
        public boolean fits() {
            return remains.isEmpty();
        }
    }

    /**
     * A change to the inputs of an allocation, as {@link Allocator#allocateWith} applies it. Claims are addressed
     * by their index in the claim list, requests by name ({@code request} or {@code request/subrequest}).
     */
    public sealed interface Change {
        /** Add tolerations to a request or subrequest. */
        record Tolerate(
                int claim,
                String request,
                List<io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration> tolerations)
                implements Change {}

        /** Free devices that earlier allocations hold, exclusively or as shares of their capacity. */
        record Release(List<DeviceId> devices) implements Change {}

        /** Leave one request of a claim out: the claim's other requests fit without it. */
        record DropRequest(int claim, String request) implements Change {}

        /** Leave one claim out: the others fit on this node without it. */
        record DropClaim(int claim) implements Change {}

        /** Ask for a different number of devices. */
        record SetCount(int claim, String request, long count) implements Change {}

        /** Remove one of the claim's constraints. */
        record DropConstraint(int claim, int index) implements Change {}

        /** Remove one selector of a request or subrequest. */
        record DropSelector(int claim, String request, int index) implements Change {}

        /**
         * Replace one selector of a request or subrequest by {@code expression}: the same selector with a guard in
         * front, so that a device lacking what it reads does not match instead of failing the allocation.
         */
        record GuardSelector(int claim, String request, int index, String expression) implements Change {}

        /** Add to the pool's shared counters what one device consumes. */
        record RaiseCounters(DeviceId device) implements Change {}

        /** Turn feature gates on. */
        record EnableGates(java.util.Set<DraFeature> gates) implements Change {}

        /** Treat the newest generation of a pool as complete with the slices published so far. */
        record CompletePool(String driver, String pool) implements Change {}

        /** Remove one selector of a device class. */
        record DropClassSelector(String deviceClass, int index) implements Change {}

        /** Remove the capacity requests of a request or subrequest (consume policy defaults instead). */
        record DropCapacityRequests(int claim, String request) implements Change {}

        /** Add labels to the node. */
        record LabelNode(java.util.Map<String, String> labels) implements Change {}
    }
}
