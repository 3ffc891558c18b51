package io.dra4j.cli;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.migrate.FeatureGateFlag;
import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Scenario;
import io.dra4j.scenario.ScenarioException;
import io.dra4j.scenario.ScenarioReader;
import io.dra4j.scenario.ScenarioRunner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The input options {@code allocate} and {@code explain} share, kubectl style: files as arguments or with
 * {@code -f} (repeatable), {@code -} for standard input, the API server's validation, kube-scheduler's filterTimeout.
 */
final class Inputs {
    /** How standard input is named in messages. */
    static final Path STDIN = Path.of("<stdin>");

    private static final String DYNAMIC_RESOURCE_ALLOCATION = "DynamicResourceAllocation";

    private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    @Option(
            names = {"-f", "--filename"},
            paramLabel = "FILE",
            description = "a file or directory to read (repeatable): Kubernetes manifests or a scenario file; - "
                    + "reads standard input")
    List<Path> filenames = new ArrayList<>();

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "files and directories as with -f")
    List<Path> files = new ArrayList<>();

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "bound on the search per node, as kube-scheduler's filterTimeout (default 10s); past it "
                    + "the outcome is the error \"node N: timed out trying to allocate devices\"; 0 for no bound")
    Duration timeout;

    @Option(
            names = "--validate",
            paramLabel = "BOOLEAN",
            defaultValue = "true",
            arity = "0..1",
            fallbackValue = "true",
            description = "apply the defaults and validation of kube-apiserver 1.37 to every object before "
                    + "allocating (default true); --validate=false takes objects as upstream's allocator tests hand "
                    + "them over")
    boolean validate;

    @Option(
            names = "--node",
            paramLabel = "NAME",
            description = "for Kubernetes manifests: allocate on this node only (default: on every node of the "
                    + "input, the nodes ranked)")
    String node;

    @Option(
            names = "--feature-gates",
            paramLabel = "A=true,B=false",
            description = "feature gates in kube-scheduler's syntax, on top of the scenario's (repeatable): every gate "
                    + "the release's kube-scheduler knows is accepted as it accepts it; dra4j acts on its DRA gates "
                    + "and names on standard error each gate set that it does not model")
    List<String> featureGates = new ArrayList<>();

    /** The DRA gates --feature-gates turns on (true) or off (false), once {@link #checkGates} accepted it. */
    private Map<DraFeature, Boolean> gateOverrides = Map.of();

    /**
     * Reads --feature-gates as the release's kube-scheduler reads it ({@link FeatureGatesOption}) and keeps the DRA
     * gates it sets. A gate dra4j does not model is named on standard error; DynamicResourceAllocation off (which
     * turns kube-scheduler's DynamicResources plugin off) is refused, since dra4j only allocates with it on.
     *
     * @throws CommandLine.ParameterException saying why
     */
    void checkGates(CommandLine commandLine, KubernetesVersion version) {
        if (featureGates.isEmpty()) {
            return;
        }
        String release = version.text();
        Map<String, Boolean> settings = FeatureGatesOption.check(commandLine, featureGates, release);
        if (!FeatureGateFlag.enabled(release, settings).getOrDefault(DYNAMIC_RESOURCE_ALLOCATION, true)) {
            throw new CommandLine.ParameterException(
                    commandLine,
                    "--feature-gates: DynamicResourceAllocation=false turns kube-scheduler's DynamicResources "
                            + "plugin off; dra4j allocates devices only with it on");
        }
        Map<DraFeature, Boolean> out = new LinkedHashMap<>();
        FeatureGateFlag.overrides(release, settings)
                .forEach((gate, on) -> DraFeature.byGateName(gate).ifPresent(f -> out.put(f, on)));
        gateOverrides = out;
        settings.forEach((gate, on) -> {
            if (gate.equals("AllAlpha") || gate.equals("AllBeta")) {
                commandLine
                        .getErr()
                        .println("dra4j: feature gate " + gate + "=" + on + ": dra4j applies it to the "
                                + "DRA gates it models; it does not model the other gates it sets");
            } else if (DraFeature.byGateName(gate).isEmpty() && !gate.equals(DYNAMIC_RESOURCE_ALLOCATION)) {
                commandLine
                        .getErr()
                        .println("dra4j: feature gate " + gate + "=" + on + ": accepted as "
                                + "kube-scheduler accepts it; dra4j does not model it");
            }
        });
    }

    /**
     * The scenario with --feature-gates applied: its gates (or the release's defaults when it lists none), then the
     * overrides.
     */
    Scenario withGates(Scenario s, KubernetesVersion version) {
        if (gateOverrides.isEmpty()) {
            return s;
        }
        FeatureGates gates = ScenarioRunner.featureGates(s, version);
        for (Map.Entry<DraFeature, Boolean> e : gateOverrides.entrySet()) {
            gates = gates.with(e.getKey(), e.getValue());
        }
        return new Scenario(
                s.name(),
                s.source(),
                Optional.of(List.copyOf(gates.enabled())),
                s.confidence(),
                s.notes(),
                s.node(),
                s.deviceClasses(),
                s.resourceSlices(),
                s.deviceTaintRules(),
                s.allocatedDevices(),
                s.claims(),
                s.expectation(),
                s.sourcePath());
    }

    /** The gates for manifests: the release's defaults, then --feature-gates. */
    FeatureGates gates(KubernetesVersion version) {
        FeatureGates gates = FeatureGates.defaults(version);
        for (Map.Entry<DraFeature, Boolean> e : gateOverrides.entrySet()) {
            gates = gates.with(e.getKey(), e.getValue());
        }
        return gates;
    }

    /** One input as read: a scenario file, a manifest source, or a path that could not be read. */
    sealed interface Input permits ScenarioInput, ManifestInput, UnreadableInput {}

    /** A scenario file (docs/scenario-format.md): one scenario. */
    record ScenarioInput(Path label, byte[] content) implements Input {}

    /** A file (or standard input) of Kubernetes manifests; every such input forms one cluster. */
    record ManifestInput(String name, byte[] content) implements Input {}

    /**
     * A path that could not be read (missing, permission denied, ...): {@code problem} says why, or is empty when
     * the scenario reader's words are to be used.
     */
    record UnreadableInput(Path path, String problem) implements Input {}

    /**
     * The inputs in command-line order, directories expanded into their .yaml, .yml and .json files (recursively, in
     * path order), each file classified by its first YAML document: a mapping without apiVersion, kind and items is
     * a scenario file; anything else is manifests.
     */
    List<Input> load(InputStream stdin) {
        List<Input> out = new ArrayList<>();
        boolean stdinRead = false;
        for (Path p : all()) {
            if (p.toString().equals("-")) {
                byte[] content = new byte[0];
                if (!stdinRead) {
                    try {
                        content = stdin.readAllBytes();
                    } catch (IOException e) {
                        content = new byte[0];
                    }
                    stdinRead = true;
                }
                out.add(classify(STDIN, STDIN.toString(), content));
            } else if (Files.isDirectory(p)) {
                List<Path> files = new ArrayList<>();
                List<Path> failed = new ArrayList<>();
                walk(p, files, failed);
                if (files.isEmpty() && failed.isEmpty()) {
                    out.add(new UnreadableInput(p, "is a directory without .yaml, .yml or .json files"));
                }
                files.stream().sorted().forEach(f -> out.add(load(f)));
                failed.forEach(f -> out.add(new UnreadableInput(f, "")));
            } else {
                out.add(load(p));
            }
        }
        return out;
    }

    private static Input load(Path file) {
        try {
            return classify(file, file.toString(), Files.readAllBytes(file));
        } catch (IOException e) {
            return new UnreadableInput(file, "");
        }
    }

    /** The manifest files under a directory, and the paths under it that could not be listed or read. */
    private static void walk(Path dir, List<Path> files, List<Path> failed) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile() && ManifestReader.isManifestName(file)) {
                        files.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    failed.add(file);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            failed.add(dir);
        }
    }

    /** Lines that open a Kubernetes object in text the YAML reader cannot read. */
    private static final Pattern OBJECT_KEY = Pattern.compile("(?m)^(apiVersion|kind)\\s*:|\"(apiVersion|kind)\"\\s*:");

    private static Input classify(Path label, String name, byte[] content) {
        // Text that is not YAML goes to the scenario reader unless it shows an object's keys.
        boolean scenario = ScenarioReader.isScenario(content)
                || !OBJECT_KEY
                                .matcher(new String(content, StandardCharsets.UTF_8))
                                .find()
                        && !ScenarioReader.isYaml(content);
        return scenario ? new ScenarioInput(label, content) : new ManifestInput(name, content);
    }

    /** The files in command-line order: -f ones first, then the arguments. */
    List<Path> all() {
        List<Path> out = new ArrayList<>(filenames);
        out.addAll(files);
        return out;
    }

    /**
     * Reads a scenario input.
     *
     * @throws ScenarioException naming the file
     */
    Scenario read(ScenarioInput input) throws ScenarioException {
        return ScenarioReader.read(input.content(), input.label(), validate);
    }

    /**
     * Says why a path cannot be read, as the scenario reader words it.
     *
     * @return never: the exception
     */
    ScenarioException unreadable(UnreadableInput input) {
        if (!input.problem().isEmpty()) {
            return ScenarioReader.unreadable(input.path(), input.problem());
        }
        try {
            ScenarioReader.read(input.path(), validate);
            return ScenarioReader.unreadable(input.path(), "could not be read");
        } catch (ScenarioException e) {
            return e;
        }
    }

    /** Go's time.ParseDuration forms ("10s", "1m30s", "500ms"), and 0. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            if (value.equals("0")) {
                return Duration.ZERO;
            }
            Matcher m = GO_DURATION.matcher(value);
            Duration total = Duration.ZERO;
            int at = 0;
            while (m.find() && m.start() == at) {
                double amount = Double.parseDouble(m.group(1));
                double nanosPerUnit = switch (m.group(2)) {
                    case "ns" -> 1;
                    case "us", "µs" -> 1e3;
                    case "ms" -> 1e6;
                    case "s" -> 1e9;
                    case "m" -> 60e9;
                    default -> 3600e9;
                };
                total = total.plusNanos(Math.round(amount * nanosPerUnit));
                at = m.end();
            }
            if (at == 0 || at != value.length()) {
                throw new CommandLine.TypeConversionException(
                        "invalid duration '" + value + "' (want e.g. 10s, 500ms, 1m30s, or 0 for no bound)");
            }
            return total;
        }
    }
}
