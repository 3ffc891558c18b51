package io.dra4j.bench;

import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;

/**
 * The simulator's scale run: {@code SimulateScale NODES PODS [--write FILE]} generates {@link SimulationFleet} and
 * simulates it once, printing the wall time of the simulation (the fleet's generation not included), placed and
 * pending pods, and the heap in use after a GC. Run it with the heap limit the goal names, e.g. {@code java -Xmx4g
 * -cp dra4j-bench/target/dra4j-benchmarks.jar io.dra4j.bench.SimulateScale 5000 50000}. {@code --write FILE} also
 * writes the fleet as a {@code kind: List} JSON file, the input of the oracle's {@code scheduler -time} (the
 * side-by-side run is {@code oracle/scheduler-bench}).
 */
public final class SimulateScale {
    private SimulateScale() {}

    public static void main(String[] args) throws java.io.IOException {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int pods = args.length > 1 ? Integer.parseInt(args[1]) : 50000;
        ClusterSnapshot fleet = SimulationFleet.generate(nodes, pods);
        if (args.length > 3 && args[2].equals("--write")) {
            SimulationFleet.write(fleet, java.nio.file.Path.of(args[3]));
        }
        long start = System.nanoTime();
        SimulationResult r = new Simulator(SimulationOptions.defaults()).run(fleet);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long usedMiB = (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024);
        System.out.printf(
                "%d nodes x 8 devices, %d pods: %.1f s, %d placed, %d pending, %d MiB heap in use after GC"
                        + " (max %d MiB), %.0f pods/s%n",
                nodes, pods, seconds, r.placed(), r.pending(), usedMiB, rt.maxMemory() / (1024 * 1024), pods / seconds);
    }
}
