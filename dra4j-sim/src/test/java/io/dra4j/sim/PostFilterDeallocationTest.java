package io.dra4j.sim;

import static io.dra4j.sim.Snapshots.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DynamicResources' PostFilter deallocation and the retries it causes. */
class PostFilterDeallocationTest {
    @Test
    void aClaimReallocatedByAPodThatFailsInPreBindEndsAfterTenDeallocations() throws Exception {
        Path file = Path.of("src/test/resources/snapshots/fleet-4-94-dealloc-livelock.yaml");
        byte[] input = Files.readAllBytes(file);
        ClusterSnapshot snapshot = ClusterSnapshot.of(ManifestReader.parse(input, file.toString()));
        List<TraceAttempt> attempts = new ArrayList<>();

        SimulationResult r = new Simulator(SimulationOptions.defaults()).run(snapshot, (SchedulingTrace) attempts::add);

        // pod-7 allocates shared-0 on node-4 and fails in PreBind, which leaves the claim allocated there; pod-6,
        // which uses shared-0, fits no node and its PostFilter deallocates the claim; the claim event queues both
        // again. The simulation stops trying pod-6 after the tenth deallocation; pod-7, tried once more after it, then
        // has nothing new to see.
        assertThat(attempts.stream().filter(a -> a.name().equals("pod-6"))).hasSize(10);
        assertThat(attempts.stream().filter(a -> a.name().equals("pod-7"))).hasSize(11);
        assertThat(pod(r, "pod-6").node()).isEmpty();
        assertThat(pod(r, "pod-7").reason()).startsWith("running PreBind plugin \"DynamicResources\"");
        assertThat(r.notes())
                .contains("pod ns/pod-6 had a claim deallocated by DynamicResources' PostFilter 10 times without"
                        + " being bound (another pod allocated it again each time and failed); not tried again");
        assertThat(Files.readAllBytes(file)).isEqualTo(input);
    }
}
