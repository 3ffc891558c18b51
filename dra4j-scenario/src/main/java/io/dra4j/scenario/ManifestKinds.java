package io.dra4j.scenario;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.PodGroup;
import io.fabric8.kubernetes.api.model.scheduling.v1beta1.Workload;
import java.util.List;
import java.util.Optional;

/** The kinds a manifest may hold that the simulator uses: their API group/version, class and scope. */
final class ManifestKinds {
    /** One kind: {@code group} is empty for the core group. */
    record Kind(String group, String version, String kind, Class<? extends HasMetadata> type, boolean namespaced) {
        String apiVersion() {
            return group.isEmpty() ? version : group + "/" + version;
        }
    }

    private static final List<Kind> KINDS = List.of(
            new Kind("", "v1", "Node", Node.class, false),
            new Kind("", "v1", "Pod", Pod.class, true),
            new Kind("", "v1", "Service", Service.class, true),
            new Kind("", "v1", "ReplicationController", ReplicationController.class, true),
            new Kind("scheduling.k8s.io", "v1", "PriorityClass", PriorityClass.class, false),
            new Kind("scheduling.k8s.io", "v1beta1", "Workload", Workload.class, true),
            new Kind("scheduling.k8s.io", "v1beta1", "PodGroup", PodGroup.class, true),
            new Kind("apps", "v1", "Deployment", Deployment.class, true),
            new Kind("apps", "v1", "ReplicaSet", ReplicaSet.class, true),
            new Kind("apps", "v1", "StatefulSet", StatefulSet.class, true),
            new Kind("apps", "v1", "DaemonSet", DaemonSet.class, true),
            new Kind("batch", "v1", "Job", Job.class, true),
            new Kind("policy", "v1", "PodDisruptionBudget", PodDisruptionBudget.class, true),
            new Kind("resource.k8s.io", "v1", "DeviceClass", DeviceClass.class, false),
            new Kind("resource.k8s.io", "v1", "ResourceClaim", ResourceClaim.class, true),
            new Kind("resource.k8s.io", "v1", "ResourceClaimTemplate", ResourceClaimTemplate.class, true),
            new Kind("resource.k8s.io", "v1", "ResourceSlice", ResourceSlice.class, false),
            new Kind("resource.k8s.io", "v1", "DeviceTaintRule", DeviceTaintRule.class, false));

    private ManifestKinds() {}

    /** The kind of this name in this API group, whatever the version asked for. */
    static Optional<Kind> byGroupAndKind(String group, String kind) {
        return KINDS.stream()
                .filter(k -> k.group.equals(group) && k.kind.equals(kind))
                .findFirst();
    }

    static boolean namespaced(Class<?> type) {
        return KINDS.stream()
                .filter(k -> k.type == type)
                .findFirst()
                .map(Kind::namespaced)
                .orElse(true);
    }

    static String kindOf(Class<?> type) {
        return KINDS.stream()
                .filter(k -> k.type == type)
                .findFirst()
                .map(Kind::kind)
                .orElse(type.getSimpleName());
    }
}
