package io.dra4j.cli;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.LiveClusterException;
import io.dra4j.scenario.LiveSnapshot;
import io.dra4j.scenario.ManifestProblem;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.dra4j.scenario.SkippedObject;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.Reports;
import io.dra4j.sim.SimulationOptions;
import io.dra4j.sim.SimulationResult;
import io.dra4j.sim.Simulator;
import io.dra4j.sim.compare.DevicePluginComparison;
import io.dra4j.sim.compare.DevicePluginMapping;
import io.dra4j.sim.report.FleetView;
import io.dra4j.sim.report.HtmlReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code dra4j simulate}: kube-scheduler 1.37 with DRA over a cluster snapshot. */
@Command(
        name = "simulate",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = {
            "Schedules the pending pods of a cluster snapshot as kube-scheduler 1.37's default profile does, "
                    + "with DRA: where each pod lands, which stay pending and why, and which devices are used.",
            "",
            "Input is plain Kubernetes YAML or JSON: files, directories, - for standard input, multi-document "
                    + "files and kind: List (the output of kubectl get nodes,pods,resourceslices,deviceclasses,"
                    + "resourceclaims,resourceclaimtemplates,devicetaintrules,priorityclasses -A -o yaml). "
                    + "Deployments, ReplicaSets, StatefulSets, Jobs and DaemonSets are expanded into pods as their "
                    + "controllers create them; bound pods and allocated claims are the starting state.",
            "",
            "Without arguments it simulates the bundled example fleet (H100, A100 with MIG-style partitions, "
                    + "L4; training, inference with fallbacks, MIG jobs, monitoring, a device-plugin-style request)."
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:the simulation ran, whatever became of the pods",
            "1:an input could not be read or had invalid objects (the others were still simulated), or the "
                    + "--report file could not be written",
            "2:bad usage"
        })
final class SimulateCommand implements Callable<Integer> {
    /** The bundled example, a resource of dra4j-sim. */
    static final String BUNDLED_FLEET = "/io/dra4j/sim/fleet.yaml";

    enum Format {
        text,
        json
    }

    @Spec
    private CommandSpec spec;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text (default, for people) or json (schema: docs/simulate-json.md)")
    private Format output;

    @Option(
            names = "--output-state",
            paramLabel = "FILE",
            description = "write the final cluster (pods with nodeName, claims with allocation and reservedFor) as "
                    + "YAML that can be simulated again")
    private Path outputState;

    @Option(names = "--events", description = "print the scheduling events (Scheduled, FailedScheduling)")
    private boolean events;

    @Option(
            names = "--kubernetes-version",
            paramLabel = "VERSION",
            defaultValue = "1.37",
            converter = AllocateCommand.VersionConverter.class,
            description = "release whose default feature gates apply: 1.34, 1.35, 1.36 or 1.37 (default)")
    private KubernetesVersion kubernetesVersion;

    @Option(
            names = "--percentage-of-nodes-to-score",
            paramLabel = "PERCENT",
            defaultValue = "0",
            description = "kube-scheduler's percentageOfNodesToScore; 0 (default) is its adaptive default")
    private int percentage;

    @Option(
            names = "--binding-conditions",
            paramLabel = "met|fail",
            defaultValue = "met",
            description = "what the drivers do with devices' binding conditions while a pod waits in PreBind: met "
                    + "(default) after --binding-conditions-delay, or fail (the allocation is undone, the pod retried)")
    private String bindingConditions;

    @Option(
            names = "--binding-conditions-delay",
            paramLabel = "SECONDS",
            defaultValue = "0",
            description = "seconds until binding conditions are met (past 600, kube-scheduler's bindingTimeout, "
                    + "the binding times out)")
    private long bindingDelay;

    @Option(
            names = "--filter-timeout",
            paramLabel = "DURATION",
            defaultValue = "10s",
            converter = Inputs.DurationConverter.class,
            description = "DynamicResources' filterTimeout: the bound on one node's device allocation in Filter "
                    + "(default 10s, kube-scheduler's); past it the pod's attempt fails with \"node N: timed out "
                    + "trying to allocate devices\"; 0 for no bound")
    private java.time.Duration filterTimeout;

