package io.dra4j.allocator.properties;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocationOutcome;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Where upstream's search is complete (ExactCount requests, scalar attributes), the allocator finds a solution
 * exactly when an exhaustive search over all device combinations finds one.
 */
class CompletenessProperties {
    private static final Gen<Spec.Scenario> SIMPLE_SCENARIOS = ScenarioGens.scenarios(ScenarioGens.Features.SIMPLE);
    private static final Gen<Spec.Scenario> SCENARIOS_WITHOUT_ALL =
            ScenarioGens.scenarios(ScenarioGens.Features.NO_ALL);

    @Test
    void allocatesExactlyWhenBruteForceFindsASolution() {
        Theory.check(1000, SIMPLE_SCENARIOS, CompletenessProperties::searchable, CompletenessProperties::check);
    }

    /** The same with admin access and with firstAvailable requests, whose subrequests the search tries in order. */
    @Test
    void allocatesExactlyWhenBruteForceFindsASolutionWithSubrequestsAndAdminAccess() {
        Theory.check(600, SCENARIOS_WITHOUT_ALL, CompletenessProperties::searchable, CompletenessProperties::check);
    }

    /** The stable variant does not support distinctAttribute at all; that is an input error, not a search. */
    private static boolean searchable(Spec.Scenario scenario) {
        return !Menus.stable(Menus.gates(scenario.gates()))
                || scenario.claims().stream()
                        .flatMap(c -> c.constraints().stream())
                        .allMatch(Spec.Con::match);
    }

    private static void check(Spec.Scenario scenario, Tallies stats) {
        Inputs in = Inputs.of(scenario);
        boolean exists = BruteForce.solvable(in);
        AllocationOutcome outcome = in.allocator().allocate(in.node(), in.claims());
        stats.collect("solution exists", exists);

        if (exists) {
            assertThat(outcome).as("brute force found a solution").isInstanceOf(AllocationOutcome.Allocated.class);
            assertThat(AllocationChecks.violations(in, ((AllocationOutcome.Allocated) outcome).results()))
                    .isEmpty();
        } else {
            assertThat(outcome).as("brute force found no solution").isInstanceOf(AllocationOutcome.Unschedulable.class);
        }
    }
}
