package io.dra4j.allocator.properties;

import java.util.ArrayList;
import java.util.List;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * QuickTheories generators for small clusters and claims. Sizes stay tiny (at most 3 slices of at most 4 devices,
 * at most 2 claims of at most 3 requests) so that a brute-force search over them finishes quickly. Rare features are
 * weighted down so that most scenarios are plain enough to be allocatable. Every value comes from QuickTheories'
 * draws, so a counterexample shrinks draw by draw: numbers towards 0 (or the bound nearest to it), weighted choices
 * towards their first option, lists towards their first size option. A scenario always makes the same draws in the
 * same order (the longest lists, every weighted option), so that shrinking one draw changes one thing.
 */
final class ScenarioGens {
    private ScenarioGens() {}

    /** What claims may use. */
    enum Features {
        /** Everything: All, admin access, firstAvailable. */
        FULL,
        /** Only ExactCount requests without admin access or subrequests: where upstream's search is complete. */
        SIMPLE,
        /** ExactCount requests with admin access and firstAvailable, no All: upstream's search is complete there too. */
        NO_ALL
    }

    static Gen<Spec.Scenario> scenarios(Features features) {
        Gen<Spec.Cluster> cluster = cluster();
        Gen<List<Spec.Claim>> claims = claims(features);
        Gen<List<Spec.Used>> used = used();
        Gen<List<Spec.Rule>> rules = rules();
        Gen<Integer> gates = gates(features);
        return in -> new Spec.Scenario(
                cluster.generate(in), claims.generate(in), used.generate(in), rules.generate(in), gates.generate(in));
    }

    static Gen<List<Spec.Rule>> rules() {
        Gen<Integer> pool = between(-1, 1);
        Gen<Integer> device = between(-1, 8);
        Gen<Integer> taint = between(0, Menus.TAINTS - 1);
        Gen<Spec.Rule> rule = in -> new Spec.Rule(pool.generate(in), device.generate(in), taint.generate(in));
        return listOf(rule, weighted(w(4, just(0)), w(1, just(1))), 1);
    }

    static Gen<Integer> gates(Features features) {
        int profiles = features == Features.FULL ? Menus.GATE_PROFILES : 6;
        return weighted(w(6, just(0)), w(4, between(1, profiles - 1)));
    }

    static Gen<Spec.Cluster> cluster() {
        Gen<List<Spec.PoolSpec>> pools = listOf(poolSpec(), just(2), 2);
        Gen<List<Spec.Dev>> templates = listOf(device(), weighted(w(2, just(1)), w(3, just(2)), w(2, just(4))), 4);
        Gen<List<Spec.Slice>> slices = listOf(slice(), weighted(w(2, just(1)), w(3, just(2)), w(2, just(3))), 3);
        return in -> new Spec.Cluster(pools.generate(in), templates.generate(in), slices.generate(in));
    }

    static Gen<Spec.PoolSpec> poolSpec() {
        Gen<Integer> counterSet = weighted(w(3, just(0)), w(2, between(1, Menus.COUNTER_SET_GI.size() - 1)));
        Gen<Spec.Placement> placement = placement();
        Gen<Boolean> incomplete = weighted(w(19, just(false)), w(1, just(true)));
        return in -> new Spec.PoolSpec(counterSet.generate(in), placement.generate(in), incomplete.generate(in));
    }

    static Gen<Spec.Placement> placement() {
        return weighted(
                w(8, just(Spec.Placement.NODE_A)),
                w(2, just(Spec.Placement.ALL_NODES)),
                w(1, just(Spec.Placement.NODE_B)));
    }

    static Gen<Spec.Slice> slice() {
        Gen<Integer> template = between(0, 3);
        Gen<Integer> taint = weighted(w(6, just(-1)), w(1, between(0, Menus.TAINTS - 1)));
        Gen<Spec.DevRef> ref = in -> new Spec.DevRef(template.generate(in), taint.generate(in));
        Gen<List<Spec.DevRef>> devices =
                listOf(ref, weighted(w(1, just(1)), w(2, just(2)), w(3, just(3)), w(2, just(4))), 4);
        Gen<Integer> pool = between(0, 1);
        Gen<Spec.Placement> placement = placement();
        return in -> new Spec.Slice(pool.generate(in), placement.generate(in), devices.generate(in));
    }

    static Gen<Spec.Dev> device() {
        Gen<Integer> model = between(0, Menus.MODELS.size() - 1);
        Gen<Integer> numa = between(0, 2);
        Gen<Boolean> fast = Generate.pick(List.of(true, false));
        Gen<Integer> pcie = between(-1, Menus.PCIE_ROOTS.size() - 1);
        Gen<Integer> memory = between(0, Menus.MEMORY_GI.size() - 1);
        Gen<Spec.Sharing> sharing = weighted(
                w(4, just(new Spec.Sharing(false, 0))), w(1, between(0, 2).map(p -> new Spec.Sharing(true, p))));
        Gen<Integer> counter = between(0, Menus.COUNTER_USE_GI.size() - 1);
        return in -> new Spec.Dev(
                model.generate(in),
                numa.generate(in),
                fast.generate(in),
                pcie.generate(in),
                memory.generate(in),
                sharing.generate(in),
                counter.generate(in));
    }

