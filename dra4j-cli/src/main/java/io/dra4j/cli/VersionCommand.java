package io.dra4j.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code dra4j version}: the same as {@code dra4j --version}, as kubectl has both. */
@Command(
        name = "version",
        usageHelpWidth = 100,
        description = "Prints dra4j's version and the Kubernetes release whose allocation it follows.")
final class VersionCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        for (String line : new Main.Version().getVersion()) {
            spec.commandLine().getOut().println(line);
        }
        return CommandLine.ExitCode.OK;
    }
}
