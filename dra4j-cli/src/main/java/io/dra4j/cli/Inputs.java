package io.dra4j.cli;

import io.dra4j.scenario.Scenario;
import io.dra4j.scenario.ScenarioException;
import io.dra4j.scenario.ScenarioReader;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
