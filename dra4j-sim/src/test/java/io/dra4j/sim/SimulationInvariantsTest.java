package io.dra4j.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Invariants of every simulated cluster, checked on generated fleets by code independent of the simulator: no
 * device allocated exclusively twice, no shared counter overdrawn, no node over its allocatable cpu, memory or pod
 * count, every bound pod's claims allocated on its node and reserved for it; the inputs stay unchanged; and the final
 * state, simulated again, places nothing new and moves nothing.
 */
class SimulationInvariantsTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void generatedFleets(long seed) {
        String yaml = new FleetGenerator(seed).generate();
        Manifests m = ManifestReader.parse(yaml.getBytes(StandardCharsets.UTF_8), "fleet-" + seed);
        assertThat(m.problems()).isEmpty();
        ClusterSnapshot snapshot = ClusterSnapshot.of(m);
        String before = Reports.state(new SimulationResult(List.of(), List.of(), List.of(), snapshot));

        SimulationResult r = new Simulator(SimulationOptions.defaults()).run(snapshot);

        assertThat(Reports.state(new SimulationResult(List.of(), List.of(), List.of(), snapshot)))
                .as("inputs unchanged")
                .isEqualTo(before);
        assertThat(r.placed()).as("something placed (seed %d)", seed).isPositive();
        checkInvariants(r.finalState());

        Manifests again = ManifestReader.parse(Reports.state(r).getBytes(StandardCharsets.UTF_8), "state");
        assertThat(again.problems()).isEmpty();
        SimulationResult second = new Simulator(SimulationOptions.defaults()).run(ClusterSnapshot.of(again));
        assertThat(second.placed()).as("nothing new placed").isZero();
        Map<String, String> first = nodes(r);
        Map<String, String> then = nodes(second);
        assertThat(then).as("nothing moved").isEqualTo(first);
        checkInvariants(second.finalState());
    }

    private static Map<String, String> nodes(SimulationResult r) {
        Map<String, String> out = new HashMap<>();
        r.pods().forEach(p -> out.put(p.namespace() + "/" + p.name(), p.node().orElse("")));
        return out;
    }

    static void checkInvariants(ClusterSnapshot s) {
        Map<String, ResourceClaim> claims = new HashMap<>();
        Set<String> exclusive = new HashSet<>();
        Map<String, BigDecimal> consumed = new HashMap<>();
        Map<String, Device> devices = new HashMap<>();
        Map<String, BigDecimal> counterLimits = new HashMap<>();
        for (ResourceSlice slice : s.resourceSlices()) {
            String pool = slice.getSpec().getDriver() + "/"
                    + slice.getSpec().getPool().getName();
            for (Device d : list(slice.getSpec().getDevices())) {
                devices.put(pool + "/" + d.getName(), d);
            }
            for (CounterSet cs : list(slice.getSpec().getSharedCounters())) {
                cs.getCounters()
                        .forEach((name, c) -> counterLimits.put(
                                pool + "/" + cs.getName() + "/" + name, Quantity.getAmountInBytes(c.getValue())));
            }
        }
        for (ResourceClaim c : s.resourceClaims()) {
            claims.put(c.getMetadata().getNamespace() + "/" + c.getMetadata().getName(), c);
            if (c.getStatus() == null || c.getStatus().getAllocation() == null) {
                continue;
            }
            for (DeviceRequestAllocationResult r :
                    c.getStatus().getAllocation().getDevices().getResults()) {
                if (Boolean.TRUE.equals(r.getAdminAccess())) {
                    continue;
                }
                String pool = r.getDriver() + "/" + r.getPool();
                String id = pool + "/" + r.getDevice();
                assertThat(exclusive.add(id))
                        .as("device %s allocated twice", id)
                        .isTrue();
                Device d = devices.get(id);
                assertThat(d).as("allocated device %s exists", id).isNotNull();
                for (DeviceCounterConsumption cc : list(d.getConsumesCounters())) {
                    cc.getCounters()
                            .forEach((name, v) -> consumed.merge(
                                    pool + "/" + cc.getCounterSet() + "/" + name,
                                    Quantity.getAmountInBytes(v.getValue()),
                                    BigDecimal::add));
                }
            }
        }
        consumed.forEach((counter, used) ->
                assertThat(used).as("counter %s", counter).isLessThanOrEqualTo(counterLimits.get(counter)));

        Map<String, Node> nodes = new HashMap<>();
        s.nodes().forEach(n -> nodes.put(n.getMetadata().getName(), n));
        Map<String, BigDecimal[]> used = new HashMap<>();
        for (Pod p : s.pods()) {
            String node = p.getSpec().getNodeName();
            if (node == null) {
                continue;
            }
            BigDecimal[] u = used.computeIfAbsent(
                    node, k -> new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO});
            for (Container c : p.getSpec().getContainers()) {
                Map<String, Quantity> req =
                        c.getResources() == null ? null : c.getResources().getRequests();
                if (req != null && req.get("cpu") != null) {
                    u[0] = u[0].add(Quantity.getAmountInBytes(req.get("cpu")));
                }
                if (req != null && req.get("memory") != null) {
                    u[1] = u[1].add(Quantity.getAmountInBytes(req.get("memory")));
                }
            }
            u[2] = u[2].add(BigDecimal.ONE);
            for (PodResourceClaim pc : list(p.getSpec().getResourceClaims())) {
                String name = pc.getResourceClaimName();
                for (PodResourceClaimStatus st : list(p.getStatus().getResourceClaimStatuses())) {
                    if (st.getName().equals(pc.getName())) {
                        name = st.getResourceClaimName();
                    }
                }
                ResourceClaim c = claims.get(p.getMetadata().getNamespace() + "/" + name);
                assertThat(c)
                        .as("claim %s of bound pod %s", name, p.getMetadata().getName())
                        .isNotNull();
                assertThat(c.getStatus().getAllocation())
                        .as("claim %s allocated", name)
                        .isNotNull();
                assertThat(c.getStatus().getReservedFor())
                        .as("claim %s reserved for %s", name, p.getMetadata().getName())
                        .anySatisfy(ref -> assertThat(ref.getUid())
                                .isEqualTo(p.getMetadata().getUid()));
                var selector = c.getStatus().getAllocation().getNodeSelector();
                if (selector != null) {
                    assertThat(selector.getNodeSelectorTerms()
                                    .get(0)
                                    .getMatchFields()
                                    .get(0)
                                    .getValues())
                            .as("claim %s allocated on the pod's node", name)
                            .contains(node);
                }
            }
        }
        used.forEach((node, u) -> {
            Map<String, Quantity> alloc = nodes.get(node).getStatus().getAllocatable();
            assertThat(u[0]).as("cpu on %s", node).isLessThanOrEqualTo(Quantity.getAmountInBytes(alloc.get("cpu")));
            assertThat(u[1])
                    .as("memory on %s", node)
                    .isLessThanOrEqualTo(Quantity.getAmountInBytes(alloc.get("memory")));
            assertThat(u[2]).as("pods on %s", node).isLessThanOrEqualTo(Quantity.getAmountInBytes(alloc.get("pods")));
        });
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
