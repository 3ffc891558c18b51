package io.dra4j.cli;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.scenario.Scenario;
import io.dra4j.scenario.ScenarioException;
import io.dra4j.scenario.ScenarioReader;
import io.dra4j.scenario.ScenarioRunner;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The input options {@code allocate} and {@code explain} share, kubectl style: files as arguments or with
 * {@code -f} (repeatable), {@code -} for standard input, the API server's validation, kube-scheduler's filterTimeout.
 */
final class Inputs {
    /** How standard input is named in messages. */
    static final Path STDIN = Path.of("<stdin>");
    private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    @Option(names = {"-f", "--filename"}, paramLabel = "FILE",
            description = "a scenario file to read (repeatable); - reads standard input")
    List<Path> filenames = new ArrayList<>();

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "scenario files (YAML, one scenario each); - reads "
            + "standard input")
    List<Path> files = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "bound on the search per node, as kube-scheduler's filterTimeout (default 10s); past it "
                    + "the outcome is the error \"node N: timed out trying to allocate devices\"; 0 for no bound")
    Duration timeout;

    @Option(names = "--validate", paramLabel = "BOOLEAN", defaultValue = "true", arity = "0..1", fallbackValue = "true",
            description = "apply the defaults and validation of kube-apiserver 1.37 to every object before "
                    + "allocating (default true); --validate=false takes objects as upstream's allocator tests hand "
                    + "them over")
    boolean validate;

    @Option(names = "--feature-gates", paramLabel = "A=true,B=false", converter = GatesConverter.class,
            description = "DRA feature gates to turn on or off on top of the scenario's (kube-scheduler's syntax)")
    Gates featureGates = new Gates(Map.of());

    /** The gates --feature-gates turns on (true) or off (false), in command-line order. */
    record Gates(Map<DraFeature, Boolean> values) {
    }

    /**
     * The scenario with --feature-gates applied: its gates (or the release's defaults when it lists none), then the
     * overrides.
     */
    Scenario withGates(Scenario s, KubernetesVersion version) {
        if (featureGates.values().isEmpty()) {
            return s;
        }
        FeatureGates gates = ScenarioRunner.featureGates(s, version);
        for (Map.Entry<DraFeature, Boolean> e : featureGates.values().entrySet()) {
            gates = gates.with(e.getKey(), e.getValue());
        }
        return new Scenario(s.name(), s.source(), Optional.of(List.copyOf(gates.enabled())), s.confidence(), s.notes(),
                s.node(), s.deviceClasses(), s.resourceSlices(), s.deviceTaintRules(), s.allocatedDevices(), s.claims(),
                s.expectation(), s.sourcePath());
    }

    /** The files in command-line order: -f ones first, then the arguments. */
    List<Path> all() {
        List<Path> out = new ArrayList<>(filenames);
        out.addAll(files);
        return out;
    }

    /**
     * Reads one input; {@code -} is standard input (read once).
     *
     * @throws ScenarioException naming the file
     */
    Scenario read(Path file, InputStream stdin) throws ScenarioException {
        if (file.toString().equals("-")) {
            byte[] content;
            try {
                content = stdin.readAllBytes();
            } catch (IOException e) {
                content = new byte[0];
            }
            return ScenarioReader.read(content, STDIN, validate);
        }
        return ScenarioReader.read(file, validate);
    }

    /** k8s.io/component-base's feature gate syntax and messages: {@code A=true,B=false}. */
    static final class GatesConverter implements CommandLine.ITypeConverter<Gates> {
        @Override
        public Gates convert(String value) {
            Map<DraFeature, Boolean> out = new LinkedHashMap<>();
            for (String part : value.split(",")) {
                String item = part.trim();
                if (item.isEmpty()) {
                    continue;
                }
                int eq = item.indexOf('=');
                if (eq < 0) {
                    throw new CommandLine.TypeConversionException("missing bool value for " + item);
                }
                String name = item.substring(0, eq).trim();
                String bool = item.substring(eq + 1).trim();
                DraFeature gate = DraFeature.byGateName(name).orElseThrow(() ->
                        new CommandLine.TypeConversionException("unrecognized feature gate: " + name
                                + " (dra4j knows the DRA gates: " + String.join(", ", java.util.Arrays.stream(
                                DraFeature.values()).map(DraFeature::gateName).toList()) + ")"));
                Boolean on = switch (bool) {
                    case "1", "t", "T", "TRUE", "true", "True" -> Boolean.TRUE;
                    case "0", "f", "F", "FALSE", "false", "False" -> Boolean.FALSE;
                    default -> null;
                };
                if (on == null) {
                    throw new CommandLine.TypeConversionException("invalid value of " + name + "=" + bool
                            + ", err: strconv.ParseBool: parsing \"" + bool + "\": invalid syntax");
                }
                out.put(gate, on);
            }
            return new Gates(out);
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
                throw new CommandLine.TypeConversionException("invalid duration '" + value
                        + "' (want e.g. 10s, 500ms, 1m30s, or 0 for no bound)");
            }
            return total;
        }
    }
}
