package io.dra4j.bench;

import io.dra4j.allocator.ClusterState;
import io.dra4j.cel.DeviceSelectorEnvironment;
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
 * One pod's whole Filter pass over every node of a workload, the counterpart of {@code oracle -filter -bench}: the
 * cluster state is built outside the timed code (as the scheduler's snapshot is), then {@link FilterPass} allocates
 * on each node once. {@link #warm} runs every pass on the same state, so what earlier passes compiled and evaluated
 * stays (as for the next pod of a long-lived scheduler); {@link #cold} runs each pass on a state built from fresh
 * copies of every slice, as after every slice changed. Both keep one compiled-expression environment across states,
 * as upstream keeps its CEL cache.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FilterPassBenchmark {
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

    /** A {@link GateSet} id. */
    @Param({"1.37", "workload"})
    public String gates;

    private Workload w;
    private DeviceSelectorEnvironment cel;
    private ClusterState state;
    private List<Node> nodes;
    private List<ResourceClaim> claims;

    @Setup(Level.Trial)
    public void setUp() {
        w = GateSet.byId(gates).apply(Workloads.byName(workload));
        cel = w.celEnvironment();
        state = w.clusterState(cel);
        nodes = w.nodes();
        claims = w.claims();
    }

    @Benchmark
    public int warm() {
        return FilterPass.feasibleNodes(state, nodes, claims);
    }

    @Benchmark
    public int cold(Fresh fresh) {
        return FilterPass.feasibleNodes(fresh.state, nodes, claims);
    }

    /**
     * A state on fresh slice copies for every invocation, built outside the timed code. Copying every slice and
     * building a state leaves megabytes of garbage; it is collected here, before the timed pass, so that the pass pays
     * for collecting its own garbage only (as the warm pass does), not for the setup's.
     */
    @State(Scope.Thread)
    public static class Fresh {
        ClusterState state;

        @Setup(Level.Invocation)
        public void build(FilterPassBenchmark b) {
            state = b.w.withFreshSlices().clusterState(b.cel);
            System.gc();
        }
    }
}
