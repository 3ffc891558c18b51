package io.dra4j.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The pods a workload's controller keeps active, with the job cases of upstream's job_controller_test.go (v1.37.2,
 * TestControllerSyncJob: "job start", "WQ job start", "too few active pods", "more active pods than remaining
 * completions", suspended and finished jobs).
 */
class WorkloadPodsTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static Job job(String spec, String status) {
        return JSON.readValue(
                "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"j\"},\"spec\":" + spec
                        + ",\"status\":" + status + "}",
                Job.class);
    }

    private static <T extends HasMetadata> T object(String json, Class<T> type) {
        return JSON.readValue(json, type);
    }

    @Test
    void jobsKeepTheCompletionsStillMissingActiveUpToParallelism() {
        // job start: parallelism 2, completions 5.
        assertThat(WorkloadPods.job(job("{\"parallelism\":2,\"completions\":5}", "{}"), 0))
                .isEqualTo(2);
        // too few active pods: one succeeded, one active: still 2 wanted.
        assertThat(WorkloadPods.job(job("{\"parallelism\":2,\"completions\":5}", "{\"succeeded\":1}"), 1))
                .isEqualTo(2);
        // more active pods than remaining completions: 4 completions, 2 succeeded, parallelism 3: 2.
        assertThat(WorkloadPods.job(job("{\"parallelism\":3,\"completions\":4}", "{\"succeeded\":2}"), 3))
                .isEqualTo(2);
        // More succeeded than completions asks for (status written by hand): none, never negative.
        assertThat(WorkloadPods.job(job("{\"parallelism\":3,\"completions\":4}", "{\"succeeded\":6}"), 0))
                .isZero();
        // parallelism defaults to 1.
        assertThat(WorkloadPods.job(job("{\"completions\":4}", "{}"), 0)).isEqualTo(1);
    }

    @Test
    void workQueueJobsStopStartingPodsOnceOneSucceeded() {
        // WQ job start: no completions, parallelism 2.
        assertThat(WorkloadPods.job(job("{\"parallelism\":2}", "{}"), 0)).isEqualTo(2);
        // After a success, whatever runs keeps running and nothing new starts.
        assertThat(WorkloadPods.job(job("{\"parallelism\":4}", "{\"succeeded\":1}"), 3))
                .isEqualTo(3);
    }

    @Test
    void suspendedAndFinishedJobsRunNothing() {
        assertThat(WorkloadPods.job(job("{\"parallelism\":8,\"suspend\":true}", "{}"), 0))
                .isZero();
        assertThat(WorkloadPods.job(
                        job(
                                "{\"parallelism\":8,\"completions\":8}",
                                "{\"conditions\":[{\"type\":\"Failed\",\"status\":\"True\"}]}"),
                        0))
                .isZero();
        assertThat(WorkloadPods.job(
                        job("{\"parallelism\":2}", "{\"conditions\":[{\"type\":\"Complete\",\"status\":\"True\"}]}"),
                        0))
                .isZero();
        // A condition that is not True does not finish it.
        assertThat(WorkloadPods.job(
                        job("{\"parallelism\":2}", "{\"conditions\":[{\"type\":\"Complete\",\"status\":\"False\"}]}"),
                        0))
                .isEqualTo(2);
    }

    @Test
    void atOnceByKind() {
        assertThat(WorkloadPods.atOnce(object(
                        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":"
                                + "{\"name\":\"d\"},\"spec\":{\"replicas\":3}}",
                        Deployment.class)))
                .hasValue(3);
        assertThat(WorkloadPods.atOnce(object(
                        "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"metadata\":"
                                + "{\"name\":\"s\"},\"spec\":{}}",
                        StatefulSet.class)))
                .hasValue(1);
        assertThat(WorkloadPods.atOnce(object(
                        "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":"
                                + "{\"name\":\"r\"},\"spec\":{\"replicas\":0}}",
                        ReplicaSet.class)))
                .hasValue(0);
        // A Job's status.active stands for the pods active now.
        assertThat(WorkloadPods.atOnce(job("{\"parallelism\":4}", "{\"succeeded\":1,\"active\":2}")))
                .hasValue(2);
        assertThat(WorkloadPods.atOnce(object(
                        "{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"metadata\":"
                                + "{\"name\":\"c\"},\"spec\":{\"schedule\":\"* * * * *\",\"jobTemplate\":{\"spec\":{\"parallelism\":3,"
                                + "\"completions\":2}}}}",
                        CronJob.class)))
                .hasValue(2);
        assertThat(WorkloadPods.atOnce(object(
                        "{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"metadata\":"
                                + "{\"name\":\"c\"},\"spec\":{\"schedule\":\"* * * * *\",\"suspend\":true,\"jobTemplate\":{\"spec\":"
                                + "{\"parallelism\":3}}}}",
                        CronJob.class)))
                .hasValue(0);
        assertThat(WorkloadPods.atOnce(
                        object("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}", Pod.class)))
                .hasValue(1);
        assertThat(WorkloadPods.atOnce(object(
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":" + "{\"name\":\"m\"}}",
                        ConfigMap.class)))
                .isEmpty();
    }
}
