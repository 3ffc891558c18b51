package io.dra4j.cli;

import io.dra4j.migrate.ApiConverter;
import io.dra4j.migrate.Finding;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code dra4j convert}: old resource.k8s.io versions to v1, by upstream's conversion rules. */
@Command(
        name = "convert",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = {
            "Converts DeviceClasses, ResourceClaims, ResourceClaimTemplates, ResourceSlices and "
                    + "DeviceTaintRules written for resource.k8s.io/v1alpha3, v1beta1 or v1beta2 to v1, as "
                    + "Kubernetes 1.37's API server converts them (requests under exactly, devices without the "
                    + "basic wrapper, capacities as {value}). Defaults are not added.",
            "",
            "Every document of the input is written out, in order: converted ones rewritten, all others "
                    + "(other kinds, v1 objects, documents that cannot be converted) byte for byte. Problems "
                    + "go to stderr as file:line:col: severity: rule: message; fields with no v1 form are "
                    + "named there. Without --in-place the input files are never written."
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:every document was converted or needed no conversion",
            "1:a file could not be read, or a document could not be converted",
            "2:bad usage"
        })
final class ConvertCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(
            names = "--to",
            paramLabel = "VERSION",
            defaultValue = "v1",
            description = "the version to convert to; only v1 (default)")
    private String to;

    @Option(
            names = {"-i", "--in-place"},
            description = "rewrite each file that has something to convert and no error (atomically: a "
                    + "temporary file in the same directory, then renamed over it); print nothing on stdout")
    private boolean inPlace;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "YAML files; - reads stdin")
    private List<String> files;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!to.equals("v1") && !to.equals("resource.k8s.io/v1")) {
            err.println("dra4j convert: --to " + to + ": only v1 is supported");
            return CommandLine.ExitCode.USAGE;
        }
        if (inPlace && files.contains("-")) {
            err.println("dra4j convert: --in-place cannot rewrite stdin");
            return CommandLine.ExitCode.USAGE;
        }
        ApiConverter converter = new ApiConverter();
        int status = CommandLine.ExitCode.OK;
        boolean first = true;
        for (String file : files) {
            InputFiles.Input input = InputFiles.read(file, err);
            if (input == null) {
                status = CommandLine.ExitCode.SOFTWARE;
                continue;
            }
            ApiConverter.Result result = converter.toV1(file, input.text());
            for (Finding f : result.findings()) {
                err.println(f.format());
            }
            if (result.hasErrors()) {
                status = CommandLine.ExitCode.SOFTWARE;
            }
            if (inPlace) {
                if (result.hasErrors()) {
                    err.println(file + ": not rewritten: it has errors");
                } else if (result.converted() > 0 && !InputFiles.replace(input, result.output(), err)) {
                    status = CommandLine.ExitCode.SOFTWARE;
                }
                continue;
            }
            if (!first && !result.output().startsWith("---")) {
                out.print("---\n");
            }
            first = false;
            out.print(result.output());
        }
        out.flush();
        return status;
    }
}
