package io.dra4j.scenario;

import io.dra4j.allocator.AllocationOutcome;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;
import java.util.Objects;

/**
 * What a scenario produced, with what is needed to print it: the scenario's name and its claims' names (bare
 * {@code metadata.name}, in claim order; an allocated outcome has one result per claim).
 */
public record ScenarioOutcome(String scenario, List<String> claims, AllocationOutcome outcome) {
    public ScenarioOutcome {
        Objects.requireNonNull(scenario, "scenario");
        claims = List.copyOf(claims);
        Objects.requireNonNull(outcome, "outcome");
        if (outcome instanceof AllocationOutcome.Allocated a && a.results().size() != claims.size()) {
            throw new IllegalArgumentException(
                    a.results().size() + " allocation results for " + claims.size() + " claims");
        }
    }

    /** The outcome of running {@code scenario}. */
    public static ScenarioOutcome of(Scenario scenario, AllocationOutcome outcome) {
        List<String> names = scenario.claims().stream()
                .map(ResourceClaim::getMetadata)
                .map(m -> m == null || m.getName() == null ? "" : m.getName())
                .toList();
        return new ScenarioOutcome(scenario.name(), names, outcome);
    }

    /** A file that could not be read: an error outcome carrying the reader's message. */
    public static ScenarioOutcome unreadable(ScenarioException e) {
        return new ScenarioOutcome(e.scenarioName(), List.of(), new AllocationOutcome.Failed(e.getMessage(), false));
    }
}
