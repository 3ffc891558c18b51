package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Pod;

/** The pod phases the simulator reads. */
final class PodPhase {
    private PodPhase() {}

    /** Whether the pod has finished ({@code Succeeded} or {@code Failed}): it holds nothing and is not scheduled. */
    static boolean terminal(Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
