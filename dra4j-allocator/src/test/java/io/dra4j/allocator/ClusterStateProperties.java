package io.dra4j.allocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * An incrementally updated {@link ClusterState} answers every allocation exactly as a state built from scratch from
 * the same objects: random sequences of slice, class and taint-rule updates and of claim allocations and
 * deallocations, checked after every step on every node for several claim sets (outcome, devices, share IDs from the
 * same sequence, and search steps). Older versions keep their answers after newer ones were derived from them.
 */
class ClusterStateProperties {

    /** One update: what it does and two numbers that pick the object and its variant. */
    record Op(int kind, int a, int b) {
        @Override
        public String toString() {
            return switch (kind) {
                case 0 ->
                    "put slice " + ClusterWorld.sliceName(a % ClusterWorld.SLICE_NAMES) + " v"
                            + b % ClusterWorld.SLICE_VARIANTS;
                case 1 -> "remove slice " + ClusterWorld.sliceName(a % ClusterWorld.SLICE_NAMES);
                case 2 -> "put class " + ClusterWorld.className(a % 2) + " v" + b % 2;
                case 3 -> "remove class " + ClusterWorld.className(a % 2);
                case 4 -> "put rule-" + a % 2 + " v" + b % 3;
                case 5 -> "remove rule-" + a % 2;
                case 6, 8, 9 ->
                    "allocate " + ClusterWorld.claimName(a % ClusterWorld.CLAIMS) + " on node-"
                            + b % ClusterWorld.NODES;
                default -> "deallocate " + ClusterWorld.claimName(a % ClusterWorld.CLAIMS);
            };
        }
    }

    private static final List<List<Integer>> PROBES =
            List.of(List.of(0), List.of(1), List.of(2), List.of(3), List.of(4), List.of(0, 3));

    @Test
    void incrementalStateAnswersAsAStateBuiltFromScratch() {
        Gen<Op> op = integers()
                .between(0, 9)
                .zip(integers().between(0, 11), integers().between(0, 11), Op::new);
        qt().withExamples(100)
                .withShrinkCycles(200)
                .forAll(integers().between(0, 2), lists().of(op).ofSizeBetween(1, 12))
                .checkAssert(ClusterStateProperties::replay);
    }

    /** The objects the incremental state should hold, kept in the order a from-scratch build gets them. */
    private static final class Model {
        final FeatureGates gates;
        final Map<String, ResourceSlice> slices = new LinkedHashMap<>();
        final Map<String, DeviceClass> classes = new LinkedHashMap<>();
        final Map<String, DeviceTaintRule> rules = new LinkedHashMap<>();
        final Map<String, ResourceClaim> allocated = new LinkedHashMap<>();

        Model(FeatureGates gates) {
            this.gates = gates;
            ClusterWorld.initialSlices().forEach(s -> slices.put(s.getMetadata().getName(), s));
            ClusterWorld.initialClasses()
                    .forEach(c -> classes.put(c.getMetadata().getName(), c));
        }

        ClusterState fromScratch() {
            return ClusterState.builder()
                    .featureGates(gates)
                    .deviceClasses(new ArrayList<>(classes.values()))
                    .resourceSlices(new ArrayList<>(slices.values()))
                    .deviceTaintRules(new ArrayList<>(rules.values()))
                    .allocatedClaims(new ArrayList<>(allocated.values()))
                    .build();
        }
    }

    private static void replay(int gatesVariant, List<Op> ops) {
        Model model = new Model(ClusterWorld.gates(gatesVariant));
        ClusterState state = model.fromScratch();
        List<Node> nodes = ClusterWorld.nodes();
        for (Op op : ops) {
            ClusterState previous = state;
            Map<String, Allocator.Attempt> before = answers(previous, nodes);
            state = apply(op, state, model, nodes);
            assertThat(answers(state, nodes)).as("after %s", op).isEqualTo(answers(model.fromScratch(), nodes));
            assertThat(answers(previous, nodes)).as("the version before %s", op).isEqualTo(before);
            for (ResourceSlice slice : model.slices.values()) {
                assertThat(state.allocatedClaimsHoldingPoolsOf(List.of(slice)))
                        .as(
                                "claims holding the pool of %s after %s",
                                slice.getMetadata().getName(), op)
                        .isEqualTo(holdingByScan(state, List.of(slice)));
            }
            List<ResourceSlice> all = new ArrayList<>(model.slices.values());
            assertThat(state.allocatedClaimsHoldingPoolsOf(all))
                    .as("claims holding any pool after %s", op)
                    .isEqualTo(holdingByScan(state, all));
        }
    }

