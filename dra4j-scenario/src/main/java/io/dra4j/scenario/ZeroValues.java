package io.dra4j.scenario;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateSpec;

/**
 * The structs that k8s.io/api resource/v1 holds by value, not by pointer: Go's decoder leaves an absent one at its
 * zero value, so a claim written as {@code spec: {}} (or with no spec) is a claim with no requests, which the API
 * server accepts and kube-scheduler allocates with no devices. The fabric8 model leaves them null; they are filled in
 * here right after decoding, so that everything after sees what Kubernetes sees.
 */
final class ZeroValues {
    private ZeroValues() {}

    /** Fills in the claim or template's by-value structs; other objects are left as they are. */
    static void fill(Object object) {
        if (object instanceof ResourceClaim c) {
            if (c.getSpec() == null) {
                c.setSpec(new ResourceClaimSpec());
            }
            fill(c.getSpec());
        } else if (object instanceof ResourceClaimTemplate t) {
            if (t.getSpec() == null) {
                t.setSpec(new ResourceClaimTemplateSpec());
            }
            if (t.getSpec().getSpec() == null) {
                t.getSpec().setSpec(new ResourceClaimSpec());
            }
            fill(t.getSpec().getSpec());
        }
    }

    private static void fill(ResourceClaimSpec spec) {
        if (spec.getDevices() == null) {
            spec.setDevices(new DeviceClaim());
        }
    }
}
