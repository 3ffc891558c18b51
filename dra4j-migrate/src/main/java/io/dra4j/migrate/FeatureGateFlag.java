package io.dra4j.migrate;

import io.dra4j.migrate.internal.LintTables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * kube-scheduler's {@code --feature-gates} of one Kubernetes release, over the gate tables generated from that
 * release's sources (every gate its feature gate knows, DRA or not): the syntax as component-base's
 * ColonSeparatedMultimapStringString and featureGate.Set read it, and what its unsafeSetFromMap refuses (a gate the
 * release does not have, a gate locked to its default set to the other value, a gate that ends up on while a gate
 * it depends on ends up off). The messages are upstream's. {@code allocate}, {@code explain} and {@code lint} all
 * read the flag through this class.
 */
public final class FeatureGateFlag {
    private static final String ALL_ALPHA = "AllAlpha";
    private static final String ALL_BETA = "AllBeta";

    private FeatureGateFlag() {}

    /**
     * The gates a {@code --feature-gates} value sets (the values of a repeated flag joined with commas), in the order
     * given; a gate named twice keeps its last value, as upstream's map does. Pairs may carry kube-scheduler's
     * component prefix {@code kube:}.
     *
     * @throws IllegalArgumentException with component-base's message when the value is not that syntax
     */
    public static Map<String, Boolean> parse(String value) {
        // ColonSeparatedMultimapStringString: pairs split on ',', an optional "component:" before each.
        List<String> unprefixed = new ArrayList<>();
        List<String> kube = new ArrayList<>();
        for (String pair : value.split(",", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int colon = pair.indexOf(':');
            if (colon < 0) {
                unprefixed.add(pair.strip());
                continue;
            }
            String component = pair.substring(0, colon).strip();
            if (!component.equals("kube")) {
                throw new IllegalArgumentException("component not registered: " + component);
            }
            kube.add(pair.substring(colon + 1).strip());
        }
        if (!unprefixed.isEmpty() && !kube.isEmpty()) {
            throw new IllegalArgumentException(
                    "set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use");
        }
        // featureGate.Set over the component's pairs joined again.
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (String s :
                String.join(",", unprefixed.isEmpty() ? kube : unprefixed).split(",", -1)) {
            if (s.isEmpty()) {
                continue;
            }
            int eq = s.indexOf('=');
            String k = (eq < 0 ? s : s.substring(0, eq)).strip();
            if (eq < 0) {
                throw new IllegalArgumentException("missing bool value for " + k);
            }
            String v = s.substring(eq + 1).strip();
            Boolean on = switch (v) {
                case "1", "t", "T", "TRUE", "true", "True" -> Boolean.TRUE;
                case "0", "f", "F", "FALSE", "false", "False" -> Boolean.FALSE;
                default -> null;
            };
            if (on == null) {
                throw new IllegalArgumentException("invalid value of " + k + "=" + v
                        + ", err: strconv.ParseBool: parsing \"" + v + "\": invalid syntax");
            }
            out.remove(k);
            out.put(k, on);
        }
        return out;
    }

    /**
     * Why kube-scheduler of {@code release} (e.g. {@code 1.37}) would refuse these settings, in the words of
     * component-base; empty when they are accepted. Several errors read as utilerrors' aggregate prints them,
     * {@code [first, second]}. Upstream walks Go maps here (the settings, then the dependency map), whose order is
     * randomised on each run: which of two unknown gates it names, whether locked gates met before an unknown one are
     * listed beside it, and the order of several errors vary from run to run. dra4j takes one of those orders and
     * keeps it: the settings in the order given, then the dependency map in its source order.
     */
    public static Optional<String> refusal(String release, Map<String, Boolean> settings) {
        List<String> errors = errors(release, settings);
        return errors.isEmpty() ? Optional.empty() : Optional.of(aggregate(errors));
    }

    /** The distinct errors of {@link #refusal}, in its order: the parts of its aggregate. */
    public static List<String> errors(String release, Map<String, Boolean> settings) {
        LintTables tables = LintTables.get();
        // Each setting alone: an unknown gate ends the check at once, locked ones are collected.
        List<String> errors = new ArrayList<>();
        for (Map.Entry<String, Boolean> e : settings.entrySet()) {
            Optional<LintTables.GateState> state = tables.schedulerGate(e.getKey(), release);
            if (state.isEmpty()) {
                errors.add("unrecognized feature gate: " + e.getKey());
                return errors.stream().distinct().toList();
            }
            if (state.get().locked() && state.get().defaultOn() != e.getValue()) {
                errors.add("cannot set feature gate " + e.getKey() + " to " + e.getValue() + ", feature is locked to "
                        + state.get().defaultOn());
            } else if (state.get().stage().equals("PreAlpha")) {
                errors.add("cannot set feature gate " + e.getKey() + " to " + e.getValue()
                        + ", feature is PreAlpha at emulated version " + release + ", min compatibility version "
                        + previous(release));
            }
        }
        if (!errors.isEmpty()) {
            return errors.stream().distinct().toList();
        }
        // Then every gate that ends up on needs each gate it depends on to end up on.
        Map<String, Boolean> enabled = enabled(release, settings);
        for (Map.Entry<String, List<LintTables.Dependency>> e :
                tables.dependencies(release).entrySet()) {
            if (!enabled.getOrDefault(e.getKey(), false)) {
                continue;
            }
            List<String> disabled = e.getValue().stream()
                    .filter(d -> !enabled.getOrDefault(d.gate(), false))
                    .map(LintTables.Dependency::gate)
                    .toList();
            if (!disabled.isEmpty()) {
                errors.add(e.getKey() + " is enabled, but depends on features that are disabled: "
                        + disabled.stream().collect(Collectors.joining(" ", "[", "]")));
            }
        }
        return errors.stream().distinct().toList();
    }

    /**
     * The gates these (accepted) settings set, by name or through AllAlpha and AllBeta (which set every alpha or beta
     * gate of the release not set by name), with their values; the special gates themselves are left out.
     */
    public static Map<String, Boolean> overrides(String release, Map<String, Boolean> settings) {
        Map<String, Boolean> out = new LinkedHashMap<>();
        LintTables.get().schedulerGates(release).forEach((gate, state) -> {
            if (gate.equals(ALL_ALPHA) || gate.equals(ALL_BETA)) {
                return;
            }
            if (settings.containsKey(gate)) {
                out.put(gate, settings.get(gate));
            } else if (state.stage().equals("Alpha") && settings.containsKey(ALL_ALPHA)) {
                out.put(gate, settings.get(ALL_ALPHA));
            } else if (state.stage().equals("Beta") && settings.containsKey(ALL_BETA)) {
                out.put(gate, settings.get(ALL_BETA));
            }
        });
        return out;
    }

    /**
     * Every gate of the release's kube-scheduler and whether it is on with these (accepted) settings: the release's
     * defaults, then {@link #overrides}.
     */
    public static Map<String, Boolean> enabled(String release, Map<String, Boolean> settings) {
        Map<String, Boolean> set = overrides(release, settings);
        Map<String, Boolean> out = new LinkedHashMap<>();
        LintTables.get()
                .schedulerGates(release)
                .forEach((gate, state) ->
                        out.put(gate, set.getOrDefault(gate, settings.getOrDefault(gate, state.defaultOn()))));
        return out;
    }

    /**
     * The warnings component-base logs for accepted settings: setting a GA or deprecated gate (klog's structured
     * line without its header).
     */
    public static List<String> warnings(String release, Map<String, Boolean> settings) {
        List<String> out = new ArrayList<>();
        settings.forEach((gate, on) -> LintTables.get()
                .schedulerGate(gate, release)
                .ifPresent(state -> {
                    String stage =
                            state.stage().equals("GA") ? "GA" : state.stage().equals("Deprecated") ? "deprecated" : "";
                    if (!stage.isEmpty()) {
                        out.add("\"Warning: setting " + stage
                                + " feature gate. It will be removed in a future release.\" " + "featureGate=\"" + gate
                                + "\" value=" + on);
                    }
                }));
        return out;
    }

    /** The release before {@code release}: kube-scheduler's default --min-compatibility-version. */
    private static String previous(String release) {
        String[] parts = release.split("\\.");
        return parts[0] + "." + (Integer.parseInt(parts[1]) - 1);
    }

    /** k8s.io/apimachinery's utilerrors aggregate: one message alone, several (distinct) ones in brackets. */
    private static String aggregate(List<String> errors) {
        return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
    }
}
