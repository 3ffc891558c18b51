package io.dra4j.sim.internal;

import io.dra4j.scenario.Manifests;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The selector PodTopologySpread's system default constraints spread a pod by (helper.DefaultSelector in
 * pkg/scheduler/framework/plugins/helper/spread.go): the selectors of the Services of the pod's namespace that select
 * it, merged; with the pod's controller a ReplicationController, its selector merged in as well; a ReplicaSet or
 * StatefulSet, its selector's requirements added. No selector (nothing selects the pod) means no default
 * constraints. Computed once per pod (a pod's labels do not change during a run); one object per run.
 */
final class DefaultSelectors {
    private final Map<String, List<Service>> servicesPerNamespace = new HashMap<>();
    private final Map<String, ReplicationController> replicationControllers = new HashMap<>();
    /** {@code namespace/ReplicaSet/name} and {@code namespace/StatefulSet/name} to their selectors. */
    private final Map<String, LabelSelector> workloadSelectors;

    private final Map<String, Optional<LabelSelector>> perPod = new HashMap<>();

    DefaultSelectors(
            List<Service> services, List<ReplicationController> rcs, Map<String, LabelSelector> workloadSelectors) {
        for (Service s : services) {
            servicesPerNamespace
                    .computeIfAbsent(Manifests.namespaceOf(s), k -> new ArrayList<>())
                    .add(s);
        }
        for (ReplicationController rc : rcs) {
            replicationControllers.put(
                    Manifests.namespaceOf(rc) + "/" + rc.getMetadata().getName(), rc);
        }
        this.workloadSelectors = workloadSelectors;
    }

    /** The pod's default selector, or null when it has none. */
    LabelSelector of(Pod pod) {
        String ns = Manifests.namespaceOf(pod);
        return perPod.computeIfAbsent(
                        ns + "/" + pod.getMetadata().getName(), k -> Optional.ofNullable(compute(ns, pod)))
                .orElse(null);
    }

    private LabelSelector compute(String ns, Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null
                ? Map.of()
                : pod.getMetadata().getLabels();
        // GetPodServices: the namespace's Services with a selector that the pod's labels satisfy.
        Map<String, String> labelSet = new LinkedHashMap<>();
        for (Service s : servicesPerNamespace.getOrDefault(ns, List.of())) {
            Map<String, String> selector =
                    s.getSpec() == null ? null : s.getSpec().getSelector();
            if (selector != null && labels.entrySet().containsAll(selector.entrySet())) {
                labelSet.putAll(selector);
            }
        }
        List<LabelSelectorRequirement> requirements = new ArrayList<>();
        OwnerReference owner = controller(pod);
        if (owner != null && "v1".equals(owner.getApiVersion()) && "ReplicationController".equals(owner.getKind())) {
            ReplicationController rc = replicationControllers.get(ns + "/" + owner.getName());
            if (rc != null && rc.getSpec() != null) {
                labelSet.putAll(rcSelector(rc));
            }
        } else if (owner != null
                && "apps/v1".equals(owner.getApiVersion())
                && ("ReplicaSet".equals(owner.getKind()) || "StatefulSet".equals(owner.getKind()))) {
            LabelSelector workload = workloadSelectors.get(ns + "/" + owner.getKind() + "/" + owner.getName());
            if (workload != null) {
                if (workload.getMatchLabels() != null) {
                    workload.getMatchLabels().forEach((k, v) -> requirements.add(in(k, v)));
                }
                requirements.addAll(Selectors.list(workload.getMatchExpressions()));
            }
        }
        List<LabelSelectorRequirement> all = new ArrayList<>();
        labelSet.forEach((k, v) -> all.add(in(k, v)));
        all.addAll(requirements);
        if (all.isEmpty()) {
            return null;
        }
        LabelSelector out = new LabelSelector();
        out.setMatchExpressions(all);
        return out;
    }

    /** The RC's selector; the API server defaults an empty one to the template's labels. */
    private static Map<String, String> rcSelector(ReplicationController rc) {
        Map<String, String> selector = rc.getSpec().getSelector();
        if ((selector == null || selector.isEmpty())
                && rc.getSpec().getTemplate() != null
                && rc.getSpec().getTemplate().getMetadata() != null
                && rc.getSpec().getTemplate().getMetadata().getLabels() != null) {
            return rc.getSpec().getTemplate().getMetadata().getLabels();
        }
        return selector == null ? Map.of() : selector;
    }

    private static LabelSelectorRequirement in(String key, String value) {
        return new LabelSelectorRequirementBuilder()
                .withKey(key)
                .withOperator("In")
                .withValues(value)
                .build();
    }

    private static OwnerReference controller(Pod p) {
        for (OwnerReference r : Selectors.list(p.getMetadata().getOwnerReferences())) {
            if (Boolean.TRUE.equals(r.getController())) {
                return r;
            }
        }
        return null;
    }
}
