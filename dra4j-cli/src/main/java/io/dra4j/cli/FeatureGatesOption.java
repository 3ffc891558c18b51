package io.dra4j.cli;

import io.dra4j.migrate.FeatureGateFlag;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The {@code --feature-gates} value of {@code allocate}, {@code explain} and {@code lint}, read and checked as the
 * release's kube-scheduler reads it ({@link FeatureGateFlag}): a value it refuses is a usage error (exit 2) in
 * pflag's and component-base's words, and component-base's warnings for an accepted one go to standard error.
 */
final class FeatureGatesOption {
    private FeatureGatesOption() {}

    /**
     * The gates the values set (a repeated flag's values in order, as kube-scheduler joins them).
     *
     * @throws CommandLine.ParameterException when the release's kube-scheduler would refuse them
     */
    static Map<String, Boolean> check(CommandLine commandLine, List<String> values, String release) {
        String value = String.join(",", values);
        Map<String, Boolean> settings;
        try {
            settings = FeatureGateFlag.parse(value);
        } catch (IllegalArgumentException e) {
            throw refused(commandLine, value, e.getMessage());
        }
        FeatureGateFlag.refusal(release, settings).ifPresent(why -> {
            throw refused(commandLine, value, why);
        });
        FeatureGateFlag.warnings(release, settings)
                .forEach(w -> commandLine.getErr().println("dra4j: " + w));
        return settings;
    }

    private static CommandLine.ParameterException refused(CommandLine commandLine, String value, String why) {
        return new CommandLine.ParameterException(
                commandLine, "invalid argument \"" + value + "\" for \"--feature-gates\" flag: " + why);
    }
}
