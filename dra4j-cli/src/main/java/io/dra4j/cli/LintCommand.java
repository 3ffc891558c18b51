package io.dra4j.cli;

import io.dra4j.migrate.Finding;
import io.dra4j.migrate.Lint;
import io.dra4j.scenario.LiveClusterException;
import io.dra4j.scenario.LiveSnapshot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code dra4j lint}: manifests checked against a Kubernetes release and, optionally, a cluster snapshot. */
@Command(
        name = "lint",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = {
            "Checks manifests against a Kubernetes release (1.32 to 1.37): resource.k8s.io versions it does not "
                    + "serve (or only with --runtime-config), fields behind feature gates that are off or alpha "
                    + "there, CEL selectors the API server would reject, objects it would refuse. With "
                    + "--snapshot or --from-cluster also: classes and requests that match no device, claims no "
                    + "node can satisfy, devices offered by a device plugin and a DRA driver on one node, "
                    + "duplicate DeviceClasses, and ResourceQuota that no longer limits DRA claims.",
            "",
            "Findings go to stdout as file:line:col: severity: rule: message (or SARIF 2.1.0 with --format "
                    + "sarif). The rules are described, each with an example, in docs/lint.md."
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:no finding worse than info",
            "1:a file or the cluster could not be read",
            "2:bad usage",
            "3:at least one error",
            "4:warnings, but no error"
        })
final class LintCommand implements Callable<Integer> {
    static final int ERRORS = 3;
    static final int WARNINGS = 4;

    /** Output formats. */
    enum Format {
        text,
        sarif
    }

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--kubernetes-version",
            required = true,
            paramLabel = "VERSION",
            description = "the release to check against: 1.32 to 1.37 (1.35, v1.35 or 1.35.2)")
    private String kubernetesVersion;

    @Option(
            names = "--feature-gates",
            paramLabel = "A=true,B=false",
            description = "feature gates set on the cluster, on top of the release's defaults, in kube-scheduler's "
                    + "syntax (repeatable), read and checked as for allocate")
    private List<String> featureGates = List.of();

    @Option(
            names = "--snapshot",
            paramLabel = "FILE",
            description = "the cluster's objects (kubectl get nodes,resourceslices,deviceclasses,resourcequotas -A "
                    + "-o yaml); repeatable")
    private List<String> snapshots = List.of();

    @Option(
            names = "--from-cluster",
            description = "take the snapshot from the cluster, read-only, through the kubeconfig")
    private boolean fromCluster;

    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "kubeconfig for --from-cluster (default: $KUBECONFIG's first entry, else ~/.kube/config)")
    private Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "kubeconfig context for --from-cluster")
    private String context;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text (default) or sarif")
    private Format format;

    @Option(names = "-f", paramLabel = "FILE", description = "a manifest file (repeatable; - is stdin)")
    private List<String> fileOptions = List.of();

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "manifest files; - reads stdin")
    private List<String> files = List.of();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> all = new ArrayList<>(fileOptions);
        all.addAll(files);
        if (all.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give the manifest files to lint");
        }
        if (!fromCluster && (kubeconfig != null || context != null)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--kubeconfig and --context go with " + "--from-cluster");
        }
        Lint lint;
        try {
            String release = Lint.forRelease(kubernetesVersion, Map.of()).release();
            lint = Lint.forRelease(
                    kubernetesVersion,
                    featureGates.isEmpty()
                            ? Map.of()
                            : FeatureGatesOption.check(spec.commandLine(), featureGates, release));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        boolean unreadable = false;
        List<Lint.Input> manifests = new ArrayList<>();
        for (String f : all) {
            InputFiles.Input in = InputFiles.read(f, err);
            if (in == null) {
                unreadable = true;
            } else {
                manifests.add(new Lint.Input(f, in.text()));
            }
        }
        List<Lint.Input> snapshot = new ArrayList<>();
        for (String f : snapshots) {
            InputFiles.Input in = InputFiles.read(f, err);
            if (in == null) {
                unreadable = true;
            } else {
                snapshot.add(new Lint.Input(f, in.text()));
            }
        }
        if (fromCluster) {
            Path config = kubeconfig != null
                    ? kubeconfig
                    : LiveSnapshot.defaultKubeconfig(System.getenv(), Path.of(System.getProperty("user.home")));
            try {
                LiveSnapshot live = LiveSnapshot.take(config, context);
                snapshot.add(new Lint.Input("cluster " + live.server(), live.toYaml()));
            } catch (LiveClusterException e) {
                err.println("dra4j: " + e.getMessage());
                err.flush();
                return CommandLine.ExitCode.SOFTWARE;
            }
        }
        List<Finding> findings = lint.lint(manifests, snapshot, fromCluster || !snapshots.isEmpty());
        if (format == Format.sarif) {
            out.print(Lint.sarif(findings, version()));
        } else {
            findings.forEach(f -> out.println(f.format()));
        }
        out.flush();
        err.flush();
        if (unreadable) {
            return CommandLine.ExitCode.SOFTWARE;
        }
        if (findings.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR)) {
            return ERRORS;
        }
        return findings.stream().anyMatch(f -> f.severity() == Finding.Severity.WARNING)
                ? WARNINGS
                : CommandLine.ExitCode.OK;
    }

    private static String version() {
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = Main.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (java.io.IOException e) {
            // Without the resource the version is unknown.
        }
        return p.getProperty("version", "unknown");
    }
}
