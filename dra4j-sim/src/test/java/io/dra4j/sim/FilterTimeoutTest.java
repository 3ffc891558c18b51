package io.dra4j.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** DynamicResources' filterTimeout in the simulator, applied as kube-scheduler applies it. */
class FilterTimeoutTest {
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: train, namespace: ns}
            spec:
              containers:
              - name: main
                image: x
                resources: {requests: {cpu: "1"}}
              resourceClaims:
              - name: gpus
                resourceClaimTemplateName: two
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: two, namespace: ns}
            spec:
              spec:
                devices:
                  requests:
                  - name: gpus
                    exactly: {deviceClassName: gpu, count: 2}
            """;

    private static PodResult train(SimulationOptions options) {
        ClusterSnapshot s = Snapshots.parse(Snapshots.GPU_CLASS, Snapshots.node("node-1", 4), POD);
        return Snapshots.pod(new Simulator(options).run(s), "train");
    }

    @Test
    void kubeSchedulersDefaultBoundsEachNodesAllocation() {
        assertThat(SimulationOptions.defaults().filterTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(SimulationOptions.defaults().effectiveFilterTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(train(SimulationOptions.defaults()).placement()).isEqualTo(PodResult.Placement.PLACED);
    }

    @Test
    void anAllocationPastTheBoundFailsThePodsAttemptWithUpstreamsError() {
        PodResult pod = train(SimulationOptions.defaults().withFilterTimeout(Duration.ofNanos(1)));
        assertThat(pod.placement()).isEqualTo(PodResult.Placement.PENDING);
        assertThat(pod.reason()).contains("node node-1: timed out trying to allocate devices");
    }

    @Test
    void noBoundWithZeroOrWithTheGateOff() {
        assertThat(SimulationOptions.defaults().withFilterTimeout(Duration.ZERO).effectiveFilterTimeout())
                .isNull();
        Set<DraFeature> gates =
                EnumSet.copyOf(FeatureGates.defaults(KubernetesVersion.V1_37).enabled());
        gates.remove(DraFeature.DRASchedulerFilterTimeout);
        SimulationOptions off = new SimulationOptions(FeatureGates.of(gates), 0).withFilterTimeout(Duration.ofNanos(1));
        assertThat(off.effectiveFilterTimeout()).isNull();
        assertThat(train(off).placement()).isEqualTo(PodResult.Placement.PLACED);
    }

    @Test
    void aNegativeBoundIsRefused() {
        assertThatThrownBy(() -> SimulationOptions.defaults().withFilterTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be negative");
    }
}
