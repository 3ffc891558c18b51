package io.dra4j.bench;

import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.whatif.GpuFleet;
import io.dra4j.sim.whatif.PodExplanation;
import io.dra4j.sim.whatif.WhyPending;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code explain pod} on a large cluster, as the command runs it after reading the snapshot: the simulation, every
 * node's Filter verdict over its final state, the groups' explanations and the checked fixes
 * ({@link WhyPending#pod}). The fleet ({@code GpuFleet}, dra4j-sim's why-pending test fleet) has {@code nodes} nodes: 96.24% full, 3.6% with 3 of
 * the 4 GPUs free, 0.16% tainted.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ExplainPodBenchmark {
    @Param({"5000"})
    public int nodes;

    private ClusterSnapshot fleet;
    private WhyPending why;

    @Setup(Level.Trial)
    public void setUp() {
        int partial = nodes * 180 / 5000;
        int tainted = Math.max(1, nodes * 8 / 5000);
        fleet = GpuFleet.of(nodes - partial - tainted, partial, tainted);
        why = new WhyPending(SimulationOptions.defaults());
    }

    @Benchmark
    public PodExplanation explainPod() {
        return why.pod(fleet, GpuFleet.NAMESPACE, GpuFleet.POD);
    }
}
