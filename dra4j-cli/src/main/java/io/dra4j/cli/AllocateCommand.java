package io.dra4j.cli;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.OutcomeWriter;
import io.dra4j.scenario.Scenario;
import io.dra4j.scenario.ScenarioException;
import io.dra4j.scenario.ScenarioOutcome;
import io.dra4j.scenario.ScenarioRunner;
import io.dra4j.sim.NodeVerdict;
import io.dra4j.sim.PodClaims;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dra4j allocate}: allocates the claims of Kubernetes manifests or scenario files and prints the outcomes. */
@Command(
        name = "allocate",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = {
            "Allocates claims and prints the outcome: allocated (with the devices per claim), unschedulable, or "
                    + "error.",
            "",
            "Kubernetes manifests (YAML or JSON, multi-document, kind: List, directories, - for standard input) "
                    + "form one cluster, as kubectl apply -f would see them: DeviceClasses, ResourceSlices, "
                    + "ResourceClaims, ResourceClaimTemplates, DeviceTaintRules, Nodes and Pods (workloads are "
                    + "expanded into their pods). Every pending pod's claims (by name, or the claim its template "
                    + "stands for) are allocated together as kube-scheduler's DynamicResources plugin does, on "
                    + "--node or on every node (ranked by its score); so is every unallocated claim no pod uses. "
                    + "Each pod is checked alone against the bound pods and allocated claims; 'simulate' places "
                    + "them one after another with every scheduler plugin. Gates: --kubernetes-version's "
                    + "defaults and --feature-gates.",
            "",
            "A scenario file (see docs/scenario-format.md) is one scenario: the device classes, resource slices, "
                    + "devices in use, the node, the claims and the gates that are on; every DRA gate it does not "
                    + "list is off. A scenario without a features key gets the defaults of --kubernetes-version.",
            "",
            "Scenarios are printed in argument order, then the manifests' pods and claims in input order. A file "
                    + "that cannot be read is reported with the problem; the other files still run."
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:every input ran, whatever its outcome (with --exit-code: every claim was allocated)",
            "1:an input could not be read or had an invalid object (the others still ran)",
            "2:bad usage",
            "3:with --exit-code: every file was read, but a scenario is unschedulable or has an error outcome"
        })
