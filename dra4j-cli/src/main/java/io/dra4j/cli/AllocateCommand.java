package io.dra4j.cli;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.OutcomeWriter;
import io.dra4j.scenario.Scenario;
import io.dra4j.scenario.ScenarioException;
import io.dra4j.scenario.ScenarioOutcome;
import io.dra4j.scenario.ScenarioRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code dra4j allocate}: runs scenario files through the allocator and prints their outcomes. */
@Command(name = "allocate",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = {
                "Allocates the claims of each scenario file on its node and prints the outcome: allocated (with "
                        + "the devices per claim), unschedulable, or error.",
                "",
                "A scenario (see docs/scenario-format.md) holds the device classes, resource slices, devices already "
                        + "in use, the node, the claims and the feature gates that are on; every DRA gate it "
                        + "does not list is off. A scenario without a features key gets the defaults of "
                        + "--kubernetes-version.",
                "",
                "Outcomes are printed in argument order. A file that cannot be read gives an error outcome that "
                        + "names the file and the problem; the other files still run."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:every scenario ran, whatever its outcome (with --exit-code: every claim was allocated)",
                "1:a file could not be read, or a scenario could not be run",
                "2:bad usage",
                "3:with --exit-code: every file was read, but a scenario is unschedulable or has an error outcome"})
final class AllocateCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default, for people), yaml, or json (JSON Lines: one object per scenario, "
                    + "{\"scenario\",\"outcome\",\"error\",\"allocations\"})")
    private OutcomeWriter.Format output;

    @Option(names = "--kubernetes-version", paramLabel = "VERSION", defaultValue = "1.37",
            converter = VersionConverter.class,
            description = "release whose default feature gates apply to scenarios without a features key: "
                    + "1.34, 1.35, 1.36 or 1.37 (default)")
    private KubernetesVersion kubernetesVersion;

    @Mixin
    private Inputs inputs;

    @Option(names = "--exit-code", description = "exit with status 3 when a scenario is unschedulable or has an "
            + "error outcome (for CI)")
    private boolean exitCode;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Path> files = inputs.all();
        if (files.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "no input: give FILE, -f FILE, or - for standard input");
        }
        int status = CommandLine.ExitCode.OK;
        boolean notAllocated = false;
        for (Path file : files) {
            ScenarioOutcome outcome;
            boolean readable = true;
            Scenario scenario = null;
            try {
                scenario = inputs.withGates(inputs.read(file, System.in), kubernetesVersion);
                outcome = run(scenario);
                if (outcome == null) {
                    outcome = ScenarioOutcome.of(scenario, new AllocationOutcome.Failed(
                            "internal error in dra4j while allocating scenario file " + file, false));
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
            if (output == OutcomeWriter.Format.TEXT && outcome.outcome() instanceof AllocationOutcome.Unschedulable
                    && scenario != null) {
                // People get the decisive reason with the verdict; 'explain' has the rest.
                out.println("  why: " + ScenarioRunner.explain(scenario, kubernetesVersion, inputs.timeout).decisive());
            }
            out.flush();
        }
        return status == CommandLine.ExitCode.OK && exitCode && notAllocated ? EXIT_NOT_ALLOCATED : status;
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
            return KubernetesVersion.parse(value).orElseThrow(() -> new CommandLine.TypeConversionException(
                    "unsupported Kubernetes version '" + value + "', supported: " + Arrays.stream(KubernetesVersion.values())
                            .map(KubernetesVersion::text).collect(Collectors.joining(", "))));
        }
    }
}