    /** The allocated claims with a result in a pool of the slices, by a pass over every allocated claim. */
    private static List<ResourceClaim> holdingByScan(ClusterState state, List<ResourceSlice> slices) {
        java.util.Set<String> pools = new java.util.HashSet<>();
        slices.forEach(s ->
                pools.add(s.getSpec().getDriver() + "/" + s.getSpec().getPool().getName()));
        List<ResourceClaim> out = new ArrayList<>();
        for (ResourceClaim c : state.allocatedClaims()) {
            boolean holds = false;
            for (var r : c.getStatus().getAllocation().getDevices().getResults()) {
                holds |= pools.contains(r.getDriver() + "/" + r.getPool());
            }
            if (holds) {
                out.add(c);
            }
        }
        return out;
    }

    private static ClusterState apply(Op op, ClusterState state, Model model, List<Node> nodes) {
        switch (op.kind()) {
            case 0 -> {
                ResourceSlice s =
                        ClusterWorld.slice(op.a() % ClusterWorld.SLICE_NAMES, op.b() % ClusterWorld.SLICE_VARIANTS);
                model.slices.put(s.getMetadata().getName(), s);
                return state.withResourceSlice(s);
            }
            case 1 -> {
                String name = ClusterWorld.sliceName(op.a() % ClusterWorld.SLICE_NAMES);
                model.slices.remove(name);
                return state.withoutResourceSlice(name);
            }
            case 2 -> {
                DeviceClass c = ClusterWorld.deviceClass(op.a() % 2, op.b() % 2);
                model.classes.put(c.getMetadata().getName(), c);
                return state.withDeviceClass(c);
            }
            case 3 -> {
                String name = ClusterWorld.className(op.a() % 2);
                model.classes.remove(name);
                return state.withoutDeviceClass(name);
            }
            case 4 -> {
                DeviceTaintRule r = ClusterWorld.taintRule(op.a() % 2, op.b() % 3);
                model.rules.put(r.getMetadata().getName(), r);
                return state.withDeviceTaintRule(r);
            }
            case 5 -> {
                String name = "rule-" + op.a() % 2;
                model.rules.remove(name);
                return state.withoutDeviceTaintRule(name);
            }
            case 7 -> {
                String name = ClusterWorld.claimName(op.a() % ClusterWorld.CLAIMS);
                model.allocated.remove("ns/" + name);
                return state.withoutAllocatedClaim("ns", name);
            }
            default -> {
                ResourceClaim claim = ClusterWorld.claim(op.a() % ClusterWorld.CLAIMS);
                String key = "ns/" + claim.getMetadata().getName();
                if (model.allocated.containsKey(key)) {
                    return state;
                }
                AllocationOutcome out =
                        allocator(state).allocate(nodes.get(op.b() % ClusterWorld.NODES), List.of(claim));
                if (!(out instanceof AllocationOutcome.Allocated a)) {
                    return state;
                }
                model.allocated.put(
                        key,
                        new ResourceClaimBuilder(claim)
                                .editOrNewStatus()
                                .withAllocation(a.results().get(0))
                                .endStatus()
                                .build());
                return state.withAllocation(claim, a.results().get(0));
            }
        }
    }

    private static Map<String, Allocator.Attempt> answers(ClusterState state, List<Node> nodes) {
        Map<String, Allocator.Attempt> out = new LinkedHashMap<>();
        for (Node node : nodes) {
            for (List<Integer> probe : PROBES) {
                List<ResourceClaim> claims =
                        probe.stream().map(ClusterWorld::claim).toList();
                out.put(
                        node.getMetadata().getName() + " " + probe,
                        allocator(state).allocateWithStats(node, claims));
            }
        }
        return out;
    }

    private static Allocator allocator(ClusterState state) {
        AtomicInteger shares = new AtomicInteger();
        return Allocator.builder()
                .clusterState(state)
                .shareIds(() -> "share-" + shares.incrementAndGet())
                .build();
    }
}
