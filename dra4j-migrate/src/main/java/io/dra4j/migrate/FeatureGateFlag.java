package io.dra4j.migrate;

import io.dra4j.migrate.internal.LintTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What k8s.io/component-base's featuregate refuses in a {@code --feature-gates} value of one Kubernetes release (its
 * {@code unsafeSetFromMap}), over the DRA gate tables generated from that release's pkg/features/kube_features.go: a
 * gate the release does not have, a gate locked to its default set to the other value, and a gate that ends up on
 * while a gate it depends on ends up off. The messages are upstream's.
 */
public final class FeatureGateFlag {
    private FeatureGateFlag() {}

    /**
     * Why kube-scheduler or kube-apiserver of {@code release} (e.g. {@code 1.37}) would refuse these settings, in the
     * words of component-base; empty when they are accepted. Several errors read as utilerrors' aggregate prints them,
     * {@code [first, second]}; upstream iterates maps, so where it finds several it lists them in random order, dra4j
     * in the order of {@code settings} (then of the dependency table).
     */
    public static Optional<String> refusal(String release, Map<String, Boolean> settings) {
        LintTables tables = LintTables.get();
        // Each setting alone: unknown gates end the check at once, locked ones are collected.
        List<String> errors = new ArrayList<>();
        for (Map.Entry<String, Boolean> e : settings.entrySet()) {
            Optional<LintTables.GateState> state = tables.gate(e.getKey(), release);
            if (state.isEmpty()) {
                errors.add("unrecognized feature gate: " + e.getKey());
                return Optional.of(aggregate(errors));
            }
            if (state.get().locked() && state.get().defaultOn() != e.getValue()) {
                errors.add("cannot set feature gate " + e.getKey() + " to " + e.getValue() + ", feature is locked to "
                        + state.get().defaultOn());
            }
        }
        if (!errors.isEmpty()) {
            return Optional.of(aggregate(errors));
        }
        // Then every gate that ends up on needs each gate it depends on to end up on.
        for (Map.Entry<String, List<LintTables.Dependency>> e :
                tables.dependencies(release).entrySet()) {
            if (!enabled(e.getKey(), release, settings, tables)) {
                continue;
            }
            List<String> disabled = e.getValue().stream()
                    .filter(d -> !settings.getOrDefault(d.gate(), d.state().defaultOn()))
                    .map(LintTables.Dependency::gate)
                    .toList();
            if (!disabled.isEmpty()) {
                errors.add(e.getKey() + " is enabled, but depends on features that are disabled: "
                        + disabled.stream().collect(Collectors.joining(" ", "[", "]")));
            }
        }
        return errors.isEmpty() ? Optional.empty() : Optional.of(aggregate(errors));
    }

    /**
     * The warnings component-base logs for accepted settings: setting a GA or deprecated gate (klog's structured
     * line without its header).
     */
    public static List<String> warnings(String release, Map<String, Boolean> settings) {
        List<String> out = new ArrayList<>();
        settings.forEach((gate, on) -> LintTables.get().gate(gate, release).ifPresent(state -> {
            String stage = state.stage().equals("GA") ? "GA" : state.stage().equals("Deprecated") ? "deprecated" : "";
            if (!stage.isEmpty()) {
                out.add("\"Warning: setting " + stage + " feature gate. It will be removed in a future release.\" "
                        + "featureGate=\"" + gate + "\" value=" + on);
            }
        }));
        return out;
    }

    private static boolean enabled(String gate, String release, Map<String, Boolean> settings, LintTables tables) {
        return settings.getOrDefault(
                gate,
                tables.gate(gate, release).map(LintTables.GateState::defaultOn).orElse(false));
    }

    /** k8s.io/apimachinery's utilerrors aggregate: one message alone, several distinct ones in brackets. */
    private static String aggregate(List<String> errors) {
        List<String> distinct = errors.stream().distinct().toList();
        return distinct.size() == 1 ? distinct.get(0) : "[" + String.join(", ", distinct) + "]";
    }
}
