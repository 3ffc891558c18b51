package io.dra4j.sim.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetViewTest {
    /**
     * Four nodes in node pools a, b and none (no label), one slice for all nodes; an exclusive allocation, an
     * admin-access one, a partition of a counter set, a shared device held by two claims, a tainted device.
     */
    static final String STATE = """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: gpu}
            spec:
              selectors:
              - cel: {expression: 'device.driver == "gpu.example.com"'}
            ---
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: nic}
            spec:
              selectors:
              - cel: {expression: 'device.driver == "net.example.com"'}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: a1, labels: {pool: a}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: a2, labels: {pool: a}}
            spec:
              unschedulable: true
              taints: [{key: x, value: blue, effect: NoSchedule}]
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: b1, labels: {pool: b}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: c1}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: a1}
            spec:
              driver: gpu.example.com
              nodeName: a1
              pool: {name: a1, generation: 1, resourceSliceCount: 1}
              devices: [{name: gpu-0}, {name: gpu-1}]
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: a2}
            spec:
              driver: gpu.example.com
              nodeName: a2
              pool: {name: a2, generation: 1, resourceSliceCount: 1}
              devices:
              - name: gpu-0
                taints: [{key: xid, value: "79", effect: NoSchedule}]
              - name: gpu-1
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: b1-counters}
            spec:
              driver: gpu.example.com
              nodeName: b1
              pool: {name: b1, generation: 1, resourceSliceCount: 2}
              sharedCounters:
              - name: mem
                counters: {memory: {value: 40Gi}}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: b1-devices}
            spec:
              driver: gpu.example.com
              nodeName: b1
              pool: {name: b1, generation: 1, resourceSliceCount: 2}
              devices:
              - name: p0
                consumesCounters: [{counterSet: mem, counters: {memory: {value: 10Gi}}}]
              - name: p1
                consumesCounters: [{counterSet: mem, counters: {memory: {value: 30Gi}}}]
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: c1}
            spec:
              driver: gpu.example.com
              nodeName: c1
              pool: {name: c1, generation: 1, resourceSliceCount: 1}
              devices:
              - name: s0
                allowMultipleAllocations: true
                capacity: {memory: {value: 80Gi}}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: net}
            spec:
              driver: net.example.com
              allNodes: true
              pool: {name: net, generation: 1, resourceSliceCount: 1}
              devices: [{name: net-0}]
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: p1, namespace: team, uid: u1}
            spec: {nodeName: a1, containers: [{name: c, image: x}]}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: p2, namespace: team, uid: u2}
            spec: {nodeName: a1, containers: [{name: c, image: x}]}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: p3, namespace: team, uid: u3}
            spec: {containers: [{name: c, image: x}]}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: one, namespace: team}
            spec:
              devices:
                requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
            status:
              allocation:
                devices:
                  results: [{request: gpu, driver: gpu.example.com, pool: a1, device: gpu-0}]
              reservedFor: [{resource: pods, name: p1, uid: u1}]
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: monitor, namespace: team}
            spec:
              devices:
                requests: [{name: gpu, exactly: {deviceClassName: gpu, adminAccess: true}}]
            status:
              allocation:
                devices:
                  results: [{request: gpu, driver: gpu.example.com, pool: a1, device: gpu-1, adminAccess: true}]
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: slice, namespace: team}
            spec:
              devices:
                requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
            status:
              allocation:
                devices:
                  results: [{request: gpu, driver: gpu.example.com, pool: b1, device: p0}]
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: share-1, namespace: team}
            spec:
              devices:
                requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
            status:
              allocation:
                devices:
                  results:
                  - {request: gpu, driver: gpu.example.com, pool: c1, device: s0, shareID: 11111111-1111-1111-1111-111111111111,
                     consumedCapacity: {memory: 10Gi}}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: share-2, namespace: team}
            spec:
              devices:
                requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
            status:
              allocation:
                devices:
                  results:
                  - {request: gpu, driver: gpu.example.com, pool: c1, device: s0, shareID: 22222222-2222-2222-2222-222222222222,
                     consumedCapacity: {memory: 20Gi}}
            """;

    static ClusterSnapshot parse(String yaml) {
        Manifests m = ManifestReader.parse(yaml.getBytes(StandardCharsets.UTF_8), "state.yaml");
        assertThat(m.problems()).isEmpty();
        return ClusterSnapshot.of(m);
    }

    private static FleetView.NodePool pool(FleetView v, String name) {
        return v.pools().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    private static FleetView.NodeRow node(FleetView.NodePool p, String name) {
        return p.nodeRows().stream()
                .filter(n -> n.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void nodesAreGroupedByTheirPoolLabelInNameOrderWithSliceDevicesOfNoNodeApart() {
        FleetView v = FleetView.of(parse(STATE), "pool");

        assertThat(v.poolLabel()).isEqualTo("pool");
        assertThat(v.pools()).extracting(FleetView.NodePool::name).containsExactly("", FleetView.NO_NODE, "a", "b");
        assertThat(v.pools()).extracting(FleetView.NodePool::nodes).containsExactly(1L, 0L, 2L, 1L);
        assertThat(v.pools()).extracting(FleetView.NodePool::devices).containsExactly(1L, 1L, 4L, 2L);
        // Admin access does not take gpu-1 of a1; the shared device counts once however many claims hold it.
        assertThat(v.pools()).extracting(FleetView.NodePool::allocated).containsExactly(1L, 0L, 1L, 1L);
        assertThat(v.pools()).extracting(FleetView.NodePool::tainted).containsExactly(0L, 0L, 1L, 0L);
        assertThat(pool(v, "a").nodeRows()).extracting(FleetView.NodeRow::name).containsExactly("a1", "a2");
        assertThat(pool(v, FleetView.NO_NODE).nodeRows()).singleElement().satisfies(n -> {
            assertThat(n.name()).isEmpty();
            assertThat(n.devices()).extracting(FleetView.Cell::device).containsExactly("net-0");
        });
        // Another label groups otherwise: every node lacks it.
        assertThat(FleetView.of(parse(STATE), "zone").pools())
                .extracting(FleetView.NodePool::name)
                .containsExactly("", FleetView.NO_NODE);
    }

    @Test
    void cellsSayWhatHoldsEachDevice() {
        FleetView v = FleetView.of(parse(STATE), "pool");

        FleetView.NodeRow a1 = node(pool(v, "a"), "a1");
        assertThat(a1.pods()).isEqualTo(2);
        assertThat(a1.cordoned()).isFalse();
        assertThat(a1.devices()).extracting(FleetView.Cell::state).containsExactly("allocated", "free");
        assertThat(a1.devices().get(0)).satisfies(c -> {
            assertThat(c.pool()).isEqualTo("gpu.example.com/a1");
            assertThat(c.claims()).containsExactly("team/one");
            assertThat(c.pods()).containsExactly("team/p1");
            assertThat(c.classes()).containsExactly("gpu");
            assertThat(c.kind()).isEqualTo("device");
        });
        assertThat(a1.devices().get(1).adminClaims()).containsExactly("team/monitor");
        assertThat(a1.devices().get(1).claims()).isEmpty();

        FleetView.NodeRow a2 = node(pool(v, "a"), "a2");
        assertThat(a2.cordoned()).isTrue();
        assertThat(a2.taints()).containsExactly("x=blue:NoSchedule");
        assertThat(a2.pods()).isZero();
        assertThat(a2.devices()).extracting(FleetView.Cell::state).containsExactly("tainted", "free");
        assertThat(a2.devices().get(0).taints()).containsExactly("xid=79:NoSchedule");

        FleetView.NodeRow b1 = node(pool(v, "b"), "b1");
        assertThat(b1.devices()).extracting(FleetView.Cell::state).containsExactly("allocated", "free");
        assertThat(b1.devices())
                .extracting(FleetView.Cell::counterSet)
                .containsExactly("gpu.example.com/b1/mem", "gpu.example.com/b1/mem");
        assertThat(b1.devices().get(0).kind()).isEqualTo("partition of mem");
        // Only the allocated partition consumes from the counter set.
        assertThat(b1.counterSets())
                .containsExactly(new FleetView.Counters(
                        "gpu.example.com/b1/mem", List.of(new FleetView.Consumed("memory", "10Gi", "40Gi"))));

        FleetView.NodeRow c1 = node(pool(v, ""), "c1");
        assertThat(c1.devices()).singleElement().satisfies(c -> {
            assertThat(c.state()).isEqualTo("shared");
            assertThat(c.kind()).isEqualTo("shared");
            assertThat(c.claims()).containsExactly("team/share-1", "team/share-2");
            assertThat(c.consumed()).containsExactly(new FleetView.Consumed("memory", "30Gi", "80Gi"));
        });
        // p3 is bound nowhere.
        assertThat(c1.pods()).isZero();
    }

    @Test
    void countersAndCapacitiesPrintAsKubernetesQuantitiesInTheFormatOfTheirTotal() {
        FleetView v = FleetView.of(parse("""
                        apiVersion: v1
                        kind: Node
                        metadata: {name: node-a}
                        ---
                        apiVersion: resource.k8s.io/v1
                        kind: ResourceSlice
                        metadata: {name: node-a}
                        spec:
                          driver: gpu.example.com
                          nodeName: node-a
                          pool: {name: node-a, generation: 1, resourceSliceCount: 1}
                          sharedCounters:
                          - name: mem
                            counters: {memory: {value: 81920Mi}, power: {value: "3000"}}
                          devices:
                          - name: p0
                            consumesCounters:
                            - {counterSet: mem, counters: {memory: {value: 1536Mi}, power: {value: 1.5k}}}
                          - name: s0
                            allowMultipleAllocations: true
                            capacity: {bandwidth: {value: 3G}}
                        ---
                        apiVersion: resource.k8s.io/v1
                        kind: ResourceClaim
                        metadata: {name: part, namespace: team}
                        spec:
                          devices:
                            requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
                        status:
                          allocation:
                            devices:
                              results: [{request: gpu, driver: gpu.example.com, pool: node-a, device: p0}]
                        ---
                        apiVersion: resource.k8s.io/v1
                        kind: ResourceClaim
                        metadata: {name: share, namespace: team}
                        spec:
                          devices:
                            requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
                        status:
                          allocation:
                            devices:
                              results:
                              - {request: gpu, driver: gpu.example.com, pool: node-a, device: s0,
                                 shareID: 11111111-1111-1111-1111-111111111111, consumedCapacity: {bandwidth: 1500M}}
                        """), "pool");

        FleetView.NodeRow n = node(pool(v, ""), "node-a");
        // 81920Mi is 80Gi; 1536Mi stays 1536Mi (not a whole Gi); 1.5k of a plain total prints as 1500.
        assertThat(n.counterSets())
                .containsExactly(new FleetView.Counters(
                        "gpu.example.com/node-a/mem",
                        List.of(
                                new FleetView.Consumed("memory", "1536Mi", "80Gi"),
                                new FleetView.Consumed("power", "1500", "3k"))));
        assertThat(n.devices().get(1).consumed()).containsExactly(new FleetView.Consumed("bandwidth", "1500M", "3G"));
    }

    @Test
    void devicesOfANodeTheSnapshotLacksAreShownApartNotDropped() {
        FleetView v = FleetView.of(parse(STATE + """
                ---
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                metadata: {name: gone}
                spec:
                  driver: gpu.example.com
                  nodeName: gone
                  pool: {name: gone, generation: 1, resourceSliceCount: 1}
                  devices: [{name: gpu-0}, {name: gpu-1}]
                """), "pool");

        FleetView.NodePool apart = pool(v, FleetView.NO_NODE);
        assertThat(apart.nodeRows()).extracting(FleetView.NodeRow::name).containsExactly("", "gone");
        assertThat(apart.nodes()).isZero();
        assertThat(apart.devices()).isEqualTo(3);
        assertThat(v.pools().stream().mapToLong(FleetView.NodePool::devices).sum())
                .isEqualTo(10);
    }

    @Test
    void perClassAllocationsAreCountedAsDeviceUsageCountsThem() {
        FleetView v = FleetView.of(parse(STATE), "pool");

        // gpu: one, slice and the two shares of s0 allocated; monitor with admin access; seven gpu.example.com devices.
        assertThat(v.classes())
                .containsExactly(new FleetView.ClassUsage("gpu", 4, 1, 7), new FleetView.ClassUsage("nic", 0, 0, 1));
    }
}