final class AllocateCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text (default, for people), yaml, or json (JSON Lines: one object per scenario, "
                    + "{\"scenario\",\"outcome\",\"error\",\"allocations\"}, and one per claim of the manifests, "
                    + "{\"pod\",\"claim\",\"node\",\"outcome\",...}; see README)")
    private OutcomeWriter.Format output;

    @Option(
            names = "--kubernetes-version",
            paramLabel = "VERSION",
            defaultValue = "1.37",
            converter = VersionConverter.class,
            description = "release whose default feature gates apply to manifests and to scenarios without a "
                    + "features key: 1.34, 1.35, 1.36 or 1.37 (default)")
    private KubernetesVersion kubernetesVersion;

    @Mixin
    private Inputs inputs;

    @Option(
            names = "--exit-code",
            description = "exit with status 3 when a scenario is unschedulable or has an " + "error outcome (for CI)")
    private boolean exitCode;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (inputs.all().isEmpty()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "no input: give FILE, -f FILE, or - for standard input");
        }
        inputs.checkGates(spec.commandLine(), kubernetesVersion);
        int status = CommandLine.ExitCode.OK;
        boolean notAllocated = false;
        List<ManifestReader.Source> manifests = new ArrayList<>();
        for (Inputs.Input input : inputs.load(System.in)) {
            if (input instanceof Inputs.ManifestInput m) {
                manifests.add(new ManifestReader.Source(m.name(), m.content()));
                continue;
            }
            ScenarioOutcome outcome;
            boolean readable = true;
            Scenario scenario = null;
            try {
                if (input instanceof Inputs.UnreadableInput u) {
                    throw inputs.unreadable(u);
                }
                scenario = inputs.withGates(inputs.read((Inputs.ScenarioInput) input), kubernetesVersion);
                outcome = run(scenario);
                if (outcome == null) {
                    outcome = ScenarioOutcome.of(
                            scenario,
                            new AllocationOutcome.Failed(
                                    "internal error in dra4j while allocating scenario file " + scenario.sourcePath(),
                                    false));
                    status = CommandLine.ExitCode.SOFTWARE;
                }
            } catch (ScenarioException e) {
                outcome = ScenarioOutcome.unreadable(e);
                readable = false;
                err.println("dra4j: " + e.getMessage());
                err.flush();
                status = CommandLine.ExitCode.SOFTWARE;
            }
            notAllocated |= !(outcome.outcome() instanceof AllocationOutcome.Allocated);
            if (readable || output != OutcomeWriter.Format.TEXT) {
                // JSON and YAML keep one record per input, an unreadable one included; text leaves errors to stderr.
                out.print(OutcomeWriter.render(outcome, output));
            }
            if (output == OutcomeWriter.Format.TEXT
                    && outcome.outcome() instanceof AllocationOutcome.Unschedulable
                    && scenario != null) {
                // People get the decisive reason with the verdict; 'explain' has the rest.
                out.println("  why: "
                        + ScenarioRunner.explain(scenario, kubernetesVersion, inputs.timeout)
                                .decisive());
            }
            out.flush();
        }
        if (!manifests.isEmpty()) {
            Optional<ClusterInput.Checked> checked = ClusterInput.check(
                    manifests, inputs, kubernetesVersion, output == OutcomeWriter.Format.TEXT, "allocate", err);
            err.flush();
            if (checked.isEmpty() || checked.get().problems()) {
                status = CommandLine.ExitCode.SOFTWARE;
            }
            for (PodClaims p : checked.map(c -> c.result().pods()).orElse(List.of())) {
                notAllocated |= !(p.outcome() instanceof AllocationOutcome.Allocated);
                print(p, out);
            }
            out.flush();
        }
        return status == CommandLine.ExitCode.OK && exitCode && notAllocated ? EXIT_NOT_ALLOCATED : status;
    }

    /** One pod's claims: a block for people, or one JSON line (YAML document) per claim. */
    private void print(PodClaims p, PrintWriter out) {
        if (output == OutcomeWriter.Format.TEXT) {
            out.print(OutcomeWriter.text(new ScenarioOutcome(ClusterInput.title(p), p.claims(), p.outcome())));
            if (p.outcome() instanceof AllocationOutcome.Unschedulable u) {
                out.println("  " + u.reason());
            }
            for (int i = 0; i < p.claims().size(); i++) {
                if (!p.templates().get(i).isEmpty()) {
                    out.println("  claim " + p.claims().get(i) + " stands for ResourceClaimTemplate " + p.namespace()
                            + "/" + p.templates().get(i));
                }
            }
            if (!p.nodes().isEmpty()) {
                out.println(ClusterInput.ranking(p));
            }
            if (!(p.outcome() instanceof AllocationOutcome.Allocated)
                    && p.explanation().isPresent()) {
                out.println("  why: " + (p.node().isEmpty() ? "" : p.node() + ": ")
                        + p.explanation().get().decisive());
            }
            p.notes().forEach(n -> out.println("  note: " + n));
            return;
        }
        List<String> claims = p.claims().isEmpty() ? java.util.Collections.singletonList(null) : p.claims();
        for (int i = 0; i < claims.size(); i++) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("pod", ClusterInput.pod(p));
            line.put("claim", claims.get(i) == null ? null : p.namespace() + "/" + claims.get(i));
            if (claims.get(i) != null && !p.templates().get(i).isEmpty()) {
                line.put("template", p.templates().get(i));
            }
            line.put("node", p.node().isEmpty() ? null : p.node());
            AllocationOutcome o = p.outcome();
            if (o instanceof AllocationOutcome.Allocated a) {
                line.put("outcome", "allocated");
                line.put("allocation", OutcomeWriter.allocationView(a.results().get(i)));
            } else if (o instanceof AllocationOutcome.Unschedulable u) {
                line.put("outcome", "unschedulable");
                line.put("reason", u.reason());
            } else {
                line.put("outcome", "error");
                line.put("error", ((AllocationOutcome.Failed) o).message());
            }
            List<Object> nodes = new ArrayList<>();
            for (NodeVerdict v : p.nodes()) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("node", v.node());
                n.put(
                        "outcome",
                        v.allocated()
                                ? "allocated"
                                : v.outcome() instanceof AllocationOutcome.Unschedulable ? "unschedulable" : "error");
                if (v.allocated()) {
                    n.put("score", v.score());
                }
                nodes.add(n);
            }
            line.put("nodes", nodes);
            out.print(
                    output == OutcomeWriter.Format.JSON
                            ? OutcomeWriter.jsonLine(line) + "\n"
                            : OutcomeWriter.yamlDocument(line));
        }
    }

    /** The status for --exit-code when something was not allocated. */
    static final int EXIT_NOT_ALLOCATED = 3;

    /** The scenario's outcome; null when the allocator failed unexpectedly (a dra4j bug, reported to stderr). */
    private ScenarioOutcome run(Scenario scenario) {
        try {
            return ScenarioOutcome.of(scenario, ScenarioRunner.run(scenario, kubernetesVersion, inputs.timeout));
        } catch (RuntimeException e) {
            spec.commandLine().getErr().println("dra4j: internal error in scenario " + scenario.name() + ": " + e);
            return null;
        }
    }

    /** Accepts 1.34 to 1.37 (also v1.37 or 1.37.2). */
    static final class VersionConverter implements CommandLine.ITypeConverter<KubernetesVersion> {
        @Override
        public KubernetesVersion convert(String value) {
            return KubernetesVersion.parse(value)
                    .orElseThrow(() -> new CommandLine.TypeConversionException(
                            "unsupported Kubernetes version '" + value + "', supported: "
                                    + Arrays.stream(KubernetesVersion.values())
                                            .map(KubernetesVersion::text)
                                            .collect(Collectors.joining(", "))));
        }
    }
}
