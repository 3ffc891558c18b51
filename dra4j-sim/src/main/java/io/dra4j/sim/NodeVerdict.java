package io.dra4j.sim;

import io.dra4j.allocator.AllocationOutcome;
import java.util.Objects;

/**
 * What DynamicResources' Filter found for a pod's claims on one node: the allocator's outcome there (or the plugin's
 * own verdict, such as an allocated claim that is not available on the node), and for an allocation its Score.
 *
 * @param score the DynamicResources score: per firstAvailable request, 8 minus the index of the subrequest chosen
 */
public record NodeVerdict(String node, AllocationOutcome outcome, long score) {
    public NodeVerdict {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(outcome, "outcome");
    }

    public boolean allocated() {
        return outcome instanceof AllocationOutcome.Allocated;
    }
}
