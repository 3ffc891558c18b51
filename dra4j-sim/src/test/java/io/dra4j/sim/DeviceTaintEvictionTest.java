package io.dra4j.sim;

import static io.dra4j.sim.Snapshots.GPU_CLASS;
import static io.dra4j.sim.Snapshots.pod;
import static io.dra4j.sim.Snapshots.simulate;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import org.junit.jupiter.api.Test;

/**
 * NoExecute device taints, as pkg/controller/devicetainteviction (1.37) evicts: claimEvictionTime over the allocated
 * devices' taints (slice and DeviceTaintRule), tolerationSeconds of NoExecute tolerations, podEvictionTime.
 */
class DeviceTaintEvictionTest {
    /** Node n1 with gpu-0..gpu-2; {@code %s} is each device's taints. */
    private static final String NODE = """
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
              - {name: gpu-0, taints: %1$s}
              - {name: gpu-1, taints: %1$s}
              - {name: gpu-2, taints: %1$s}
            """;

    private static final String TEMPLATE = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaimTemplate
            metadata: {name: one, namespace: ns}
            spec:
              spec:
                devices:
                  requests:
                  - name: gpus
                    exactly: {deviceClassName: gpu, count: 1}
            """;
    private static final String TAINT =
            "{key: example.com/xid, value: \"79\", effect: NoExecute, timeAdded: \"2026-01-01T00:00:00Z\"}";

    /** Pod {@code name} bound to n1 with a claim allocated on {@code device} with the given tolerations. */
    private static String bound(String name, String device, String tolerations, String owner) {
        return """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata:
                  name: %1$s-gpus-abcde
                  namespace: ns
                  finalizers: [resource.kubernetes.io/delete-protection]
                  ownerReferences: [{apiVersion: v1, kind: Pod, name: %1$s, uid: uid-%1$s, controller: true}]
                spec:
                  devices:
                    requests:
                    - name: gpus
                      exactly: {deviceClassName: gpu, count: 1}
                status:
                  allocation:
                    devices:
                      results: [{request: gpus, driver: gpu.example.com, pool: n1, device: %2$s, tolerations: %3$s}]
                  reservedFor: [{resource: pods, name: %1$s, uid: uid-%1$s}]
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %1$s
                  namespace: ns
                  uid: uid-%1$s
                  creationTimestamp: "2026-01-01T00:05:00Z"
                %4$s
                spec:
                  nodeName: n1
                  containers: [{name: main}]
                  resourceClaims: [{name: gpus, resourceClaimTemplateName: one}]
                status:
                  phase: Running
                  resourceClaimStatuses: [{name: gpus, resourceClaimName: %1$s-gpus-abcde}]
                """.formatted(name, device, tolerations, owner);
    }

    @Test
    void aDeviceTaintRuleEvictsThePodItsReplicaSetRecreatesItAndItIsScheduledOnAnUntaintedDevice() {
        String rule = """
                apiVersion: resource.k8s.io/v1
                kind: DeviceTaintRule
                metadata: {name: xid}
                spec:
                  deviceSelector: {driver: gpu.example.com, pool: n1, device: gpu-0}
                  taint: %s
                """.formatted(TAINT);
        String owner = "  generateName: rs-\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs,"
                + " uid: rs-uid, controller: true}]";
        SimulationResult r =
                simulate(GPU_CLASS, NODE.formatted("[]"), TEMPLATE, rule, bound("w", "gpu-0", "[]", owner));

        assertThat(pod(r, "w").placement()).isEqualTo(PodResult.Placement.EVICTED);
        assertThat(pod(r, "w").reason())
                .isEqualTo("Device Taint manager: deleting due to NoExecute taint"
                        + " example.com/xid=79:NoExecute on device gpu.example.com/n1/gpu-0 at 2026-01-01T00:05:00Z");
        PodResult replacement = r.pods().stream()
                .filter(p -> p.name().startsWith("rs-"))
                .findFirst()
                .orElseThrow();
        assertThat(replacement.placement()).isEqualTo(PodResult.Placement.PLACED);
        assertThat(r.finalState().resourceClaims()).singleElement().satisfies(c -> {
            assertThat(c.getMetadata().getOwnerReferences().get(0).getName()).isEqualTo(replacement.name());
            assertThat(c.getStatus()
                            .getAllocation()
                            .getDevices()
                            .getResults()
                            .get(0)
                            .getDevice())
                    .isEqualTo("gpu-1");
        });
        assertThat(r.events())
                .extracting(e -> e.reason() + " " + e.pod())
                .containsExactly("DeviceTaintManagerEviction w", "Scheduled " + replacement.name());
    }

    @Test
    void tolerationSecondsDelayTheEvictionOnTheSimulatedClockAndOnlyNoExecuteTolerationsCount() {
        String waits = "[{key: example.com/xid, operator: Exists, effect: NoExecute, tolerationSeconds: 600}]";
        String forever = "[{key: example.com/xid, operator: Exists, effect: NoExecute}]";
        String noEffect = "[{key: example.com/xid, operator: Exists, tolerationSeconds: 600}]";
        SimulationResult r = simulate(
                GPU_CLASS,
                NODE.formatted("[" + TAINT + "]"),
                TEMPLATE,
                bound("waits", "gpu-0", waits, ""),
                bound("forever", "gpu-1", forever, ""),
                bound("noeffect", "gpu-2", noEffect, ""));

        // timeAdded 00:00 + 600 s; the clock starts at the latest creationTimestamp, 00:05.
        assertThat(pod(r, "waits").placement()).isEqualTo(PodResult.Placement.EVICTED);
        assertThat(pod(r, "waits").reason()).endsWith(" at 2026-01-01T00:10:00Z");
        assertThat(pod(r, "forever").placement()).isEqualTo(PodResult.Placement.BOUND_BEFORE);
        // A toleration without effect NoExecute gives no grace period: evicted when the clock starts.
        assertThat(pod(r, "noeffect").placement()).isEqualTo(PodResult.Placement.EVICTED);
        assertThat(pod(r, "noeffect").reason()).endsWith(" at 2026-01-01T00:05:00Z");
        // Bare pods are not re-created; their generated claims are deleted.
        assertThat(r.finalState().pods())
                .extracting(p -> p.getMetadata().getName())
                .containsExactly("forever");
        assertThat(r.finalState().resourceClaims())
                .extracting(ResourceClaim::getMetadata)
                .extracting(m -> m.getName())
                .containsExactly("forever-gpus-abcde");
    }
}
