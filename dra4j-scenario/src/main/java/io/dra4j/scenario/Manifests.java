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
import java.util.Objects;

/**
 * The objects read from Kubernetes manifests, in input order, with the objects of kinds that were skipped and the
 * problems found. Objects are as written: no defaults are filled in (a namespaced object without a namespace has
 * none here; {@link #namespaceOf} gives the one kubectl would use), except the API server's defaults when read with
 * validation. Do not modify the objects.
 */
public record Manifests(List<ManifestObject> objects, List<SkippedObject> skipped, List<ManifestProblem> problems) {
    /** The namespace kubectl applies to a namespaced object that names none. */
    public static final String DEFAULT_NAMESPACE = "default";

    public Manifests {
        objects = List.copyOf(objects);
        skipped = List.copyOf(skipped);
        problems = List.copyOf(problems);
    }

    /** The objects of one kind (exactly that class), in input order. */
    public <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream()
                .map(ManifestObject::object)
                .filter(o -> o.getClass() == type)
                .map(type::cast)
                .toList();
    }

    public List<Node> nodes() {
        return all(Node.class);
    }

    public List<Pod> pods() {
        return all(Pod.class);
    }

    public List<PriorityClass> priorityClasses() {
        return all(PriorityClass.class);
    }

    public List<DeviceClass> deviceClasses() {
        return all(DeviceClass.class);
    }

    public List<ResourceSlice> resourceSlices() {
        return all(ResourceSlice.class);
    }

    public List<ResourceClaim> resourceClaims() {
        return all(ResourceClaim.class);
    }

    public List<ResourceClaimTemplate> resourceClaimTemplates() {
        return all(ResourceClaimTemplate.class);
    }

    public List<DeviceTaintRule> deviceTaintRules() {
        return all(DeviceTaintRule.class);
    }

    public List<Deployment> deployments() {
        return all(Deployment.class);
    }

    /** Services: their selectors are part of PodTopologySpread's default spreading. */
    public List<Service> services() {
        return all(Service.class);
    }

    /** ReplicationControllers: their selectors are part of PodTopologySpread's default spreading. */
    public List<ReplicationController> replicationControllers() {
        return all(ReplicationController.class);
    }

    public List<ReplicaSet> replicaSets() {
        return all(ReplicaSet.class);
    }

    public List<StatefulSet> statefulSets() {
        return all(StatefulSet.class);
    }

    public List<Job> jobs() {
        return all(Job.class);
    }

    public List<DaemonSet> daemonSets() {
        return all(DaemonSet.class);
    }

    public List<PodDisruptionBudget> podDisruptionBudgets() {
        return all(PodDisruptionBudget.class);
    }

    /** The Workloads (scheduling.k8s.io/v1beta1, served with the GenericWorkload gate). */
    public List<Workload> workloads() {
        return all(Workload.class);
    }

    /** The PodGroups (scheduling.k8s.io/v1beta1): the runtime groups pods name in spec.schedulingGroup. */
    public List<PodGroup> podGroups() {
        return all(PodGroup.class);
    }

    /** Where an object came from; empty origin of source {@code ""} for an object not read by this reader. */
    public ManifestOrigin originOf(HasMetadata object) {
        Objects.requireNonNull(object, "object");
        for (ManifestObject o : objects) {
            if (o.object() == object) {
                return o.origin();
            }
        }
        return new ManifestOrigin("", 0, -1);
    }

    /** The object's namespace, or {@link #DEFAULT_NAMESPACE} for a namespaced object that names none. */
    public static String namespaceOf(HasMetadata object) {
        String ns = object.getMetadata() == null ? null : object.getMetadata().getNamespace();
        if (!ManifestKinds.namespaced(object.getClass())) {
            return "";
        }
        return ns == null || ns.isEmpty() ? DEFAULT_NAMESPACE : ns;
    }
}
