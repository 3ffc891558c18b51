package io.dra4j.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pending pod whose shape already failed on every node is rejected again from the nodes changed since; a traced
 * run filters every node in every cycle (the trace records each node's verdict). Both runs must decide the same: the
 * same pods placed on the same nodes, the same FitError messages, DRA reasons and events, the same final state.
 */
class RepeatedFailureTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
    void sameDecisionsAsFilteringEveryNode(long seed) {
        String yaml = new FleetGenerator(seed).generate();
        Manifests m = ManifestReader.parse(yaml.getBytes(StandardCharsets.UTF_8), "fleet-" + seed);
        assertThat(m.problems()).isEmpty();

        SimulationResult untraced = new Simulator(SimulationOptions.defaults()).run(ClusterSnapshot.of(m));
        List<TraceAttempt> attempts = new ArrayList<>();
        SimulationResult traced =
                new Simulator(SimulationOptions.defaults()).run(ClusterSnapshot.of(m), (SchedulingTrace) attempts::add);

        assertThat(attempts).isNotEmpty();
        assertThat(untraced.pods()).as("pods (seed %d)", seed).isEqualTo(traced.pods());
        assertThat(untraced.pods()).anyMatch(p -> p.placement() == PodResult.Placement.PENDING);
        assertThat(untraced.events()).isEqualTo(traced.events());
        assertThat(Reports.state(untraced)).isEqualTo(Reports.state(traced));
    }
}
