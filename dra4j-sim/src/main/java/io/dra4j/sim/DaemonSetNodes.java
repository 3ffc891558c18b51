package io.dra4j.sim;

import io.dra4j.sim.internal.DaemonNodes;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The nodes a DaemonSet runs a pod on, as the DaemonSet controller decides it (kube-controller-manager 1.37
 * {@code NodeShouldRunDaemonPod}): the template's nodeName, nodeSelector and required node affinity, and the node's
 * NoSchedule and NoExecute taints against the template's tolerations plus the ones the controller adds. What the
 * simulator expands a DaemonSet into, and what quota counting multiplies a DaemonSet's claim templates by.
 */
public final class DaemonSetNodes {
    private DaemonSetNodes() {}

    /** Whether the controller runs a pod of {@code daemonSet} on {@code node}. */
    public static boolean shouldRun(DaemonSet daemonSet, Node node) {
        return DaemonNodes.shouldRun(
                Objects.requireNonNull(daemonSet, "daemonSet"), Objects.requireNonNull(node, "node"));
    }

    /** The nodes, of those given and in their order, that run a pod of {@code daemonSet}. */
    public static List<Node> of(DaemonSet daemonSet, Collection<Node> nodes) {
        return nodes.stream().filter(n -> shouldRun(daemonSet, n)).toList();
    }
}
