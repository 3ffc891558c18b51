package io.dra4j.bench;

import io.dra4j.allocator.AllocatedState;
import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
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
 * Time per allocation on one node, measured the way the Go oracle's {@code -bench} measures upstream:
 * {@link #buildAndAllocate} = build an allocator from the cluster state and allocate (what kube-scheduler pays for a
 * pod on one node), {@link #allocate} = allocate alone on an allocator built once (the per-node Filter cost). The
 * devices in use are turned into an {@link AllocatedState} once, outside the timed code, as the oracle does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AllocatorBenchmark {
    /** Must list {@link Workloads#names()} (checked by a test). */
    @Param({
        "empty_500nodes",
        "half_500nodes",
        "full_500nodes",
        "selector_empty_500nodes",
        "match_empty_500nodes",
        "listattributes_empty_500nodes",
        "partitionable_backtracking",
        "consumablecapacity_empty_100nodes",
        "consumablecapacity_half_100nodes",
        "node_1000devices_selector",
        "node_1000devices_count32",
        "nosolution_count_exceeds_devices",
        "nosolution_requests_exceed_devices",
        "nosolution_prioritized_list",
    })
    public String workload;

    private Allocator.Builder builder;
    private Allocator allocator;
    private Node node;
    private List<ResourceClaim> claims;

    @Setup(Level.Trial)
    public void setUp() {
        Workload w = Workloads.byName(workload);
        AllocatedState state = w.allocatedState();
        builder = w.allocatorBuilder(state);
        allocator = builder.build();
        node = w.node();
        claims = w.claims();
    }

    @Benchmark
    public AllocationOutcome buildAndAllocate() {
        return builder.build().allocate(node, claims);
    }

    @Benchmark
    public AllocationOutcome allocate() {
        return allocator.allocate(node, claims);
    }
}
