package io.dra4j.bench;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.ClusterState;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
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
 * The cluster state as a long-lived value under Kubernetes 1.37's default gates: building it from every slice of a
 * fleet and allocating on one node (what a caller without incremental updates pays after every bind), one bind as an
 * update of the state, a bind followed by an allocation on the same node, and a whole-pod Filter pass over every
 * node of a built state (each node once, as kube-scheduler's Filter does with its snapshot).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ClusterStateBenchmark {
    @Param({"5000x8", "500x10"})
    public String fleet;

    private Workload w;
    private FeatureGates gates;
    private ClusterState state;
    private ResourceClaim claim;
    private List<ResourceClaim> claims;
    private AllocationResult result;
    private int bindCounter;

    @Setup(Level.Trial)
    public void setUp() {
        String[] shape = fleet.split("x");
        w = Workloads.fleet(Integer.parseInt(shape[0]), Integer.parseInt(shape[1]));
        gates = FeatureGates.defaults(KubernetesVersion.V1_37);
        state = ClusterState.builder()
                .featureGates(gates)
                .deviceClasses(w.classes())
                .resourceSlices(w.slices())
                .build();
        claims = w.claims();
        claim = claims.get(0);
        result = ((AllocationOutcome.Allocated) state.allocator().allocate(w.node(), claims))
                .results()
                .get(0);
        for (Node n : w.nodes()) {
            state.allocator().allocate(n, claims);
        }
    }

    @Benchmark
    public AllocationOutcome rebuildAndAllocate() {
        return ClusterState.builder()
                .featureGates(gates)
                .deviceClasses(w.classes())
                .resourceSlices(w.slices())
                .build()
                .allocator()
                .allocate(w.node(), claims);
    }

    @Benchmark
    public ClusterState bind() {
        ResourceClaim named = new ResourceClaimBuilder(claim)
                .editMetadata()
                .withName("c-" + (bindCounter++ & 1023))
                .endMetadata()
                .build();
        return state.withAllocation(named, result);
    }

    @Benchmark
    public AllocationOutcome bindThenAllocateOnThatNode() {
        return state.withAllocation(claim, result).allocator().allocate(w.node(), claims);
    }

    @Benchmark
    public int filterPassOnBuiltState() {
        Allocator allocator = state.allocator();
        int feasible = 0;
        for (Node node : w.nodes()) {
            if (allocator.allocate(node, claims) instanceof AllocationOutcome.Allocated) {
                feasible++;
            }
        }
        return feasible;
    }
}
