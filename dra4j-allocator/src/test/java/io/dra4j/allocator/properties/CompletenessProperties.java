package io.dra4j.allocator.properties;

import io.dra4j.allocator.AllocationOutcome;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where upstream's search is complete (ExactCount requests, scalar attributes), the allocator finds a solution
 * exactly when an exhaustive search over all device combinations finds one.
 */
class CompletenessProperties {

    @Provide
    Arbitrary<Spec.Scenario> simpleScenarios() {
        return ScenarioArbitraries.scenarios(ScenarioArbitraries.Features.SIMPLE);
    }

    @Provide
    Arbitrary<Spec.Scenario> scenariosWithoutAll() {
        return ScenarioArbitraries.scenarios(ScenarioArbitraries.Features.NO_ALL);
    }

    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    void allocatesExactlyWhenBruteForceFindsASolution(@ForAll("simpleScenarios") Spec.Scenario scenario) {
        check(scenario);
    }

    /** The same with admin access and with firstAvailable requests, whose subrequests the search tries in order. */
    @Property(tries = 600, edgeCases = EdgeCasesMode.NONE)
    void allocatesExactlyWhenBruteForceFindsASolutionWithSubrequestsAndAdminAccess(
            @ForAll("scenariosWithoutAll") Spec.Scenario scenario) {
        check(scenario);
    }

    private static void check(Spec.Scenario scenario) {
        Inputs in = Inputs.of(scenario);
        // The stable variant does not support distinctAttribute at all; that is an input error, not a search.
        Assume.that(!Menus.stable(in.gates()) || scenario.claims().stream()
                .flatMap(c -> c.constraints().stream()).allMatch(Spec.Con::match));

        boolean exists = BruteForce.solvable(in);
        AllocationOutcome outcome = in.allocator().allocate(in.node(), in.claims());
        Statistics.label("solution exists").collect(exists);

        if (exists) {
            assertThat(outcome).as("brute force found a solution").isInstanceOf(AllocationOutcome.Allocated.class);
            assertThat(AllocationChecks.violations(in, ((AllocationOutcome.Allocated) outcome).results())).isEmpty();
        } else {
            assertThat(outcome).as("brute force found no solution").isInstanceOf(AllocationOutcome.Unschedulable.class);
        }
    }
}
