package io.dra4j.sim.whatif;

import io.dra4j.allocator.Explanation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A change that was applied to a copy of the cluster state and made the pod (or claim) fit on a node: every fix
 * listed was checked, none is a guess.
 *
 * @param kind        what changes
 * @param description what to do, in a sentence
 * @param verifiedOn  the node on which the changed pod or claim was filtered again and fit (for a what-if node, its
 *                    name)
 * @param claim       for a change to a claim: the claim ({@code namespace/name}); the change's claim index refers to
 *                    the claims the pod still had to allocate, of which this is the one
 * @param change      for a change to the claims or devices: the allocator's change, as {@code Allocator.allocateWith}
 *                    applies it
 * @param tolerations for {@link Kind#TOLERATION}: the pod tolerations added
 * @param whatIfNode  for {@link Kind#WHAT_IF_NODE}: the node added, with its node-local ResourceSlices
 */
public record Fix(
        Kind kind,
        String description,
        String verifiedOn,
        Optional<String> claim,
        Optional<Explanation.Change> change,
        List<Toleration> tolerations,
        Optional<Node> whatIfNode,
        List<ResourceSlice> whatIfSlices) {
    /** The kinds of fix. */
    public enum Kind {
        /** Change one of the pod's claims (count, selector, constraint, device toleration, ...). */
        CLAIM_CHANGE,
        /** Free devices that other claims hold. */
        RELEASE,
        /** Add pod tolerations for a node's taints. */
        TOLERATION,
        /** Add a node like an existing one, with nothing running on it. */
        WHAT_IF_NODE,
        /** Change the cluster's objects (a DeviceClass, a pool, node labels, feature gates). */
        CLUSTER_CHANGE
    }

    public Fix {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(verifiedOn, "verifiedOn");
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(change, "change");
        tolerations = List.copyOf(tolerations);
        Objects.requireNonNull(whatIfNode, "whatIfNode");
        whatIfSlices = List.copyOf(whatIfSlices);
    }
}
