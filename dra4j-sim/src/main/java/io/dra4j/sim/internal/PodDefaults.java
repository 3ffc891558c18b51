package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The defaults the API server gives a Pod when it is created (k8s.io/kubernetes pkg/apis/core/v1 {@code SetDefaults_Pod})
 * that the scheduler's decisions depend on: a container's (and init container's) requests default to its limits for
 * every resource it limits without requesting, so that {@code limits: {nvidia.com/gpu: 1}} requests one GPU. Applied
 * to pods only, not to templates, as upstream does.
 */
final class PodDefaults {
    private PodDefaults() {}

    static void apply(Pod p) {
        if (p.getSpec() == null) {
            return;
        }
        requestsFromLimits(p.getSpec().getContainers());
        requestsFromLimits(p.getSpec().getInitContainers());
    }

    private static void requestsFromLimits(List<Container> containers) {
        for (Container c : containers == null ? List.<Container>of() : containers) {
            if (c.getResources() == null
                    || c.getResources().getLimits() == null
                    || c.getResources().getLimits().isEmpty()) {
                continue;
            }
            Map<String, Quantity> requests = new LinkedHashMap<>(
                    c.getResources().getRequests() == null
                            ? Map.of()
                            : c.getResources().getRequests());
            c.getResources()
                    .getLimits()
                    .forEach((k, v) -> requests.putIfAbsent(k, new Quantity(v.getAmount(), v.getFormat())));
            c.getResources().setRequests(requests);
        }
    }
}
