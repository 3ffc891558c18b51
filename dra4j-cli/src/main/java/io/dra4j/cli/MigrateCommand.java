package io.dra4j.cli;

import io.dra4j.migrate.DevicePluginMigration;
import io.dra4j.migrate.Finding;
import io.dra4j.migrate.ResourceMapping;
import io.dra4j.migrate.UnifiedDiff;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code dra4j migrate}: workloads from device-plugin resources to DRA. */
@Command(
        name = "migrate",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = {
            "Moves pods and workloads (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob) that "
                    + "ask for device-plugin resources (nvidia.com/gpu, MIG names such as nvidia.com/mig-1g.10gb, "
                    + "nvidia.com/gpu.shared, others through --mapping) to DRA.",
            "",
            "--bridge keeps the manifests and prints DeviceClasses with extendedResourceName, so that the "
                    + "scheduler serves the same requests from a DRA driver (where a node's device plugin still "
                    + "advertises the resource, the device plugin wins).",
            "--claims rewrites each workload to a ResourceClaimTemplate (printed after it), spec.resourceClaims "
                    + "and the containers' resources.claims, and turns GPU feature-discovery node selectors "
                    + "(nvidia.com/gpu.product, gpu.memory, gpu.family, ...) into claim selectors on the DRA "
                    + "driver's attributes. Everything else stays byte for byte, comments included.",
            "",
            "Notes and problems go to stderr as file:line:col: severity: rule: message."
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:done", "1:a file or document could not be read or rewritten", "2:bad usage"})
final class MigrateCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    static final class Mode {
        @Option(names = "--bridge", required = true, description = "print DeviceClasses with extendedResourceName")
        boolean bridge;

        @Option(names = "--claims", required = true, description = "rewrite workloads to ResourceClaimTemplates")
        boolean claims;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Mode mode;

    @Option(names = "--diff", description = "with --claims: print a unified diff per file instead of the files")
    private boolean diff;

    @Option(
            names = {"-i", "--in-place"},
            description = "with --claims: rewrite each file that changes and has no error, atomically")
    private boolean inPlace;

    @Option(
            names = "--mapping",
            paramLabel = "FILE",
            description = "YAML: mappings: [{resource, deviceClassName, driver, selectors, note}] for extended "
                    + "resources other than NVIDIA's (also overrides them)")
    private Path mappingFile;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "YAML files; - reads stdin")
    private List<String> files;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (mode.bridge && (diff || inPlace)) {
            err.println("dra4j migrate: --diff and --in-place go with --claims");
            return CommandLine.ExitCode.USAGE;
        }
        if (diff && inPlace || inPlace && files.contains("-")) {
            err.println("dra4j migrate: --in-place rewrites files: not with --diff or stdin");
            return CommandLine.ExitCode.USAGE;
        }
        DevicePluginMigration migration = DevicePluginMigration.nvidia();
        if (mappingFile != null) {
            InputFiles.Input m = InputFiles.read(mappingFile.toString(), err);
            if (m == null) {
                return CommandLine.ExitCode.SOFTWARE;
            }
            try {
                migration = DevicePluginMigration.with(ResourceMapping.parse(m.text()));
            } catch (IllegalArgumentException e) {
                err.println(mappingFile + ": " + e.getMessage());
                return CommandLine.ExitCode.SOFTWARE;
            }
        }
        int status = CommandLine.ExitCode.OK;
        Map<String, InputFiles.Input> inputs = new LinkedHashMap<>();
        for (String file : files) {
            InputFiles.Input input = InputFiles.read(file, err);
            if (input == null) {
                status = CommandLine.ExitCode.SOFTWARE;
            } else {
                inputs.put(file, input);
            }
        }
        if (mode.bridge) {
            Map<String, String> texts = new LinkedHashMap<>();
            inputs.forEach((name, in) -> texts.put(name, in.text()));
            DevicePluginMigration.Result result = migration.bridge(texts);
            report(result, err);
            out.print(result.output());
            if (result.rewritten() == 0) {
                err.println("dra4j migrate: no device-plugin resources with a DRA mapping found");
            }
            out.flush();
            return result.hasErrors() ? CommandLine.ExitCode.SOFTWARE : status;
        }
        boolean first = true;
        for (InputFiles.Input input : inputs.values()) {
            DevicePluginMigration.Result result = migration.claims(input.name(), input.text());
            report(result, err);
            if (result.hasErrors()) {
                status = CommandLine.ExitCode.SOFTWARE;
            }
            if (diff) {
                out.print(UnifiedDiff.of(input.name(), input.text(), result.output()));
            } else if (inPlace) {
                if (result.hasErrors()) {
                    err.println(input.name() + ": not rewritten: it has errors");
                } else if (result.rewritten() > 0 && !InputFiles.replace(input, result.output(), err)) {
                    status = CommandLine.ExitCode.SOFTWARE;
                }
            } else {
                if (!first && !result.output().startsWith("---")) {
                    out.print("---\n");
                }
                out.print(result.output());
            }
            first = false;
        }
        out.flush();
        return status;
    }

    private static void report(DevicePluginMigration.Result result, PrintWriter err) {
        for (Finding f : result.findings()) {
            err.println(f.format());
        }
    }
}
