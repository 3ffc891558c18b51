package io.dra4j.bench;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One pod's full Filter pass over every node of a multi-node workload: build the allocator once (kube-scheduler does
 * so in PreFilter) and allocate on each node in turn. Returns the number of nodes the claims fit on.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FilterPassBenchmark {
    @Param({
            "empty_500nodes",
            "half_500nodes",
            "full_500nodes",
            "selector_empty_500nodes",
            "match_empty_500nodes",
            "listattributes_empty_500nodes",
            "consumablecapacity_half_100nodes",
    })
    public String workload;

    private Allocator.Builder builder;
    private List<Node> nodes;
    private List<ResourceClaim> claims;

    @Setup(Level.Trial)
    public void setUp() {
        Workload w = Workloads.byName(workload);
        AllocatedState state = w.allocatedState();
        builder = w.allocatorBuilder(state);
        nodes = w.nodes();
        claims = w.claims();
    }

    @Benchmark
    public int filterAllNodes() {
        Allocator allocator = builder.build();
        int feasible = 0;
        for (Node node : nodes) {
            if (allocator.allocate(node, claims) instanceof AllocationOutcome.Allocated) {
                feasible++;
            }
        }
        return feasible;
    }
}