    @Option(
            names = "--from-cluster",
            description =
                    "take the snapshot from a live cluster (read-only list of nodes, pods, resource.k8s.io objects "
                            + "and priority classes through the kubeconfig) instead of files")
    private boolean fromCluster;

    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "kubeconfig for --from-cluster (default: $KUBECONFIG's first entry, else ~/.kube/config)")
    private Path kubeconfig;

    @Option(
            names = "--context",
            paramLabel = "NAME",
            description = "kubeconfig context for --from-cluster (default: current)")
    private String context;

    @Option(
            names = "--save-snapshot",
            paramLabel = "FILE",
            description = "with --from-cluster: also write the snapshot as a kind: List YAML file for offline runs")
    private Path saveSnapshot;

    @Option(
            names = "--validate",
            paramLabel = "BOOLEAN",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description =
                    "apply the defaults and validation of kube-apiserver 1.37 to the resource.k8s.io objects "
                            + "of the input files (default true): an object the API server would reject is reported and left out")
    private boolean validate;

    @CommandLine.Mixin
    private WhatIfOptions whatIf;

    @Option(
            names = "--compare",
            paramLabel = "device-plugins",
            description = "also simulate the workloads in their device-plugin form (extended resources, a fixed MIG "
                    + "layout, cordoned nodes, product labels) and print both sides (docs/compare.md)")
    private String compare;

    @Option(
            names = "--mapping",
            paramLabel = "FILE",
            description = "with --compare: overrides of the device-plugin form of claim requests and MIG layouts")
    private Path mapping;

    @Option(
            names = "--interconnect-attribute",
            paramLabel = "ATTRIBUTE",
            defaultValue = DevicePluginComparison.DEFAULT_DOMAIN,
            description = "with --compare: the device attribute naming a GPU's interconnect domain (default "
                    + DevicePluginComparison.DEFAULT_DOMAIN + ")")
    private String interconnect;

    @CommandLine.Mixin
    private GangOptions gangOptions;

    @Option(
            names = "--report",
            paramLabel = "FILE.html",
            description = "also write a self-contained HTML page of the run (docs/report.md): the fleet as nodes x "
                    + "devices grouped by node pool, pending pods with their reasons, utilisation charts, and the "
                    + "comparison or what-if answer when asked")
    private Path report;

    @Option(
            names = "--pool-label",
            paramLabel = "LABEL",
            defaultValue = "node.kubernetes.io/instance-type",
            description = "with --report: the node label naming a node's node pool (default: "
                    + "node.kubernetes.io/instance-type)")
    private String poolLabel;

    @Parameters(arity = "0..*", paramLabel = "INPUT", description = "manifest files, directories, or - for stdin")
    private List<String> inputs;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (percentage < 0 || percentage > 100) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--percentage-of-nodes-to-score must be between 0 and 100, got " + percentage);
        }
        if (!bindingConditions.equals("met") && !bindingConditions.equals("fail") || bindingDelay < 0) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--binding-conditions must be met or fail and " + "--binding-conditions-delay at least 0, got "
                            + bindingConditions + " and " + bindingDelay);
        }
        List<SimulationOptions.Gang> marked = gangOptions.gangs(spec.commandLine());
        List<String> files = inputs == null ? List.of() : inputs;
        fromCluster |= KubectlPlugin.active() && files.isEmpty();
        if (compare != null && !compare.equals("device-plugins")) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--compare takes device-plugins, got " + compare);
        }
        if (compare != null && whatIf.asked()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--compare runs the snapshot as it is; it does not combine with --add-nodes, --find-min or --drain");
        }
        if (compare == null && mapping != null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--mapping goes with --compare device-plugins");
        }
        DevicePluginMapping overrides = DevicePluginMapping.NONE;
        if (mapping != null) {
            try {
                overrides = DevicePluginMapping.parse(Files.readString(mapping), mapping.toString());
            } catch (IllegalArgumentException | IOException e) {
                err.println("dra4j: "
                        + (e instanceof IOException ? mapping + ": cannot read: " + e.getMessage() : e.getMessage()));
                err.flush();
                return CommandLine.ExitCode.SOFTWARE;
            }
        }
        if (fromCluster && !files.isEmpty()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--from-cluster takes the snapshot from the cluster; give either it or input files, not both");
        }
        if (!fromCluster && (saveSnapshot != null || kubeconfig != null || context != null)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--save-snapshot, --kubeconfig and --context go with --from-cluster");
        }
        if (report != null) {
            String unwritable = ReportFile.problem(report);
            if (unwritable != null) {
                err.println("dra4j: --report " + report + ": " + unwritable);
                err.flush();
                return CommandLine.ExitCode.SOFTWARE;
            }
        }
        String source = files.isEmpty() ? "bundled fleet" : String.join(" ", files);
        Manifests manifests;
        if (fromCluster) {
            Path config = kubeconfig != null
                    ? kubeconfig
                    : LiveSnapshot.defaultKubeconfig(System.getenv(), Path.of(System.getProperty("user.home")));
            LiveSnapshot live;
            try {
                live = LiveSnapshot.take(config, context);
            } catch (LiveClusterException e) {
                err.println("dra4j: " + e.getMessage());
                err.flush();
                return CommandLine.ExitCode.SOFTWARE;
            }
            for (String kind : live.notServed()) {
                err.println("dra4j: the cluster does not serve " + kind + "; simulating without them");
            }
            if (saveSnapshot != null) {
                live.write(saveSnapshot);
            }
            source = "cluster " + live.server();
            manifests = ManifestReader.parse(live.toYaml().getBytes(StandardCharsets.UTF_8), source);
        } else {
            manifests = read(files, validate, FeatureGates.defaults(kubernetesVersion));
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
        SimulationOptions options = new SimulationOptions(
                FeatureGates.defaults(kubernetesVersion),
                percentage,
                new SimulationOptions.BindingConditions(
                        bindingConditions.equals("fail"), java.time.Duration.ofSeconds(bindingDelay)),
                marked,
                filterTimeout);
        ClusterSnapshot snapshot = ClusterSnapshot.of(manifests);
        WhatIfOptions.Answer answer = whatIf.answer(spec.commandLine(), snapshot, options);
        SimulationResult result;
        DevicePluginComparison.Result comparison = null;
        if (answer != null) {
            result = answer.result();
        } else if (compare != null) {
            comparison = DevicePluginComparison.run(snapshot, options, overrides, interconnect);
            result = comparison.dra();
        } else {
            try (ProgressBar bar = ProgressBar.onTerminal(err)) {
                result = new Simulator(options).run(snapshot, bar);
            }
        }
        String json = output == Format.json || report != null ? json(result, comparison, answer) : null;
        if (output == Format.json) {
            out.println(json);
        } else {
            Reports.text(result, out);
            if (answer != null) {
                WhatIfOptions.print(answer, out);
            }
            if (events) {
                out.println();
                out.println("Events:");
                Reports.events(result, out);
            }
            if (comparison != null) {
                out.println();
                DevicePluginComparison.text(comparison, out);
            }
        }
        out.flush();
        if (outputState != null) {
            Files.writeString(outputState, Reports.state(result), StandardCharsets.UTF_8);
            if (comparison != null) {
                Files.writeString(
                        devicePluginState(outputState),
                        Reports.state(comparison.devicePlugins()),
                        StandardCharsets.UTF_8);
            }
        }
        if (report != null) {
            String title = source
                    + (comparison != null ? ", compared with device plugins" : "")
                    + (answer != null ? ", " + answer.json().path("question").asString() : "");
            try {
                HtmlReport.write(
                        report,
                        HtmlReport.render(
                                title,
                                json,
                                FleetView.of(result.finalState(), poolLabel),
                                answer == null ? List.of() : answer.lines()));
            } catch (IOException e) {
                err.println("dra4j: --report " + report + ": cannot write: " + ReportFile.describe(e));
                err.flush();
                return CommandLine.ExitCode.SOFTWARE;
            }
        }
        err.flush();
        return manifests.problems().isEmpty() ? CommandLine.ExitCode.OK : CommandLine.ExitCode.SOFTWARE;
    }

    /** The --output json document of the run: the simulation, with the comparison or the what-if answer. */
    private String json(
            SimulationResult result, DevicePluginComparison.Result comparison, WhatIfOptions.Answer answer) {
        String json = Reports.json(result, events);
        if (comparison != null) {
            json = DevicePluginComparison.json(json, comparison);
        }
        if (answer != null) {
            var mapper = tools.jackson.databind.json.JsonMapper.builder()
                    .enable(tools.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .build();
            var root = (tools.jackson.databind.node.ObjectNode) mapper.readTree(json);
            root.set("whatIf", answer.json());
            json = mapper.writeValueAsString(root);
        }
        return json;
    }

    /** Where --output-state puts the device-plugin run's state: {@code x.yaml} -> {@code x.device-plugins.yaml}. */
    static Path devicePluginState(Path state) {
        String name = state.getFileName().toString();
        String dp = name.endsWith(".yaml")
                ? name.substring(0, name.length() - 5) + ".device-plugins.yaml"
                : name + ".device-plugins";
        return state.resolveSibling(dp);
    }

    private static Manifests read(List<String> inputs, boolean validate, FeatureGates gates) throws IOException {
        if (!inputs.isEmpty()) {
            return ManifestReader.read(inputs, System.in, validate, gates);
        }
        try (InputStream in = ClusterSnapshot.class.getResourceAsStream(BUNDLED_FLEET)) {
            if (in == null) {
                throw new IOException("the bundled fleet " + BUNDLED_FLEET + " is missing from the build");
            }
            return ManifestReader.parse(
                    in.readAllBytes(), "bundled fleet (dra4j-sim/src/main/resources" + BUNDLED_FLEET + ")");
        }
    }
}
