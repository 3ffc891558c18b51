package io.dra4j.allocator.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

import java.util.List;

/**
 * jqwik generators for small clusters and claims. Sizes stay tiny (at most 3 slices of at most 4 devices, at most
 * 2 claims of at most 3 requests) so that a brute-force search over them finishes quickly. Rare features are
 * weighted down so that most scenarios are plain enough to be allocatable.
 */
final class ScenarioArbitraries {
    private ScenarioArbitraries() {
    }

    /** What claims may use. */
    enum Features {
        /** Everything: All, admin access, firstAvailable. */
        FULL,
        /** Only ExactCount requests without admin access or subrequests: where upstream's search is complete. */
        SIMPLE,
        /** ExactCount requests with admin access and firstAvailable, no All: upstream's search is complete there too. */
        NO_ALL
    }

    static Arbitrary<Spec.Scenario> scenarios(Features features) {
        return Combinators.combine(cluster(), claims(features), used(), rules(), gates(features)).as(Spec.Scenario::new);
    }

    static Arbitrary<List<Spec.Rule>> rules() {
        Arbitrary<Spec.Rule> rule = Combinators.combine(Arbitraries.integers().between(-1, 1),
                Arbitraries.integers().between(-1, 8), Arbitraries.integers().between(0, Menus.TAINTS - 1))
                .as(Spec.Rule::new);
        return Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just(List.of())), Tuple.of(1, rule.list().ofSize(1)));
    }

    static Arbitrary<Integer> gates(Features features) {
        int profiles = features == Features.FULL ? Menus.GATE_PROFILES : 6;
        return Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(0)),
                Tuple.of(4, Arbitraries.integers().between(1, profiles - 1)));
    }

    static Arbitrary<Spec.Cluster> cluster() {
        Arbitrary<List<Spec.Slice>> slices = Arbitraries.frequencyOf(
                Tuple.of(2, slice().list().ofSize(1)),
                Tuple.of(3, slice().list().ofSize(2)),
                Tuple.of(2, slice().list().ofSize(3)));
        Arbitrary<List<Spec.Dev>> templates = Arbitraries.frequencyOf(
                Tuple.of(2, device().list().ofSize(1)),
                Tuple.of(3, device().list().ofSize(2)),
                Tuple.of(2, device().list().ofSize(4)));
        return Combinators.combine(poolSpec().list().ofSize(2), templates, slices).as(Spec.Cluster::new);
    }

    static Arbitrary<Spec.PoolSpec> poolSpec() {
        Arbitrary<Integer> counterSet = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(0)),
                Tuple.of(2, Arbitraries.integers().between(1, Menus.COUNTER_SET_GI.size() - 1)));
        Arbitrary<Boolean> incomplete = Arbitraries.frequencyOf(
                Tuple.of(19, Arbitraries.just(false)), Tuple.of(1, Arbitraries.just(true)));
        return Combinators.combine(counterSet, placement(), incomplete).as(Spec.PoolSpec::new);
    }

    static Arbitrary<Spec.Placement> placement() {
        return Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.just(Spec.Placement.NODE_A)),
                Tuple.of(2, Arbitraries.just(Spec.Placement.ALL_NODES)),
                Tuple.of(1, Arbitraries.just(Spec.Placement.NODE_B)));
    }

    static Arbitrary<Spec.Slice> slice() {
        Arbitrary<Integer> taint = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(-1)),
                Tuple.of(1, Arbitraries.integers().between(0, Menus.TAINTS - 1)));
        Arbitrary<Spec.DevRef> ref = Combinators.combine(Arbitraries.integers().between(0, 3), taint).as(Spec.DevRef::new);
        Arbitrary<List<Spec.DevRef>> devices = Arbitraries.frequencyOf(
                Tuple.of(1, ref.list().ofSize(1)),
                Tuple.of(2, ref.list().ofSize(2)),
                Tuple.of(3, ref.list().ofSize(3)),
                Tuple.of(2, ref.list().ofSize(4)));
        return Combinators.combine(Arbitraries.integers().between(0, 1), placement(), devices).as(Spec.Slice::new);
    }

    static Arbitrary<Spec.Dev> device() {
        Arbitrary<Integer> model = Arbitraries.integers().between(0, Menus.MODELS.size() - 1);
        Arbitrary<Integer> numa = Arbitraries.integers().between(0, 2);
        Arbitrary<Boolean> fast = Arbitraries.of(true, false);
        Arbitrary<Integer> pcie = Arbitraries.integers().between(-1, Menus.PCIE_ROOTS.size() - 1);
        Arbitrary<Integer> memory = Arbitraries.integers().between(0, Menus.MEMORY_GI.size() - 1);
        Arbitrary<Spec.Sharing> sharing = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(new Spec.Sharing(false, 0))),
                Tuple.of(1, Arbitraries.integers().between(0, 2).map(p -> new Spec.Sharing(true, p))));
        Arbitrary<Integer> counter = Arbitraries.integers().between(0, Menus.COUNTER_USE_GI.size() - 1);
        return Combinators.combine(model, numa, fast, pcie, memory, sharing, counter).as(Spec.Dev::new);
    }

    static Arbitrary<List<Spec.Claim>> claims(Features features) {
        return Arbitraries.frequencyOf(
                Tuple.of(3, claim(features).list().ofSize(1)),
                Tuple.of(2, claim(features).list().ofSize(2)));
    }

    static Arbitrary<Spec.Claim> claim(Features features) {
        Arbitrary<Spec.Con> constraint = Combinators.combine(
                Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(true)), Tuple.of(2, Arbitraries.just(false))),
                Arbitraries.integers().between(0, Menus.CONSTRAINT_ATTRIBUTES.size() - 1),
                Arbitraries.integers().between(0, features == Features.SIMPLE ? 2 : 8).list().ofMaxSize(2))
                .as(Spec.Con::new);
        Arbitrary<List<Spec.Con>> constraints = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(List.of())),
                Tuple.of(2, constraint.list().ofMinSize(1).ofMaxSize(2)));
        Arbitrary<List<Spec.Request>> requests = Arbitraries.frequencyOf(
                Tuple.of(5, request(features).list().ofSize(1)),
                Tuple.of(3, request(features).list().ofSize(2)),
                Tuple.of(features == Features.SIMPLE ? 0 : 1, request(features).list().ofSize(3)));
        return Combinators.combine(requests, constraints).as(Spec.Claim::new);
    }

    static Arbitrary<Spec.Request> request(Features features) {
        if (features == Features.SIMPLE) {
            return req(false).map(r -> new Spec.Request(r, 0, List.of()));
        }
        Arbitrary<Integer> admin = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.just(0)), Tuple.of(2, Arbitraries.just(1)), Tuple.of(1, Arbitraries.just(2)));
        boolean all = features == Features.FULL;
        Arbitrary<List<Spec.Req>> firstAvailable = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(List.of())),
                Tuple.of(1, req(all).list().ofSize(2)));
        return Combinators.combine(req(all), admin, firstAvailable).as(Spec.Request::new);
    }

    static Arbitrary<Spec.Req> req(boolean withAll) {
        Arbitrary<Integer> deviceClass = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(0)), Tuple.of(1, Arbitraries.just(1)), Tuple.of(2, Arbitraries.just(2)));
        Arbitrary<Integer> selector = Arbitraries.integers().between(0, Menus.SELECTORS.size() - 1);
        Arbitrary<List<Integer>> selectors = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.just(List.of())),
                Tuple.of(4, selector.list().ofSize(1)),
                Tuple.of(1, selector.list().ofSize(2)));
        Arbitrary<Boolean> all = withAll
                ? Arbitraries.frequencyOf(Tuple.of(12, Arbitraries.just(false)), Tuple.of(1, Arbitraries.just(true)))
                : Arbitraries.just(false);
        Arbitrary<Integer> count = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(1)), Tuple.of(3, Arbitraries.just(2)), Tuple.of(1, Arbitraries.just(3)));
        Arbitrary<List<Integer>> tolerations = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(List.of())),
                Tuple.of(2, Arbitraries.integers().between(0, Menus.TOLERATIONS - 1).list().ofMinSize(1).ofMaxSize(2)));
        Arbitrary<Integer> capacity = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(0)),
                Tuple.of(1, Arbitraries.integers().between(1, Menus.CAPACITY_REQUEST_GI.size() - 1)));
        return Combinators.combine(deviceClass, selectors, all, count, tolerations, capacity).as(Spec.Req::new);
    }

    static Arbitrary<List<Spec.Used>> used() {
        Arbitrary<Spec.Used> one = Combinators.combine(Arbitraries.integers().between(0, 8), Arbitraries.of(false, true),
                Arbitraries.integers().between(0, 1)).as(Spec.Used::new);
        return one.list().ofMaxSize(2);
    }
}
