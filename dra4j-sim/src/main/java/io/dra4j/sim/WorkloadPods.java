package io.dra4j.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How many pods a workload's controller keeps running at once, as kube-controller-manager 1.37 decides it: what the
 * simulator expands a workload into, and what quota counting multiplies a workload's claim templates by (one rule
 * for both). DaemonSets depend on the nodes: {@link DaemonSetNodes}.
 */
public final class WorkloadPods {
    private WorkloadPods() {}

    /** {@code spec.replicas} of a Deployment, ReplicaSet, StatefulSet or ReplicationController; the API default is 1. */
    public static int replicas(Integer replicas) {
        return replicas == null ? 1 : replicas;
    }

    /**
     * The pods a Job's controller wants active (the job controller's {@code manageJob}): none while suspended or once
     * the Job finished; without {@code completions}, {@code parallelism} until a pod succeeded and then the pods still
     * active; otherwise the completions still missing ({@code completions - status.succeeded}), at most
     * {@code parallelism} and at least 0. {@code parallelism} defaults to 1 as the API server defaults it.
     *
     * @param active the Job's pods that are active now (not Succeeded or Failed)
     */
    public static int job(Job job, int active) {
        JobSpec spec = Objects.requireNonNull(job, "job").getSpec();
        if (spec == null || Boolean.TRUE.equals(spec.getSuspend()) || finished(job.getStatus())) {
            return 0;
        }
        int parallelism = spec.getParallelism() == null ? 1 : spec.getParallelism();
        int succeeded = job.getStatus() == null || job.getStatus().getSucceeded() == null
                ? 0
                : job.getStatus().getSucceeded();
        if (spec.getCompletions() == null) {
            return succeeded > 0 ? active : parallelism;
        }
        return Math.max(0, Math.min(spec.getCompletions() - succeeded, parallelism));
    }

    /**
     * The pods a workload runs at once, for a Pod, Deployment, ReplicaSet, StatefulSet, ReplicationController, Job
     * (its {@code status.active} as the pods active now) or CronJob (the pods of one Job of its template; none while the
     * CronJob is suspended); empty for other kinds.
     */
    public static OptionalLong atOnce(HasMetadata workload) {
        if (workload instanceof Pod) {
            return OptionalLong.of(1);
        } else if (workload instanceof Deployment d && d.getSpec() != null) {
            return OptionalLong.of(replicas(d.getSpec().getReplicas()));
        } else if (workload instanceof ReplicaSet rs && rs.getSpec() != null) {
            return OptionalLong.of(replicas(rs.getSpec().getReplicas()));
        } else if (workload instanceof StatefulSet s && s.getSpec() != null) {
            return OptionalLong.of(replicas(s.getSpec().getReplicas()));
        } else if (workload instanceof ReplicationController rc && rc.getSpec() != null) {
            return OptionalLong.of(replicas(rc.getSpec().getReplicas()));
        } else if (workload instanceof Job j) {
            return OptionalLong.of(job(j, activeOf(j.getStatus())));
        } else if (workload instanceof CronJob c
                && c.getSpec() != null
                && c.getSpec().getJobTemplate() != null
                && c.getSpec().getJobTemplate().getSpec() != null) {
            if (Boolean.TRUE.equals(c.getSpec().getSuspend())) {
                return OptionalLong.of(0);
            }
            Job next = new Job();
            next.setSpec(c.getSpec().getJobTemplate().getSpec());
            return OptionalLong.of(job(next, 0));
        }
        return OptionalLong.empty();
    }

    private static int activeOf(JobStatus status) {
        return status == null || status.getActive() == null ? 0 : status.getActive();
    }

    private static boolean finished(JobStatus status) {
        return status != null
                && status.getConditions() != null
                && status.getConditions().stream()
                        .anyMatch(c -> ("Complete".equals(c.getType()) || "Failed".equals(c.getType()))
                                && "True".equals(c.getStatus()));
    }
}
