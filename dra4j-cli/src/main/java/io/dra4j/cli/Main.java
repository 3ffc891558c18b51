package io.dra4j.cli;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** The {@code dra4j} command. */
@Command(name = "dra4j",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = "Kubernetes Dynamic Resource Allocation (resource.k8s.io/v1) for the JVM: decides device "
                + "allocations as Kubernetes 1.37's scheduler does.",
        subcommands = {
                AllocateCommand.class,
                ExplainCommand.class,
                SimulateCommand.class,
                GetCommand.class,
                ConvertCommand.class,
                MigrateCommand.class,
                VersionCommand.class,
                AutoComplete.GenerateCompletion.class,
                DriverCommand.class,
                DevicePluginCommand.class,
                KubeletProbeCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    /** Without a subcommand there is nothing to do: show the usage and report bad usage. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int status = run(args, out, err);
        out.flush();
        err.flush();
        System.exit(status);
    }

    /** Runs the command line with the given streams and returns the exit status. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler((e, unused) -> {
            PrintWriter w = e.getCommandLine().getErr();
            w.println("dra4j: " + e.getMessage());
            w.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
            return CommandLine.ExitCode.USAGE;
        });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("dra4j: " + e);
            return CommandLine.ExitCode.SOFTWARE;
        });
        return cl.execute(args);
    }

    /** dra4j's version (from the build) and the Kubernetes release it follows. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            java.util.Properties p = new java.util.Properties();
            try (java.io.InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (java.io.IOException e) {
                // Without the resource the version is unknown; say so below.
            }
            return new String[]{"dra4j " + p.getProperty("version", "(unknown version)")
                    + ", follows Kubernetes " + p.getProperty("kubernetes", "?")
                    + " (allocation as " + p.getProperty("allocator", "?") + ")"};
        }
    }
}
