package io.dra4j.sim.whatif;

import java.util.List;
import java.util.Objects;

/**
 * One node's Filter verdict for a pod, as kube-scheduler's filter chain gives it: the first plugin that rejected the
 * node and its reasons in upstream's words, or feasible.
 *
 * @param plugin  the rejecting plugin ({@code TaintToleration}, {@code DynamicResources}, ...), empty when feasible
 * @param code    {@code Unschedulable}, {@code UnschedulableAndUnresolvable} or {@code Error}; empty when feasible
 * @param reasons the plugin's reasons (a node can fail for several at once)
 */
public record NodeVerdict(String node, String plugin, String code, List<String> reasons) {
    public NodeVerdict {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(code, "code");
        reasons = List.copyOf(reasons);
    }

    public boolean feasible() {
        return plugin.isEmpty();
    }
}
