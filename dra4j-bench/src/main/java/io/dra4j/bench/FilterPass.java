package io.dra4j.bench;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.ClusterState;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.List;

/**
 * One pod's Filter pass as kube-scheduler runs it with its snapshot: one allocator on the cluster state, then the
 * pod's claims allocated on every node in turn, each node once.
 */
public final class FilterPass {
    private FilterPass() {}

    /** Runs the pass and returns the number of nodes the claims fit on. */
    public static int feasibleNodes(ClusterState state, List<Node> nodes, List<ResourceClaim> claims) {
        Allocator allocator = state.allocator();
        int feasible = 0;
        for (Node node : nodes) {
            if (allocator.allocate(node, claims) instanceof AllocationOutcome.Allocated) {
                feasible++;
            }
        }
        return feasible;
    }

    /** Runs the pass and returns every node's outcome and search steps, in node order. */
    public static List<Allocator.Attempt> attempts(ClusterState state, List<Node> nodes, List<ResourceClaim> claims) {
        Allocator allocator = state.allocator();
        List<Allocator.Attempt> out = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            out.add(allocator.allocateWithStats(node, claims));
        }
        return out;
    }
}
