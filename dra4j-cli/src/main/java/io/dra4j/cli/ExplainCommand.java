package io.dra4j.cli;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.ExplanationWriter;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Scenario;
import io.dra4j.scenario.ScenarioException;
import io.dra4j.scenario.ScenarioRunner;
import io.dra4j.sim.PodClaims;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dra4j explain}: why the claims of each scenario do or do not fit on its node, and what would make them fit. */
@Command(
        name = "explain",
        mixinStandardHelpOptions = true,
        subcommands = {ExplainObjectCommand.Pod.class, ExplainObjectCommand.Claim.class},
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = {
            "Explains the allocation decision for each pending pod and unallocated claim of Kubernetes "
                    + "manifests (read as 'dra4j allocate' reads them, on the node chosen there or the one that came "
                    + "closest) and for each scenario file: the decisive reason first, then changes "
                    + "that were checked to make the claims fit (each one applied to a copy of the scenario and "
                    + "allocated again), the pools that cannot be used, and per request the funnel of candidate "
                    + "devices with the first rejected devices and why.",
            "",
            "The decision itself is exactly that of 'dra4j allocate'. JSON output is documented in "
                    + "docs/explain-json.md.",
            "",
            "'dra4j explain pod NAMESPACE/NAME' and 'dra4j explain claim NAMESPACE/NAME' answer for a cluster "
                    + "snapshot or a live cluster instead: why a pod is pending across every node."
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:every scenario was explained, whatever its outcome (with --exit-code: every claim was allocated)",
            "1:an input could not be read or had an invalid object (the others were still explained)",
            "2:bad usage",
            "3:with --exit-code: every file was read, but a scenario is unschedulable or has an error outcome"
        })
final class ExplainCommand implements Callable<Integer> {
    /** The renderings of an explanation. */
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
            description = "text (default, for people) or json (JSON Lines, one object per scenario, and per claim "
                    + "of the manifests)")
    private Format output;

    @Option(
            names = "--kubernetes-version",
            paramLabel = "VERSION",
            defaultValue = "1.37",
            converter = AllocateCommand.VersionConverter.class,
            description = "release whose default feature gates apply to scenarios without a features key: "
                    + "1.34, 1.35, 1.36 or 1.37 (default)")
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
            try {
                if (input instanceof Inputs.UnreadableInput u) {
                    throw inputs.unreadable(u);
                }
                Scenario scenario = inputs.withGates(inputs.read((Inputs.ScenarioInput) input), kubernetesVersion);
                Explanation x = ScenarioRunner.explain(scenario, kubernetesVersion, inputs.timeout);
                notAllocated |= !(x.outcome() instanceof AllocationOutcome.Allocated);
                out.print(
                        output == Format.json
                                ? ExplanationWriter.json(scenario.name(), x) + "\n"
                                : ExplanationWriter.text(scenario.name(), x));
            } catch (ScenarioException e) {
                status = CommandLine.ExitCode.SOFTWARE;
                err.println("dra4j: " + e.getMessage());
                err.flush();
                if (output == Format.json) {
                    out.println(ExplanationWriter.unreadable(e.scenarioName(), e.getMessage()));
                }
            }
            out.flush();
        }
        if (!manifests.isEmpty()) {
            Optional<ClusterInput.Checked> checked =
                    ClusterInput.check(manifests, inputs, kubernetesVersion, true, "explain", err);
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
        return status == CommandLine.ExitCode.OK && exitCode && notAllocated
                ? AllocateCommand.EXIT_NOT_ALLOCATED
                : status;
    }

    /**
     * One pod's explanation: for people the explanation on the chosen node (the allocation, else the node that came
     * closest) with the pod's verdict and the ranking; in JSON one line per claim.
     */
    private void print(PodClaims p, PrintWriter out) {
        Explanation x = ClusterInput.explanation(p);
        if (output == Format.text) {
            String text = ExplanationWriter.text(p.label() + (p.node().isEmpty() ? "" : " on " + p.node()), x);
            out.print(text);
            if (p.outcome() instanceof AllocationOutcome.Unschedulable u
                    && !u.reason().equals(x.decisive())) {
                out.println("  " + u.reason());
            }
            if (!p.nodes().isEmpty()) {
                out.println(ClusterInput.ranking(p));
            }
            p.notes().forEach(n -> out.println("  note: " + n));
            return;
        }
        List<String> claims = p.claims().isEmpty() ? List.of("") : p.claims();
        for (String claim : claims) {
            out.println(ExplanationWriter.jsonForClaim(
                    p.label(),
                    x,
                    ClusterInput.pod(p),
                    claim.isEmpty() ? null : p.namespace() + "/" + claim,
                    p.node().isEmpty() ? null : p.node()));
        }
    }
}
