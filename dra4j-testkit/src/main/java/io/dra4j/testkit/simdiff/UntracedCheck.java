package io.dra4j.testkit.simdiff;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.Reports;
import io.dra4j.sim.SchedulingTrace;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import io.dra4j.sim.TraceAttempt;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * dra4j's simulator without a trace against itself with one, on the scheduler differential test's generated
 * snapshots. A traced run filters every node in every cycle (the trace records each node's verdict), while an
 * untraced one takes shortcuts the trace would bypass (a pod shape's repeated failure filters only the nodes changed
 * since: {@code FilterMemo.Failure}); {@code oracle/sim-difftest} only sees traced runs, so this checks that the
 * shortcuts decide the same.
 *
 * <pre>
 * UntracedCheck SEED COUNT [--without FEATURE,...] [--gangs some|heavy] [--replicas none|some]
 * </pre>
 *
 * Per snapshot ({@link FleetGenerator}, as {@link SimDiffTest} generates them; {@code --replicas some} adds copies of
 * pods, whose shapes fail again) both runs must give the same pods
 * (placement, node, reason, DRA reason, notes), events, notes, gangs and final state ({@link Reports#state}), and leave
 * the snapshot as it was. Each difference is printed; the last line is {@code untraced-check: N snapshots, D
 * differences}; exit status 0 only when D is 0 (2 for bad usage).
 */
public final class UntracedCheck {
    private static final String USAGE =
            "usage: UntracedCheck SEED COUNT [--without FEATURE,...] [--gangs some|heavy] [--replicas none|some]";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private UntracedCheck() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        long seed;
        int count;
        Set<FleetGenerator.Feature> without = EnumSet.noneOf(FleetGenerator.Feature.class);
        FleetGenerator.Gangs gangs = FleetGenerator.Gangs.SOME;
        FleetGenerator.Replicas replicas = FleetGenerator.Replicas.NONE;
        try {
            if (args.length < 2) {
                throw new IllegalArgumentException("SEED and COUNT are required");
            }
            seed = Long.parseLong(args[0]);
            count = Integer.parseInt(args[1]);
            if (count < 0) {
                throw new IllegalArgumentException("COUNT must not be negative");
            }
            for (int i = 2; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                switch (args[i]) {
                    case "--without" -> without.addAll(FleetGenerator.features(args[i + 1]));
                    case "--gangs" -> gangs = FleetGenerator.Gangs.parse(args[i + 1]);
                    case "--replicas" -> replicas = FleetGenerator.Replicas.parse(args[i + 1]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        } catch (NumberFormatException e) {
            err.println("untraced-check: SEED and COUNT must be numbers: " + e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (IllegalArgumentException e) {
            err.println("untraced-check: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        int differences = 0;
        long attempts = 0;
        for (int i = 0; i < count; i++) {
            ObjectNode snapshot = FleetGenerator.generate(seed, i, without, gangs, replicas);
            List<TraceAttempt> traced = new ArrayList<>();
            Optional<String> d = compare(snapshot, "gen-" + i, traced::add);
            attempts += traced.size();
            if (d.isPresent()) {
                differences++;
                out.println("difference " + i + ": " + d.get());
            }
        }
        out.println("traced: " + attempts + " attempts");
        out.println("untraced-check: " + count + " snapshots, " + differences + " differences");
        return differences == 0 ? 0 : 1;
    }

    /**
     * The first way the untraced run of the snapshot differs from the traced one (whose attempts go to
     * {@code attempts}), or from the snapshot as it was before.
     */
    static Optional<String> compare(ObjectNode snapshot, String name, SchedulingTrace attempts) {
        String before = snapshot.toString();
        Manifests m = ManifestReader.parse(JSON.writeValueAsString(snapshot).getBytes(StandardCharsets.UTF_8), name);
        SimulationResult untraced = new Simulator(SimulationOptions.defaults()).run(ClusterSnapshot.of(m));
        SimulationResult traced = new Simulator(SimulationOptions.defaults()).run(ClusterSnapshot.of(m), attempts);
        if (!snapshot.toString().equals(before)) {
            return Optional.of("the snapshot changed");
        }
        return first("pod", untraced.pods(), traced.pods())
                .or(() -> first("event", untraced.events(), traced.events()))
                .or(() -> first("note", untraced.notes(), traced.notes()))
                .or(() -> first("gang", untraced.gangs(), traced.gangs()))
                .or(() -> Reports.state(untraced).equals(Reports.state(traced))
                        ? Optional.empty()
                        : Optional.of("final state differs"));
    }

    private static Optional<String> first(String what, List<?> untraced, List<?> traced) {
        for (int i = 0; i < Math.min(untraced.size(), traced.size()); i++) {
            if (!untraced.get(i).equals(traced.get(i))) {
                return Optional.of(
                        what + " " + (i + 1) + ": untraced " + untraced.get(i) + ", traced " + traced.get(i));
            }
        }
        if (untraced.size() != traced.size()) {
            return Optional.of(untraced.size() + " " + what + "s untraced, " + traced.size() + " traced");
        }
        return Optional.empty();
    }
}
