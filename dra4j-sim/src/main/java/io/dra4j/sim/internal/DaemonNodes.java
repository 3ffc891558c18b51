package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the DaemonSet controller runs a pod of a DaemonSet on a node (kube-controller-manager 1.37
 * {@code NodeShouldRunDaemonPod}'s first answer, pkg/controller/daemon): the template's nodeName, if any, names the
 * node; its nodeSelector and required node affinity accept the node; and no NoSchedule or NoExecute taint of the node
 * is left untolerated by the template's tolerations plus those the controller adds to every daemon pod.
 */
public final class DaemonNodes {
    private DaemonNodes() {}

    public static boolean shouldRun(DaemonSet ds, Node node) {
        PodSpec template = ds.getSpec() == null || ds.getSpec().getTemplate() == null
                ? null
                : ds.getSpec().getTemplate().getSpec();
        Pod p = new PodBuilder()
                .withSpec(template == null ? new PodSpec() : template)
                .build();
        String nodeName = p.getSpec().getNodeName();
        if (nodeName != null
                && !nodeName.isEmpty()
                && !nodeName.equals(node.getMetadata().getName())) {
            return false;
        }
        addDaemonTolerations(p);
        NodeInfo n = new NodeInfo(node);
        return NodeFilters.nodeAffinity(p, n) == null && NodeFilters.taintToleration(p, n) == null;
    }

    /** The tolerations the DaemonSet controller adds (pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations). */
    static void addDaemonTolerations(Pod p) {
        List<Toleration> t = new ArrayList<>(Selectors.list(p.getSpec().getTolerations()));
        t.add(new Toleration("NoExecute", "node.kubernetes.io/not-ready", "Exists", null, null));
        t.add(new Toleration("NoExecute", "node.kubernetes.io/unreachable", "Exists", null, null));
        t.add(new Toleration("NoSchedule", "node.kubernetes.io/disk-pressure", "Exists", null, null));
        t.add(new Toleration("NoSchedule", "node.kubernetes.io/memory-pressure", "Exists", null, null));
        t.add(new Toleration("NoSchedule", "node.kubernetes.io/pid-pressure", "Exists", null, null));
        t.add(new Toleration("NoSchedule", NodeFilters.UNSCHEDULABLE_TAINT, "Exists", null, null));
        if (Boolean.TRUE.equals(p.getSpec().getHostNetwork())) {
            t.add(new Toleration("NoSchedule", "node.kubernetes.io/network-unavailable", "Exists", null, null));
        }
        p.getSpec().setTolerations(t);
    }
}
