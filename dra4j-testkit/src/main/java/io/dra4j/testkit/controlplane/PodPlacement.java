package io.dra4j.testkit.controlplane;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.Map;
import java.util.Optional;

/**
 * Where the real kube-scheduler put one pod.
 *
 * @param namespace the pod's namespace
 * @param name      the pod's name
 * @param node      the node it was bound to; empty when it stayed pending
 * @param reason    the reason of its {@code PodScheduled} condition ({@code Unschedulable}, ...); empty when bound
 * @param message   the message of that condition, as the scheduler wrote it; empty when bound
 * @param claims    the pod's claims as the server holds them afterwards, by the name in {@code spec.resourceClaims}
 */
public record PodPlacement(
        String namespace,
        String name,
        Optional<String> node,
        String reason,
        String message,
        Map<String, ResourceClaim> claims) {
    public PodPlacement {
        claims = Map.copyOf(claims);
    }

    public boolean bound() {
        return node.isPresent();
    }
}
