package io.dra4j.sim.whatif;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.PodResult;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WhatIfTest {
    private static final SimulationOptions OPTIONS = SimulationOptions.defaults();
    private final WhatIf whatIf = new WhatIf(OPTIONS);

    private static final String CLASS = """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: gpu}
            spec:
              selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
            """;

    private static String node(String name, int gpus, int sliceCount) {
        StringBuilder devices = new StringBuilder();
        for (int d = 0; d < gpus; d++) {
            devices.append("  - {name: gpu-").append(d).append("}\n");
        }
        return """
                apiVersion: v1
                kind: Node
                metadata: {name: %1$s, labels: {kubernetes.io/hostname: %1$s}}
                status: {allocatable: {cpu: "64", memory: 256Gi, pods: "110"}}
                ---
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata: {name: %1$s-gpus}
                spec:
                  driver: gpu.example.com
                  nodeName: %1$s
                  pool: {name: %1$s, generation: 1, resourceSliceCount: %3$d}
                  devices:
                %2$s""".formatted(name, devices, sliceCount);
    }

    private static String pod(String name, int gpus, String app) {
        return """
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: %1$s, namespace: team}
                spec:
                  spec:
                    devices:
                      requests: [{name: gpus, exactly: {deviceClassName: gpu, count: %2$d}}]
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: %1$s, namespace: team, labels: {app: %3$s}}
                spec:
                  containers: [{name: main, image: x, resources: {requests: {cpu: "1"}, claims: [{name: gpus}]}}]
                  resourceClaims: [{name: gpus, resourceClaimTemplateName: %1$s}]
                """.formatted(name, gpus, app);
    }

    private static ClusterSnapshot snapshot(String... docs) {
        Manifests m = ManifestReader.parse(String.join("---\n", docs).getBytes(StandardCharsets.UTF_8), "test");
        assertThat(m.problems()).isEmpty();
        return ClusterSnapshot.of(m);
    }

    @Test
    void findMinEqualsALinearSearchOnGeneratedFleets() {
        for (long seed = 1; seed <= 12; seed++) {
            Random r = new Random(seed);
            List<String> docs = new java.util.ArrayList<>(List.of(CLASS));
            int nodes = 1 + r.nextInt(3);
            for (int n = 0; n < nodes; n++) {
                docs.add(node("node-" + n, 2 + r.nextInt(7), 1));
            }
            int pods = 2 + r.nextInt(8);
            for (int p = 0; p < pods; p++) {
                docs.add(pod("job-" + p, 1 + r.nextInt(8), p % 2 == 0 ? "even" : "odd"));
            }
            ClusterSnapshot s = snapshot(docs.toArray(String[]::new));
            NodeTemplate template = NodeTemplate.of(s, "node-" + r.nextInt(nodes));
            boolean selectEven = r.nextBoolean();
            java.util.function.Predicate<io.fabric8.kubernetes.api.model.Pod> select =
                    p -> !selectEven || p.getMetadata().getLabels().get("app").equals("even");

            WhatIf.Minimum min = whatIf.findMin(s, template, select);

            List<String> targets = min.targets();
            int linear = -1;
            for (int n = 0; n <= targets.size() && linear < 0; n++) {
                SimulationResult run = new Simulator(OPTIONS).run(NodeTemplate.addTo(s, WhatIf.clones(template, n)));
                boolean all = run.pods().stream()
                        .filter(p -> targets.contains(p.namespace() + "/" + p.name()))
                        .allMatch(p -> p.placement() == PodResult.Placement.PLACED);
                if (all) {
                    linear = n;
                }
            }
            assertThat(min.count())
                    .as("seed %d, template %s, %d targets", seed, template.name(), targets.size())
                    .isEqualTo(linear);
        }
    }

    @Test
    void aTemplateWithAnIncompletePoolIsTheCause() {
        ClusterSnapshot s = snapshot(CLASS, node("node-0", 2, 2), pod("big", 2, "x"));
        WhatIf.Minimum min = whatIf.findMin(s, NodeTemplate.of(s, "node-0"), p -> true);

        assertThat(min.count()).isEqualTo(-1);
        assertThat(min.incompletePools())
                .containsExactly("template node-0: pool gpu.example.com/node-0: generation 1 "
                        + "has 1 of 2 slices (the clones' devices in it cannot be allocated)");
        assertThat(min.stillPending()).containsOnlyKeys("team/big");
    }

    @Test
    void addedNodesTakePendingPodsWithTheirOwnPools() {
        ClusterSnapshot s = snapshot(CLASS, node("node-0", 4, 1), pod("a", 4, "x"), pod("b", 4, "x"), pod("c", 4, "x"));
        WhatIf.Added added = whatIf.addNodes(s, Map.of(NodeTemplate.of(s, "node-0"), 1));

        assertThat(added.pendingBefore()).isEqualTo(2);
        assertThat(added.placedOnNewNodes()).isEqualTo(1);
        assertThat(added.newNodes()).containsExactly("node-0-new-1");
        assertThat(added.result().pending()).isEqualTo(1);
        ClusterSnapshot fin = added.result().finalState();
        assertThat(fin.resourceSlices())
                .extracting(sl -> sl.getSpec().getPool().getName())
                .containsExactlyInAnyOrder("node-0", "node-0-new-1");
        for (ResourceClaim c : fin.resourceClaims()) {
            if (c.getStatus() != null && c.getStatus().getAllocation() != null) {
                String pool = c.getStatus()
                        .getAllocation()
                        .getDevices()
                        .getResults()
                        .get(0)
                        .getPool();
                String podNode = fin.pods().stream()
                        .filter(p -> c.getMetadata()
                                .getName()
                                .startsWith(p.getMetadata().getName() + "-"))
                        .findFirst()
                        .orElseThrow()
                        .getSpec()
                        .getNodeName();
                assertThat(pool).isEqualTo(podNode);
            }
        }
    }

    @Test
    void drainedPodsMoveWithTheirClaimsReallocatedOrStayPending() {
        ClusterSnapshot s = snapshot(
                CLASS,
                node("node-0", 8, 1),
                node("node-1", 8, 1),
                node("node-2", 8, 1),
                pod("a", 4, "x"),
                pod("b", 4, "x"),
                pod("c", 4, "x"));
        SimulationResult base = new Simulator(OPTIONS).run(s);
        String nodeOfA = base.pods().stream()
                .filter(p -> p.name().equals("a"))
                .findFirst()
                .orElseThrow()
                .node()
                .orElseThrow();

        WhatIf.Drained one = whatIf.drain(s, List.of(nodeOfA));
        assertThat(one.fits()).isTrue();
        assertThat(one.moved()).isNotEmpty().doesNotContainValue(nodeOfA);
        for (Map.Entry<String, String> e : one.moved().entrySet()) {
            String pod = e.getKey().substring("team/".length());
            ResourceClaim claim = one.result().finalState().resourceClaims().stream()
                    .filter(c -> c.getMetadata().getName().startsWith(pod + "-gpus-"))
                    .findFirst()
                    .orElseThrow();
            assertThat(claim.getStatus().getAllocation().getDevices().getResults())
                    .allSatisfy(res -> assertThat(res.getPool()).isEqualTo(e.getValue()));
        }

        WhatIf.Drained two = whatIf.drain(s, List.of("node-0", "node-1"));
        // 3 pods of 4 GPUs, one node of 8 left: at least one stays pending.
        assertThat(two.fits()).isFalse();
        assertThat(two.moved().size()
                        + two.pending().size()
                        + two.result().finalState().pods().stream()
                                .filter(p -> "node-2".equals(p.getSpec().getNodeName()))
                                .count())
                .isGreaterThanOrEqualTo(3);
    }
}
