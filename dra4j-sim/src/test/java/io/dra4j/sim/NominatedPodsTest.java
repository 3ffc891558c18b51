package io.dra4j.sim;

import static io.dra4j.sim.Snapshots.pod;
import static io.dra4j.sim.Snapshots.simulate;
import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Nominated pods reserve their node, as kube-scheduler 1.37's RunFilterPluginsWithNominatedPods and its scheduling
 * queue's nominator make them: a pod is filtered on a node with the pods nominated there of equal or higher priority
 * treated as running, and nominations are cleared as upstream clears them.
 */
class NominatedPodsTest {
    private static final String NODE = """
            apiVersion: v1
            kind: Node
            metadata:
              name: %1$s
              labels: {kubernetes.io/hostname: %1$s}
            status:
              allocatable: {cpu: "4", memory: 64Gi, pods: "110"}
            """;
    private static final String BUSY = """
            apiVersion: v1
            kind: Pod
            metadata: {name: busy, namespace: ns, uid: uid-busy}
            spec:
              nodeName: n1
              priority: 0
              containers:
              - name: main
                resources:
                  requests: {cpu: "2"}
            status: {phase: Running, startTime: "2026-01-01T00:00:00Z"}
            """;
    /**
     * Nominated to n1 by an earlier cycle; needs 3 cpu where 2 are free and never preempts, so it stays pending and
     * its nomination stays (DefaultPreemption finds it not eligible and leaves the nomination).
     */
    private static final String NOMINATED = """
            apiVersion: v1
            kind: Pod
            metadata: {name: nominated, namespace: ns, uid: uid-nominated, creationTimestamp: "2026-01-01T00:00:00Z"}
            spec:
              priority: 100
              preemptionPolicy: Never
              nodeSelector: {kubernetes.io/hostname: n1}
              containers:
              - name: main
                resources:
                  requests: {cpu: "3"}
            status: {phase: Pending, nominatedNodeName: %s}
            """;
    /** 2 cpu, only on n1: fits the room left there unless the nominated pod holds it. */
    private static final String LATER = """
            apiVersion: v1
            kind: Pod
            metadata: {name: later, namespace: ns, uid: uid-later, creationTimestamp: "2026-01-01T00:01:00Z"}
            spec:
              priority: %d
              nodeSelector: {kubernetes.io/hostname: n1}
              containers:
              - name: main
                resources:
                  requests: {cpu: "2"}
            """;

    private static SimulationResult run(String nomination, int laterPriority) {
        return simulate(
                NODE.formatted("n1"),
                NODE.formatted("n2"),
                BUSY,
                NOMINATED.formatted(nomination),
                LATER.formatted(laterPriority));
    }

    @Test
    void aLowerPriorityPodDoesNotTakeTheRoomOfAPodNominatedThere() {
        SimulationResult r = run("n1", 50);

        assertThat(pod(r, "nominated").node()).isEmpty();
        assertThat(r.finalState().pods())
                .filteredOn(p -> p.getMetadata().getName().equals("nominated"))
                .singleElement()
                .satisfies(p -> assertThat(p.getStatus().getNominatedNodeName()).isEqualTo("n1"));
        // With the nominated pod's 3 cpu counted on n1, 2 + 3 + 2 exceed its 4; preemption of busy does not help.
        assertThat(pod(r, "later").node()).isEmpty();
        assertThat(pod(r, "later").reason())
                .startsWith("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node"
                        + " affinity/selector.");
    }

    @Test
    void anEqualPriorityPodYieldsToTheNominationToo() {
        SimulationResult r = run("n1", 100);

        assertThat(pod(r, "later").node()).isEmpty();
        assertThat(pod(r, "later").reason()).contains("1 Insufficient cpu");
    }

    @Test
    void aHigherPriorityPodIgnoresTheNomination() {
        SimulationResult r = run("n1", 101);

        assertThat(pod(r, "later").node()).contains("n1");
    }

    @Test
    void withoutTheNominationTheSamePodFits() {
        SimulationResult r = run("n2", 50);

        assertThat(pod(r, "later").node()).contains("n1");
    }

    @Test
    void aGeneratedFleetWhosePreemptorFailsInPreBindEndsWithAllPodsAccountedFor() throws Exception {
        Path file = Path.of("src/test/resources/snapshots/fleet-7-10-preemption-controllers.yaml");
        byte[] input = Files.readAllBytes(file);
        ClusterSnapshot snapshot = ClusterSnapshot.of(ManifestReader.parse(input, file.toString()));
        List<TraceAttempt> attempts = new ArrayList<>();

        SimulationResult r = new Simulator(SimulationOptions.defaults()).run(snapshot, (SchedulingTrace) attempts::add);

        // pod-4 preempts on node-2 and fails in PreBind each time, which clears its nomination; the replacement of
        // each victim takes node-2 again. The simulation stops trying pod-4 after its tenth preemption.
        List<TraceAttempt> preemptions = attempts.stream()
                .filter(a -> a.name().equals("pod-4") && !a.victims().isEmpty())
                .toList();
        assertThat(preemptions)
                .hasSize(10)
                .allSatisfy(a -> assertThat(a.nominate()).contains("node-2"));
        assertThat(pod(r, "pod-4").node()).isEmpty();
        assertThat(pod(r, "pod-4").reason()).startsWith("running PreBind plugin \"DynamicResources\"");
        assertThat(r.notes())
                .contains("pod ns/pod-4 preempted 10 times without being bound (the victims' replacements took the"
                        + " room again each time); not tried again");
        assertThat(r.pods())
                .filteredOn(p -> p.placement() == PodResult.Placement.PREEMPTED)
                .hasSize(10);
        assertThat(Files.readAllBytes(file)).isEqualTo(input);
    }
}
