package io.dra4j.sim.whatif;

import io.dra4j.allocator.Explanation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Nodes that rejected a pod for the same reason, so that thousands of nodes read as a few lines.
 *
 * @param rank        1 for the group that came closest to fitting (rejected latest in the filter chain, then the
 *                    furthest candidate funnel), counting up
 * @param plugin      the Filter plugin that rejected them ({@code DynamicResources}, ...), empty for feasible nodes
 * @param reason      the plugin's reason; for DynamicResources the allocator's decisive reason on {@code example}
 * @param nodes       the nodes, in the scheduler's node-tree order
 * @param example     the node the reason and explanation are taken from (the group's first node)
 * @param explanation for DynamicResources: the allocator's explanation on {@code example}, whose devices, their use
 *                    and labels the other nodes of the group share
 */
public record NodeGroup(
        int rank,
        String plugin,
        String code,
        String reason,
        List<String> nodes,
        String example,
        Optional<Explanation> explanation) {
    public NodeGroup {
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(reason, "reason");
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(example, "example");
        Objects.requireNonNull(explanation, "explanation");
    }

    public int count() {
        return nodes.size();
    }
}