    static Gen<List<Spec.Claim>> claims(Features features) {
        return listOf(claim(features), weighted(w(3, just(1)), w(2, just(2))), 2);
    }

    static Gen<Spec.Claim> claim(Features features) {
        Gen<Boolean> match = weighted(w(3, just(true)), w(2, just(false)));
        Gen<Integer> attribute = between(0, Menus.CONSTRAINT_ATTRIBUTES.size() - 1);
        Gen<List<Integer>> references = listOf(between(0, features == Features.SIMPLE ? 2 : 8), between(0, 2), 2);
        Gen<Spec.Con> constraint =
                in -> new Spec.Con(match.generate(in), attribute.generate(in), references.generate(in));
        Gen<List<Spec.Con>> constraints = listOf(constraint, weighted(w(3, just(0)), w(2, between(1, 2))), 2);
        Gen<List<Spec.Request>> requests = listOf(
                request(features),
                weighted(w(5, just(1)), w(3, just(2)), w(features == Features.SIMPLE ? 0 : 1, just(3))),
                3);
        return in -> new Spec.Claim(requests.generate(in), constraints.generate(in));
    }

    static Gen<Spec.Request> request(Features features) {
        if (features == Features.SIMPLE) {
            return req(false).map(r -> new Spec.Request(r, 0, List.of()));
        }
        Gen<Integer> admin = weighted(w(8, just(0)), w(2, just(1)), w(1, just(2)));
        boolean all = features == Features.FULL;
        Gen<Spec.Req> exactly = req(all);
        Gen<List<Spec.Req>> firstAvailable = listOf(req(all), weighted(w(4, just(0)), w(1, just(2))), 2);
        return in -> new Spec.Request(exactly.generate(in), admin.generate(in), firstAvailable.generate(in));
    }

    static Gen<Spec.Req> req(boolean withAll) {
        Gen<Integer> deviceClass = weighted(w(4, just(0)), w(1, just(1)), w(2, just(2)));
        Gen<Integer> selector = between(0, Menus.SELECTORS.size() - 1);
        Gen<List<Integer>> selectors = listOf(selector, weighted(w(5, just(0)), w(4, just(1)), w(1, just(2))), 2);
        Gen<Boolean> all = withAll ? weighted(w(12, just(false)), w(1, just(true))) : just(false);
        Gen<Integer> count = weighted(w(6, just(1)), w(3, just(2)), w(1, just(3)));
        Gen<List<Integer>> tolerations =
                listOf(between(0, Menus.TOLERATIONS - 1), weighted(w(3, just(0)), w(2, between(1, 2))), 2);
        Gen<Integer> capacity = weighted(w(3, just(0)), w(1, between(1, Menus.CAPACITY_REQUEST_GI.size() - 1)));
        return in -> new Spec.Req(
                deviceClass.generate(in),
                selectors.generate(in),
                all.generate(in),
                count.generate(in),
                tolerations.generate(in),
                capacity.generate(in));
    }

    static Gen<List<Spec.Used>> used() {
        Gen<Integer> device = between(0, 8);
        Gen<Boolean> shared = Generate.pick(List.of(false, true));
        Gen<Integer> consumed = between(0, 1);
        Gen<Spec.Used> one = in -> new Spec.Used(device.generate(in), shared.generate(in), consumed.generate(in));
        return listOf(one, between(0, 2), 2);
    }

    /** An integer in [min, max] that shrinks towards 0, or towards the bound nearest to 0. */
    private static Gen<Integer> between(int min, int max) {
        return Generate.range(min, max);
    }

    private static <T> Gen<T> just(T value) {
        return Generate.constant(value);
    }

    private static <T> Pair<Integer, Gen<T>> w(int weight, Gen<T> gen) {
        return Pair.of(weight, gen);
    }

    /**
     * One of the generators, chosen in proportion to its weight; shrinks towards the first positive weight. Every
     * generator draws, whichever is chosen, so that a shrunk choice leaves the meaning of all later draws unchanged.
     */
    @SafeVarargs
    private static <T> Gen<T> weighted(Pair<Integer, Gen<T>>... choices) {
        int total = 0;
        for (Pair<Integer, Gen<T>> c : choices) {
            total += Math.max(0, c._1);
        }
        Gen<Integer> pick = Generate.range(0, total - 1);
        return in -> {
            int p = pick.generate(in);
            List<T> values = new ArrayList<>(choices.length);
            int chosen = -1;
            for (Pair<Integer, Gen<T>> c : choices) {
                values.add(c._2.generate(in));
                if (chosen < 0 && p < c._1) {
                    chosen = values.size() - 1;
                }
                p -= Math.max(0, c._1);
            }
            return values.get(chosen);
        };
    }

    /**
     * An immutable list of {@code size} elements, at most {@code max}, shrinking with its size. It always draws
     * {@code max} elements and keeps the first ones, so that a shrunk size leaves the meaning of all later draws
     * unchanged.
     */
    private static <T> Gen<List<T>> listOf(Gen<T> element, Gen<Integer> size, int max) {
        return in -> {
            int n = size.generate(in);
            List<T> out = new ArrayList<>(max);
            for (int i = 0; i < max; i++) {
                out.add(element.generate(in));
            }
            return List.copyOf(out.subList(0, n));
        };
    }
}
