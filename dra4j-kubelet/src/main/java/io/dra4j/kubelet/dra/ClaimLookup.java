package io.dra4j.kubelet.dra;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Reads a ResourceClaim by namespace and name (there is no lookup by UID in the API). */
@FunctionalInterface
public interface ClaimLookup {
    /** The claim, or null when it does not exist; an exception when the read failed. */
    ResourceClaim get(String namespace, String name) throws Exception;

    /** Lookups through the fabric8 client, {@code resource.k8s.io/v1}. */
    static ClaimLookup of(KubernetesClient client) {
        return (namespace, name) -> client.resources(ResourceClaim.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }
}
