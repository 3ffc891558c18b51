package io.dra4j.scenario;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import java.time.Duration;
import java.util.List;

/** Runs a scenario through the allocator. Never modifies the scenario. */
public final class ScenarioRunner {
    private ScenarioRunner() {}

    /**
     * Allocates the scenario's claims together on its node.
     *
     * @param defaults the release whose default gates apply when the scenario has no {@code features} key
     */
    public static AllocationOutcome run(Scenario scenario, KubernetesVersion defaults) {
        return run(scenario, defaults, null);
    }

    /**
     * Like {@link #run(Scenario, KubernetesVersion)}, with the search bounded as kube-scheduler's filterTimeout bounds
     * it: past the timeout the outcome is an error "node N: timed out trying to allocate devices".
     *
     * @param timeout null or zero for no bound
     */
    public static AllocationOutcome run(Scenario scenario, KubernetesVersion defaults, Duration timeout) {
        Allocator allocator;
        try {
            allocator = allocator(scenario, defaults, timeout);
        } catch (IllegalArgumentException e) {
            return new AllocationOutcome.Failed(e.getMessage(), false);
        }
        return allocator.allocate(scenario.node(), scenario.claims());
    }

    /**
     * Explains the scenario's outcome: why the claims do or do not fit on its node, and what would make them fit.
     * The outcome inside is exactly {@link #run}'s.
     */
    public static Explanation explain(Scenario scenario, KubernetesVersion defaults) {
        return explain(scenario, defaults, null);
    }

    /** Like {@link #explain(Scenario, KubernetesVersion)}, every allocation in it bounded by {@code timeout}. */
    public static Explanation explain(Scenario scenario, KubernetesVersion defaults, Duration timeout) {
        Allocator allocator;
        try {
            allocator = allocator(scenario, defaults, timeout);
        } catch (IllegalArgumentException e) {
            return new Explanation(
                    new AllocationOutcome.Failed(e.getMessage(), false),
                    e.getMessage(),
                    List.of(),
                    List.of(),
                    List.of());
        }
        return allocator.explain(scenario.node(), scenario.claims());
    }

    /**
     * The allocator for the scenario's cluster state.
     *
     * @throws IllegalArgumentException when a slice cannot be compiled; the message names slice, device and field
     */
    public static Allocator allocator(Scenario scenario, KubernetesVersion defaults) {
        return allocator(scenario, defaults, null);
    }

    private static Allocator allocator(Scenario scenario, KubernetesVersion defaults, Duration timeout) {
        FeatureGates gates = featureGates(scenario, defaults);
        return Allocator.builder()
                .timeout(timeout == null || timeout.isZero() ? null : timeout)
                .featureGates(gates)
                .allocatedState(allocatedState(scenario, gates))
                .deviceClasses(scenario.deviceClasses())
                .resourceSlices(scenario.resourceSlices())
                .deviceTaintRules(scenario.deviceTaintRules())
                .build();
    }

    /** Exactly the scenario's gates when it lists them (every other gate off), otherwise the release's defaults. */
    public static FeatureGates featureGates(Scenario scenario, KubernetesVersion defaults) {
        return scenario.features().map(FeatureGates::of).orElseGet(() -> FeatureGates.defaults(defaults));
    }

    /** The devices in use, built the way kube-scheduler builds them from existing allocations. */
    static AllocatedState allocatedState(Scenario scenario, FeatureGates gates) {
        AllocatedState.Builder state = AllocatedState.builder(gates);
        List<AllocatedDevice> devices = scenario.allocatedDevices();
        for (int i = 0; i < devices.size(); i++) {
            AllocatedDevice d = devices.get(i);
            if (d instanceof AllocatedDevice.Exclusive e) {
                state.addExclusive(e.device());
            } else if (d instanceof AllocatedDevice.Shared s) {
                // One share of the device, as a claim result with a shareID (a made-up one unique to the entry when
                // the file gives none): it keeps the device in use even when it consumed nothing.
                state.addShared(
                        s.device(),
                        s.shareId().orElse("allocatedDevices-" + i),
                        s.consumedCapacity().isEmpty() ? null : s.consumedCapacity());
            } else if (d instanceof AllocatedDevice.Claim c) {
                state.addClaim(c.claim());
            }
        }
        return state.build();
    }
}
