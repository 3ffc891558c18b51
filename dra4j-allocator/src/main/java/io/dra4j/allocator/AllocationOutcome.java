package io.dra4j.allocator;

import io.dra4j.allocator.internal.LazyResults;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import java.util.List;

/**
 * What one allocation attempt for a set of claims on one node produced. Exactly one of three outcomes; an ordinary
 * "does not fit" is never an exception.
 */
public sealed interface AllocationOutcome {

    /**
     * Every claim was allocated; {@code results} holds one AllocationResult per claim, in claim order. The allocator
     * builds the result objects when they are first read (most outcomes of a Filter pass are never read).
     */
    record Allocated(List<AllocationResult> results) implements AllocationOutcome {
        public Allocated {
            results = results instanceof LazyResults ? results : List.copyOf(results);
        }
    }

    /** The claims do not fit on this node. Not an error: another node may work. */
    record Unschedulable(String reason) implements AllocationOutcome {}

    /**
     * Invalid input or a failed evaluation (bad CEL, missing class, incomplete pool for an All request, ...).
     * {@code perNode} is true for the failures upstream reports as "failed on this node" rather than as a
     * scheduling error (for example {@code invalid resource pools were encountered}).
     */
    record Failed(String message, boolean perNode) implements AllocationOutcome {}
}
