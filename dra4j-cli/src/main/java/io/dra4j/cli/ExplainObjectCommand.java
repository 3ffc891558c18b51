package io.dra4j.cli;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.whatif.PodExplanation;
import io.dra4j.sim.whatif.WhyPending;
import io.dra4j.sim.whatif.WhyPendingReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code dra4j explain pod} and {@code dra4j explain claim}: why a pod is pending across the whole cluster, or where
 * a claim could be allocated, with every node grouped by reason and the changes checked to make it fit.
 */
abstract class ExplainObjectCommand implements Callable<Integer> {
    enum Format {
        text,
        json
    }

    @Spec
    CommandSpec spec;

    @Parameters(
            index = "0",
            paramLabel = "[NAMESPACE/]NAME",
            description = "the object; NAME alone is in -n's namespace")
    String object;

    @Option(
            names = {"-n", "--namespace"},
            paramLabel = "NAMESPACE",
            defaultValue = "default",
            description = "namespace of NAME when it has none (default: default)")
    String namespace;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text (default) or json (schema: docs/explain-pod-json.md)")
    Format output;

    @Option(
            names = "--kubernetes-version",
            paramLabel = "VERSION",
            defaultValue = "1.37",
            converter = AllocateCommand.VersionConverter.class,
            description = "release whose default feature gates apply: 1.34, 1.35, 1.36 or 1.37 (default)")
    KubernetesVersion kubernetesVersion;

    @Mixin
    SnapshotSource source;

    @Mixin
    GangOptions gangOptions;

    abstract PodExplanation explain(WhyPending why, ClusterSnapshot snapshot, String namespace, String name);

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String ns = namespace;
        String name = object;
        int slash = object.indexOf('/');
        if (slash >= 0) {
            ns = object.substring(0, slash);
            name = object.substring(slash + 1);
        }
        if (ns.isEmpty() || name.isEmpty() || name.contains("/")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "want NAMESPACE/NAME or NAME, got " + object);
        }
        List<SimulationOptions.Gang> marked = gangOptions.gangs(spec.commandLine());
        Manifests manifests = source.read(spec.commandLine(), err);
        if (manifests == null) {
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
        WhyPending why =
                new WhyPending(new SimulationOptions(FeatureGates.defaults(kubernetesVersion), 0).withGangs(marked));
        PodExplanation x;
        try {
            x = explain(why, ClusterSnapshot.of(manifests), ns, name);
        } catch (IllegalArgumentException e) {
            err.println("dra4j: " + e.getMessage());
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
        if (output == Format.json) {
            out.println(WhyPendingReport.json(x));
        } else {
            WhyPendingReport.text(x, out);
        }
        out.flush();
        err.flush();
        return manifests.problems().isEmpty() ? CommandLine.ExitCode.OK : CommandLine.ExitCode.SOFTWARE;
    }

    @Command(
            name = "pod",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            usageHelpWidth = 100,
            description = {
                "Why a pod is pending, across the whole cluster: the snapshot is simulated (kube-scheduler 1.37, "
                        + "as dra4j simulate does), then every node's Filter verdict for the pod is taken over the "
                        + "final state. Nodes are grouped by reason and ranked by how close they came; for nodes "
                        + "DynamicResources rejected, the allocator explains one node of each group of nodes "
                        + "alike (decisive reason, funnel). Then the changes checked to make the pod fit: a "
                        + "change to a claim, a released claim, a toleration, a new node like an existing one.",
                "",
                "Pods of workloads are named as dra4j simulate names them. JSON: docs/explain-pod-json.md."
            },
            exitCodeListHeading = "%nExit status:%n",
            exitCodeList = {
                "0:explained, whatever became of the pod",
                "1:the snapshot could not be read, had invalid objects, or has no such pod",
                "2:bad usage"
            })
    static final class Pod extends ExplainObjectCommand {
        @Override
        PodExplanation explain(WhyPending why, ClusterSnapshot snapshot, String namespace, String name) {
            return why.pod(snapshot, namespace, name);
        }
    }

    @Command(
            name = "claim",
            mixinStandardHelpOptions = true,
            versionProvider = Main.Version.class,
            usageHelpWidth = 100,
            description = {
                "Where a ResourceClaim could be allocated on its own (no pod, so only the devices decide), after "
                        + "the snapshot is simulated: every node grouped by the allocator's reason, closest "
                        + "first, and the changes checked to make it fit. An allocated claim shows its devices.",
                "",
                "JSON: docs/explain-pod-json.md (kind ResourceClaim)."
            },
            exitCodeListHeading = "%nExit status:%n",
            exitCodeList = {
                "0:explained",
                "1:the snapshot could not be read, had invalid objects, or has no such claim",
                "2:bad usage"
            })
    static final class Claim extends ExplainObjectCommand {
        @Override
        PodExplanation explain(WhyPending why, ClusterSnapshot snapshot, String namespace, String name) {
            return why.claim(snapshot, namespace, name);
        }
    }
}
