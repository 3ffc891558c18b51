package io.dra4j.sim;

import static io.dra4j.sim.Snapshots.GPU_CLASS;
import static io.dra4j.sim.Snapshots.parse;
import static io.dra4j.sim.Snapshots.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Devices with binding conditions: DynamicResources' PreBind waits (event BindingConditionsPending), then binds when
 * the conditions are met, or fails with upstream's ErrDeviceBindingFailed / ErrDeviceBindingTimeout wording wrapped
 * as RunPreBindPlugins wraps it, and the reservation and allocation are undone.
 */
class BindingConditionsTest {
    private static final String CLUSTER = """
            apiVersion: v1
            kind: Node
            metadata:
              name: n1
              labels: {kubernetes.io/hostname: n1}
            status:
              allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: n1-gpus}
            spec:
              driver: gpu.example.com
              nodeName: n1
              pool: {name: n1, generation: 1, resourceSliceCount: 1}
              devices:
              - name: gpu-0
                bindsToNode: true
                bindingConditions: [gpu.example.com/attached]
                bindingFailureConditions: [gpu.example.com/attach-failed]
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: one, namespace: ns}
            spec:
              spec:
                devices:
                  requests:
                  - name: gpus
                    exactly: {deviceClassName: gpu, count: 1}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: p, namespace: ns}
            spec:
              containers: [{name: main}]
              resourceClaims: [{name: gpus, resourceClaimTemplateName: one}]
            """;

    private static SimulationResult simulate(SimulationOptions.BindingConditions bc) {
        return new Simulator(new SimulationOptions(FeatureGates.defaults(KubernetesVersion.V1_37), 0, bc))
                .run(parse(GPU_CLASS, CLUSTER));
    }

    @Test
    void metConditionsLetThePodBindAfterWaitingInPreBind() {
        SimulationResult r = simulate(new SimulationOptions.BindingConditions(false, Duration.ofSeconds(30)));

        assertThat(pod(r, "p").node()).contains("n1");
        assertThat(r.events())
                .extracting(e -> e.reason() + ": " + e.message())
                .containsExactly(
                        "BindingConditionsPending: waiting for binding conditions for device on node n1",
                        "Scheduled: Successfully assigned ns/p to n1");
        ResourceClaim c = r.finalState().resourceClaims().get(0);
        assertThat(c.getStatus()
                        .getAllocation()
                        .getDevices()
                        .getResults()
                        .get(0)
                        .getBindingConditions())
                .containsExactly("gpu.example.com/attached");
        assertThat(c.getStatus().getDevices())
                .singleElement()
                .satisfies(d -> assertThat(d.getConditions()).singleElement().satisfies(cond -> {
                    assertThat(cond.getType()).isEqualTo("gpu.example.com/attached");
                    assertThat(cond.getStatus()).isEqualTo("True");
                }));
    }

    @Test
    void aFailureConditionFailsPreBindAndUndoesTheAllocation() {
        SimulationResult r = simulate(new SimulationOptions.BindingConditions(true, Duration.ZERO));

        PodResult p = pod(r, "p");
        assertThat(p.placement()).isEqualTo(PodResult.Placement.PENDING);
        ResourceClaim c = r.finalState().resourceClaims().get(0);
        assertThat(p.reason())
                .isEqualTo("running PreBind plugin \"DynamicResources\": device binding failed: claim="
                        + c.getMetadata().getName()
                        + ", reason=BindingFailed, message=\"simulated: the driver reported a"
                        + " binding failure\"");
        assertThat(c.getStatus().getAllocation()).isNull();
        assertThat(c.getStatus().getReservedFor()).isNull();
        assertThat(r.finalState().pods().get(0).getStatus().getConditions())
                .singleElement()
                .satisfies(cond -> assertThat(cond.getReason()).isEqualTo("SchedulerError"));
        assertThat(r.events())
                .extracting(e -> e.reason())
                .containsExactly("BindingConditionsPending", "FailedScheduling");
    }

    @Test
    void conditionsMetOnlyAfterTheBindingTimeoutTimeOut() {
        SimulationResult r = simulate(new SimulationOptions.BindingConditions(false, Duration.ofMinutes(11)));

        assertThat(pod(r, "p").reason())
                .isEqualTo(
                        "running PreBind plugin \"DynamicResources\": device binding timeout: context deadline exceeded");
        assertThat(r.finalState().resourceClaims().get(0).getStatus().getAllocation())
                .isNull();
    }
}
