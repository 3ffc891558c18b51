package io.dra4j.cli;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.OutcomeWriter;
import io.dra4j.scenario.Scenario;
import io.dra4j.scenario.ScenarioException;
import io.dra4j.scenario.ScenarioOutcome;
import io.dra4j.scenario.ScenarioReader;
import io.dra4j.scenario.ScenarioRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
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
                "A scenario (see SCENARIO-FORMAT.md) holds the device classes, resource slices, devices already "
                        + "in use, the node, the claims and the feature gates that are on; every DRA gate it "
                        + "does not list is off. A scenario without a features key gets the defaults of "
                        + "--kubernetes-version.",
                "",
                "Outcomes are printed in argument order. A file that cannot be read gives an error outcome that "
                        + "names the file and the problem; the other files still run."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
                "0:every scenario ran, whatever its outcome",
                "1:a file could not be read, or a scenario could not be run",
                "2:bad usage"})
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

    @Parameters(arity = "1..*", paramLabel = "SCENARIO", description = "scenario files (YAML, one scenario each)")
    private List<Path> files;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int status = CommandLine.ExitCode.OK;
        for (Path file : files) {
            ScenarioOutcome outcome;
            try {
                Scenario scenario = ScenarioReader.read(file);
                outcome = run(scenario);
                if (outcome == null) {
                    outcome = ScenarioOutcome.of(scenario, new AllocationOutcome.Failed(
                            "internal error in dra4j while allocating scenario file " + file, false));
                    status = CommandLine.ExitCode.SOFTWARE;
                }
            } catch (ScenarioException e) {
                outcome = ScenarioOutcome.unreadable(e);
                status = CommandLine.ExitCode.SOFTWARE;
            }
            out.print(OutcomeWriter.render(outcome, output));
            out.flush();
        }
        return status;
    }

    /** The scenario's outcome; null when the allocator failed unexpectedly (a dra4j bug, reported to stderr). */
    private ScenarioOutcome run(Scenario scenario) {
        try {
            return ScenarioOutcome.of(scenario, ScenarioRunner.run(scenario, kubernetesVersion));
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
