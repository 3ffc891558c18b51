package io.dra4j.sim;

import io.dra4j.scenario.Manifests;
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

/**
 * The cluster a simulation starts from: nodes, pods (bound ones are the starting state), priority classes, the
 * resource.k8s.io objects (allocated claims are the starting state) and the workloads whose pods are to be created.
 * PodDisruptionBudgets are read by DefaultPreemption; PodGroups (with their Workloads) make gangs that GangScheduling
 * places all or nothing; Services and ReplicationControllers only lend their selectors to PodTopologySpread's
 * default constraints (a ReplicationController's pods are not created). The lists are copied; the objects are not and are never
 * modified by the simulator.
 */
public record ClusterSnapshot(
        List<Node> nodes,
        List<Pod> pods,
        List<PriorityClass> priorityClasses,
        List<DeviceClass> deviceClasses,
        List<ResourceSlice> resourceSlices,
        List<ResourceClaim> resourceClaims,
        List<ResourceClaimTemplate> resourceClaimTemplates,
        List<DeviceTaintRule> deviceTaintRules,
        List<Deployment> deployments,
        List<ReplicaSet> replicaSets,
        List<StatefulSet> statefulSets,
        List<Job> jobs,
        List<DaemonSet> daemonSets,
        List<PodDisruptionBudget> podDisruptionBudgets,
        List<PodGroup> podGroups,
        List<Workload> workloads,
        List<Service> services,
        List<ReplicationController> replicationControllers) {
    public ClusterSnapshot {
        nodes = List.copyOf(nodes);
        pods = List.copyOf(pods);
        priorityClasses = List.copyOf(priorityClasses);
        deviceClasses = List.copyOf(deviceClasses);
        resourceSlices = List.copyOf(resourceSlices);
        resourceClaims = List.copyOf(resourceClaims);
        resourceClaimTemplates = List.copyOf(resourceClaimTemplates);
        deviceTaintRules = List.copyOf(deviceTaintRules);
        deployments = List.copyOf(deployments);
        replicaSets = List.copyOf(replicaSets);
        statefulSets = List.copyOf(statefulSets);
        jobs = List.copyOf(jobs);
        daemonSets = List.copyOf(daemonSets);
        podDisruptionBudgets = List.copyOf(podDisruptionBudgets);
        podGroups = List.copyOf(podGroups);
        workloads = List.copyOf(workloads);
        services = List.copyOf(services);
        replicationControllers = List.copyOf(replicationControllers);
    }

    /** A snapshot without Services and ReplicationControllers. */
    public ClusterSnapshot(
            List<Node> nodes,
            List<Pod> pods,
            List<PriorityClass> priorityClasses,
            List<DeviceClass> deviceClasses,
            List<ResourceSlice> resourceSlices,
            List<ResourceClaim> resourceClaims,
            List<ResourceClaimTemplate> resourceClaimTemplates,
            List<DeviceTaintRule> deviceTaintRules,
            List<Deployment> deployments,
            List<ReplicaSet> replicaSets,
            List<StatefulSet> statefulSets,
            List<Job> jobs,
            List<DaemonSet> daemonSets,
            List<PodDisruptionBudget> podDisruptionBudgets,
            List<PodGroup> podGroups,
            List<Workload> workloads) {
        this(
                nodes,
                pods,
                priorityClasses,
                deviceClasses,
                resourceSlices,
                resourceClaims,
                resourceClaimTemplates,
                deviceTaintRules,
                deployments,
                replicaSets,
                statefulSets,
                jobs,
                daemonSets,
                podDisruptionBudgets,
                podGroups,
                workloads,
                List.of(),
                List.of());
    }

    /** A snapshot without PodGroups and Workloads. */
    public ClusterSnapshot(
            List<Node> nodes,
            List<Pod> pods,
            List<PriorityClass> priorityClasses,
            List<DeviceClass> deviceClasses,
            List<ResourceSlice> resourceSlices,
            List<ResourceClaim> resourceClaims,
            List<ResourceClaimTemplate> resourceClaimTemplates,
            List<DeviceTaintRule> deviceTaintRules,
            List<Deployment> deployments,
            List<ReplicaSet> replicaSets,
            List<StatefulSet> statefulSets,
            List<Job> jobs,
            List<DaemonSet> daemonSets,
            List<PodDisruptionBudget> podDisruptionBudgets) {
        this(
                nodes,
                pods,
                priorityClasses,
                deviceClasses,
                resourceSlices,
                resourceClaims,
                resourceClaimTemplates,
                deviceTaintRules,
                deployments,
                replicaSets,
                statefulSets,
                jobs,
                daemonSets,
                podDisruptionBudgets,
                List.of(),
                List.of());
    }

    /** A snapshot without PodDisruptionBudgets. */
    public ClusterSnapshot(
            List<Node> nodes,
            List<Pod> pods,
            List<PriorityClass> priorityClasses,
            List<DeviceClass> deviceClasses,
            List<ResourceSlice> resourceSlices,
            List<ResourceClaim> resourceClaims,
            List<ResourceClaimTemplate> resourceClaimTemplates,
            List<DeviceTaintRule> deviceTaintRules,
            List<Deployment> deployments,
            List<ReplicaSet> replicaSets,
            List<StatefulSet> statefulSets,
            List<Job> jobs,
            List<DaemonSet> daemonSets) {
        this(
                nodes,
                pods,
                priorityClasses,
                deviceClasses,
                resourceSlices,
                resourceClaims,
                resourceClaimTemplates,
                deviceTaintRules,
                deployments,
                replicaSets,
                statefulSets,
                jobs,
                daemonSets,
                List.of(),
                List.of(),
                List.of());
    }

    /** This snapshot with the pods, claims and nodes replaced, the other objects kept. */
    public ClusterSnapshot with(
            List<Node> nodes, List<Pod> pods, List<ResourceSlice> resourceSlices, List<ResourceClaim> resourceClaims) {
        return new ClusterSnapshot(
                nodes,
                pods,
                priorityClasses,
                deviceClasses,
                resourceSlices,
                resourceClaims,
                resourceClaimTemplates,
                deviceTaintRules,
                deployments,
                replicaSets,
                statefulSets,
                jobs,
                daemonSets,
                podDisruptionBudgets,
                podGroups,
                workloads,
                services,
                replicationControllers);
    }

    /** The objects of the kinds the simulator uses, from manifests as read. */
    public static ClusterSnapshot of(Manifests m) {
        return new ClusterSnapshot(
                m.nodes(),
                m.pods(),
                m.priorityClasses(),
                m.deviceClasses(),
                m.resourceSlices(),
                m.resourceClaims(),
                m.resourceClaimTemplates(),
                m.deviceTaintRules(),
                m.deployments(),
                m.replicaSets(),
                m.statefulSets(),
                m.jobs(),
                m.daemonSets(),
                m.podDisruptionBudgets(),
                m.podGroups(),
                m.workloads(),
                m.services(),
                m.replicationControllers());
    }
}
