package io.dra4j.bench;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.Explanation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;
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
 * Explanations cost nothing unless asked: {@link #allocate} is the plain decision, {@link #explain} the same decision
 * plus the funnels and the verified suggestions. Explaining runs beside the search, never inside it, so
 * {@code allocate} here matches {@link AllocatorBenchmark#allocate} and only {@code explain} pays.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ExplainBenchmark {
    @Param({"empty_500nodes", "full_500nodes", "partitionable_backtracking"})
    public String workload;

    private Allocator allocator;
    private Node node;
    private List<ResourceClaim> claims;

    @Setup(Level.Trial)
    public void setUp() {
        Workload w = Workloads.byName(workload);
        allocator = w.allocatorBuilder(w.allocatedState()).build();
        node = w.node();
        claims = w.claims();
    }

    @Benchmark
    public AllocationOutcome allocate() {
        return allocator.allocate(node, claims);
    }

    @Benchmark
    public Explanation explain() {
        return allocator.explain(node, claims);
    }
}
