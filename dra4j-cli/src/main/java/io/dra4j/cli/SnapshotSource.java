package io.dra4j.cli;

import io.dra4j.scenario.LiveClusterException;
import io.dra4j.scenario.LiveSnapshot;
import io.dra4j.scenario.ManifestProblem;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.scenario.SkippedObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Where the questions commands ({@code explain pod}, {@code explain claim}) take their cluster from: snapshot files
 * ({@code --snapshot}, as simulate reads them), a live cluster ({@code --from-cluster}, read-only, as simulate
 * lists it), or the bundled example fleet when neither is given.
 */
final class SnapshotSource {
    @Option(
            names = {"--snapshot", "-f", "--filename"},
            paramLabel = "FILE",
            description =
                    "snapshot manifests: files, directories, - for stdin (repeatable; default: the bundled fleet)")
    List<String> snapshot = new ArrayList<>();

    @Option(names = "--from-cluster", description = "take the snapshot from a live cluster (read-only list)")
    boolean fromCluster;

    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "kubeconfig for --from-cluster (default: $KUBECONFIG's first entry, else ~/.kube/config)")
    Path kubeconfig;

    @Option(
            names = "--context",
            paramLabel = "NAME",
            description = "kubeconfig context for --from-cluster (default: current)")
    String context;

    /** The manifests, with their problems and skipped kinds reported on err; null when the cluster could not be read. */
    Manifests read(CommandLine cl, PrintWriter err) throws IOException {
        if (fromCluster && !snapshot.isEmpty()) {
            throw new CommandLine.ParameterException(
                    cl,
                    "--from-cluster takes the snapshot from the cluster; give "
                            + "either it or --snapshot files, not both");
        }
        if (!fromCluster && !KubectlPlugin.active() && (kubeconfig != null || context != null)) {
            throw new CommandLine.ParameterException(cl, "--kubeconfig and --context go with --from-cluster");
        }
        Manifests manifests;
        if (KubectlPlugin.active() && snapshot.isEmpty()) {
            fromCluster = true;
        }
        if (fromCluster) {
            Path config = kubeconfig != null
                    ? kubeconfig
                    : LiveSnapshot.defaultKubeconfig(System.getenv(), Path.of(System.getProperty("user.home")));
            LiveSnapshot live;
            try {
                live = LiveSnapshot.take(config, context);
            } catch (LiveClusterException e) {
                err.println("dra4j: " + e.getMessage());
                return null;
            }
            for (String kind : live.notServed()) {
                err.println("dra4j: the cluster does not serve " + kind + "; going on without them");
            }
            manifests =
                    ManifestReader.parse(live.toYaml().getBytes(StandardCharsets.UTF_8), "cluster " + live.server());
        } else if (!snapshot.isEmpty()) {
            manifests = ManifestReader.read(snapshot, System.in);
        } else {
            try (var in = io.dra4j.sim.ClusterSnapshot.class.getResourceAsStream(SimulateCommand.BUNDLED_FLEET)) {
                if (in == null) {
                    throw new IOException(
                            "the bundled fleet " + SimulateCommand.BUNDLED_FLEET + " is missing from the build");
                }
                manifests = ManifestReader.parse(
                        in.readAllBytes(),
                        "bundled fleet (dra4j-sim/src/main/resources" + SimulateCommand.BUNDLED_FLEET + ")");
            }
        }
        for (ManifestProblem p : manifests.problems()) {
            err.println("dra4j: " + p.describe());
        }
        if (!manifests.skipped().isEmpty()) {
            err.println(
                    "dra4j: skipped " + manifests.skipped().size() + " object(s) of kinds the simulator does not use: "
                            + manifests.skipped().stream()
                                    .map(SkippedObject::kind)
                                    .distinct()
                                    .sorted()
                                    .collect(Collectors.joining(", ")));
        }
        return manifests;
    }
}
