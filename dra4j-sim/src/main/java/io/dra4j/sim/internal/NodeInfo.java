package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * What the scheduler's cache knows about one node: the node, its allocatable resources, the pods assigned to it and
 * what they request (actual and non-zero, as upstream's NodeInfo keeps both), and the host ports in use.
 */
final class NodeInfo {
    /** A host port in use: protocol, host IP ("0.0.0.0" when unset) and port. */
    record HostPort(String protocol, String ip, int port) {
        boolean conflicts(HostPort o) {
            return port == o.port
                    && protocol.equals(o.protocol)
                    && (ip.equals(o.ip) || ip.equals("0.0.0.0") || o.ip.equals("0.0.0.0"));
        }
    }

    final Node node;
    final String name;
    final Resources allocatable;
    final Resources requested = new Resources();
    final Resources nonZeroRequested = new Resources();
    final List<Pod> pods = new ArrayList<>();
    final List<HostPort> usedPorts = new ArrayList<>();
    /** How many of {@link #pods} have required pod anti-affinity terms (InterPodAffinity skips the scan when none). */
    int withRequiredAntiAffinity;
    /**
     * How many of {@link #pods} have pod affinity or anti-affinity of any kind (upstream's PodsWithAffinity):
     * InterPodAffinity's PreScore looks only at those when the incoming pod has no preferred terms.
     */
    int withAffinity;
    /** The node's position in the node tree's order (-1 for a node outside the cluster). */
    final int index;
    /** The cluster's node versions, told when the pods change; null outside a cluster. */
    NodeVersions versions;

    NodeInfo(Node node) {
        this(node, -1);
    }

    NodeInfo(Node node, int index) {
        this.index = index;
        this.node = node;
        this.name = node.getMetadata().getName();
        this.allocatable =
                Resources.of(node.getStatus() == null ? null : node.getStatus().getAllocatable());
    }

    void addPod(Pod pod) {
        changed();
        pods.add(pod);
        requested.add(PodRequests.of(pod));
        nonZeroRequested.add(PodRequests.nonZero(pod));
        usedPorts.addAll(hostPorts(pod));
        if (!InterPodAffinity.requiredAntiAffinity(pod).isEmpty()) {
            withRequiredAntiAffinity++;
        }
        if (hasAffinity(pod)) {
            withAffinity++;
        }
    }

    /** The pod leaves the node (deleted, or taken off in a preemption dry run); false when it was not on it. */
    boolean removePod(Pod pod) {
        int at = -1;
        for (int i = 0; i < pods.size() && at < 0; i++) {
            at = pods.get(i) == pod ? i : -1;
        }
        if (at < 0) {
            return false;
        }
        changed();
        pods.remove(at);
        requested.subtract(PodRequests.of(pod));
        nonZeroRequested.subtract(PodRequests.nonZero(pod));
        for (HostPort p : hostPorts(pod)) {
            usedPorts.remove(p);
        }
        if (!InterPodAffinity.requiredAntiAffinity(pod).isEmpty()) {
            withRequiredAntiAffinity--;
        }
        if (hasAffinity(pod)) {
            withAffinity--;
        }
        return true;
    }

    /**
     * {@code body}'s result with {@code added} on the node as if they ran there (upstream's NodeInfo snapshot with
     * AddPodInfo), taken off again afterwards. The node's version does not change: the pods are there only for the
     * body, and nothing computed in it may be remembered under the node's stamp as a verdict for the node itself.
     */
    <T> T withPods(List<Pod> added, java.util.function.Supplier<T> body) {
        NodeVersions told = versions;
        versions = null;
        try {
            added.forEach(this::addPod);
            try {
                return body.get();
            } finally {
                added.forEach(this::removePod);
            }
        } finally {
            versions = told;
        }
    }

    /** The node's pods become exactly {@code list}, in that order (a dry run's changes undone). */
    void resetPods(List<Pod> list) {
        changed();
        pods.clear();
        requested.asMap().clear();
        nonZeroRequested.asMap().clear();
        usedPorts.clear();
        withRequiredAntiAffinity = 0;
        withAffinity = 0;
        list.forEach(this::addPod);
    }

    private void changed() {
        if (versions != null) {
            versions.podsChanged(index);
        }
    }

    /** Whether the pod has pod affinity or pod anti-affinity (upstream's podWithAffinity). */
    static boolean hasAffinity(Pod pod) {
        var a = pod.getSpec().getAffinity();
        return a != null && (a.getPodAffinity() != null || a.getPodAntiAffinity() != null);
    }

    static List<HostPort> hostPorts(Pod pod) {
        List<HostPort> out = new ArrayList<>();
        List<Container> all = new ArrayList<>(Selectors.list(pod.getSpec().getContainers()));
        all.addAll(Selectors.list(pod.getSpec().getInitContainers()));
        for (Container c : all) {
            for (ContainerPort p : Selectors.list(c.getPorts())) {
                if (p.getHostPort() == null || p.getHostPort() <= 0) {
                    continue;
                }
                String protocol = p.getProtocol() == null || p.getProtocol().isEmpty() ? "TCP" : p.getProtocol();
                String ip = p.getHostIP() == null || p.getHostIP().isEmpty() ? "0.0.0.0" : p.getHostIP();
                out.add(new HostPort(protocol, ip, p.getHostPort()));
            }
        }
        return out;
    }
}
