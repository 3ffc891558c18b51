package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.List;

/**
 * A pod's effective resource requests as upstream's {@code resourcehelper.PodRequests} computes them: the sum of the
 * regular containers and sidecars (restartable init containers), at least the largest moment of the init phase
 * (each init container together with the sidecars started before it), pod-level requests where set, plus overhead.
 */
final class PodRequests {
    /** kube-scheduler's defaults for containers that request no cpu or memory (for scoring only). */
    static final long DEFAULT_MILLI_CPU = 100;

    static final long DEFAULT_MEMORY = 200L * 1024 * 1024;

    private PodRequests() {}

    static Resources of(Pod pod) {
        return compute(pod, false);
    }

    /** Requests with cpu and memory defaulted per container when unset, as the LeastAllocated scorer counts them. */
    static Resources nonZero(Pod pod) {
        return compute(pod, true);
    }

    private static Resources compute(Pod pod, boolean nonZero) {
        PodSpec spec = pod.getSpec();
        Resources reqs = new Resources();
        for (Container c : list(spec.getContainers())) {
            reqs.add(container(c, nonZero));
        }
        Resources restartable = new Resources();
        Resources initMax = new Resources();
        for (Container c : list(spec.getInitContainers())) {
            Resources r = container(c, nonZero);
            if ("Always".equals(c.getRestartPolicy())) {
                reqs.add(r);
                restartable.add(r);
                r = restartable.copy();
            } else {
                r.add(restartable);
            }
            initMax.max(r);
        }
        reqs.max(initMax);
        if (spec.getResources() != null
                && spec.getResources().getRequests() != null
                && !spec.getResources().getRequests().isEmpty()) {
            Resources podLevel = Resources.of(spec.getResources().getRequests());
            podLevel.asMap().forEach(reqs::set);
        }
        if (spec.getOverhead() != null) {
            reqs.add(Resources.of(spec.getOverhead()));
        }
        return reqs;
    }

    private static Resources container(Container c, boolean nonZero) {
        Resources r =
                Resources.of(c.getResources() == null ? null : c.getResources().getRequests());
        if (nonZero) {
            if (r.get(Quantities.CPU) == 0) {
                r.set(Quantities.CPU, DEFAULT_MILLI_CPU);
            }
            if (r.get(Quantities.MEMORY) == 0) {
                r.set(Quantities.MEMORY, DEFAULT_MEMORY);
            }
        }
        return r;
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
