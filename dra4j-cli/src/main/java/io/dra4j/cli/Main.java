package io.dra4j.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code dra4j} command. */
@Command(
        name = "dra4j",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = "Kubernetes Dynamic Resource Allocation (resource.k8s.io/v1) for the JVM: decides device "
                + "allocations as Kubernetes 1.37's scheduler does.")
public final class Main implements Callable<Integer> {
    /**
     * The subcommands in the order {@code --help} lists them. picocli reflects over a command's whole class when it is
     * added, so a run adds only the one it names (and its own subcommands); the help, a completion script and a word
     * that names no command get them all.
     */
    static final List<Class<?>> SUBCOMMANDS = List.of(
            AllocateCommand.class,
            ExplainCommand.class,
            SimulateCommand.class,
            GetCommand.class,
            ConvertCommand.class,
            MigrateCommand.class,
            LintCommand.class,
            VersionCommand.class,
            AutoComplete.GenerateCompletion.class,
            DriverCommand.class,
            DevicePluginCommand.class,
            KubeletProbeCommand.class,
            CommandLine.HelpCommand.class);

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
        Class<?> named = named(args);
        for (Class<?> c : SUBCOMMANDS) {
            if (named == null || c == named) {
                cl.addSubcommand(c.getAnnotation(Command.class).name(), c);
            }
        }
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

    /**
     * The subcommand the arguments name when it is one that runs on its own; null when every subcommand is needed
     * (no subcommand, {@code help}, {@code generate-completion}, or a word that names none, for picocli's message).
     */
    private static Class<?> named(String[] args) {
        String word = null;
        for (String a : args) {
            if (!a.startsWith("-")) {
                word = a;
                break;
            }
        }
        if (word == null) {
            return null;
        }
        for (Class<?> c : SUBCOMMANDS) {
            Command command = c.getAnnotation(Command.class);
            if (command.name().equals(word)
                    || java.util.Arrays.asList(command.aliases()).contains(word)) {
                return c == CommandLine.HelpCommand.class || c == AutoComplete.GenerateCompletion.class ? null : c;
            }
        }
        return null;
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
            return new String[] {
                "dra4j " + p.getProperty("version", "(unknown version)")
                        + ", follows Kubernetes " + p.getProperty("kubernetes", "?")
                        + " (allocation as " + p.getProperty("allocator", "?") + ")"
            };
        }
    }
}
