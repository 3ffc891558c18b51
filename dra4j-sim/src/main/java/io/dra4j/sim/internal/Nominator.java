package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The scheduling queue's nominator (pkg/scheduler/backend/queue/nominator.go): the pending pods nominated to a node,
 * per node in the order they were nominated. A pod enters it with the snapshot's {@code status.nominatedNodeName}
 * when it is queued and with the node DefaultPreemption nominates; it leaves it when a later cycle clears or moves its
 * nomination, when it is bound (as assume drops it) and when it is deleted. Single-threaded, for one run.
 */
final class Nominator {
    private final Map<String, List<Pod>> byNode = new HashMap<>();
    private final Map<Pod, String> nodeOf = new java.util.IdentityHashMap<>();

    /** The pod's nomination becomes {@code node}; null or "" removes it (addNominatedPodUnlocked, deleteUnlocked). */
    void nominate(Pod pod, String node) {
        remove(pod);
        if (node == null || node.isEmpty()) {
            return;
        }
        nodeOf.put(pod, node);
        byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(pod);
    }

    /** The pod leaves the nominator (bound or deleted); nothing happens when it is not in it. */
    void remove(Pod pod) {
        String node = nodeOf.remove(pod);
        if (node == null) {
            return;
        }
        List<Pod> pods = byNode.get(node);
        pods.removeIf(p -> p == pod);
        if (pods.isEmpty()) {
            byNode.remove(node);
        }
    }

    /** Whether no pod is nominated to any node. */
    boolean none() {
        return byNode.isEmpty();
    }

    /**
     * addGENominatedPods' choice: the pods nominated to the node whose priority is at least the pod's, the pod itself
     * left out. These are the pods a Filter of {@code pod} on that node treats as running there.
     */
    List<Pod> reserving(String node, Pod pod) {
        // Checked before the lookup: Filter asks this for every node, and most runs nominate no pod at all.
        List<Pod> nominated = byNode.isEmpty() ? null : byNode.get(node);
        if (nominated == null) {
            return List.of();
        }
        int priority = Preemption.priority(pod);
        List<Pod> out = new ArrayList<>();
        for (Pod p : nominated) {
            if (Preemption.priority(p) >= priority
                    && !p.getMetadata().getUid().equals(pod.getMetadata().getUid())) {
                out.add(p);
            }
        }
        return out;
    }

    /** getLowerPriorityNominatedPods: the pods nominated to the node with a priority below {@code priority}. */
    List<Pod> lowerPriority(String node, int priority) {
        List<Pod> out = new ArrayList<>();
        for (Pod p : byNode.getOrDefault(node, List.of())) {
            if (Preemption.priority(p) < priority) {
                out.add(p);
            }
        }
        return out;
    }
}
