package io.dra4j.sim;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How to simulate: the feature gates (DRA's and the scheduler's DRAExtendedResource), kube-scheduler's
 * {@code percentageOfNodesToScore} (0: upstream's adaptive default), what the drivers do with devices that have
 * binding conditions, which sets of pods are gangs besides those that PodGroup objects make, and DynamicResources'
 * {@code filterTimeout}: the bound on one node's allocation in Filter, applied as kube-scheduler applies it (only with
 * the DRASchedulerFilterTimeout gate on and a bound above zero; past it the pod's scheduling attempt fails with the
 * error "node N: timed out trying to allocate devices").
 */
public record SimulationOptions(
        FeatureGates gates,
        int percentageOfNodesToScore,
        BindingConditions bindingConditions,
        List<Gang> gangs,
        Duration filterTimeout) {
    /** DynamicResourcesArgs' default filterTimeout in kube-scheduler 1.37. */
    public static final Duration DEFAULT_FILTER_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Pods marked as gangs ({@code simulate --gang}), each placed all or nothing: by a label key, the pods of a
     * namespace sharing a value of that label form one gang per value ({@code batch.kubernetes.io/job-name} makes
     * each Job's pods a gang, {@code jobset.sigs.k8s.io/jobset-name} each JobSet's); by a label selector in kubectl's
     * {@code -l} syntax, the pods of a namespace that it selects form one gang.
     */
    public record Gang(String text) {
        private static final Pattern KEY =
                Pattern.compile("([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

        /** @throws IllegalArgumentException when it is neither a label key nor a selector that parses */
        public Gang {
            Objects.requireNonNull(text, "text");
            if (!byKey(text)) {
                io.dra4j.sim.whatif.LabelQuery.parse(text);
            }
        }

        /** Whether this is a bare label key (one gang per value) rather than a selector. */
        public boolean byKey() {
            return byKey(text);
        }

        private static boolean byKey(String text) {
            return KEY.matcher(text).matches();
        }
    }

    /**
     * What becomes of binding conditions while a pod waits in DynamicResources' PreBind: the driver sets them after
     * {@code delay} (past the binding timeout of 10 minutes the binding times out), or, with {@code fail}, sets a
     * binding failure condition (a device without failure conditions then times out).
     */
    public record BindingConditions(boolean fail, Duration delay) {
        /** Met at once. */
        public static final BindingConditions MET = new BindingConditions(false, Duration.ZERO);

        public BindingConditions {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("the binding conditions' delay must not be negative, got " + delay);
            }
        }
    }

    public SimulationOptions {
        Objects.requireNonNull(gates, "gates");
        Objects.requireNonNull(bindingConditions, "bindingConditions");
        gangs = List.copyOf(gangs);
        Objects.requireNonNull(filterTimeout, "filterTimeout");
        if (filterTimeout.isNegative()) {
            throw new IllegalArgumentException("filterTimeout must not be negative, got " + filterTimeout);
        }
        if (percentageOfNodesToScore < 0 || percentageOfNodesToScore > 100) {
            throw new IllegalArgumentException(
                    "percentageOfNodesToScore must be between 0 and 100, got " + percentageOfNodesToScore);
        }
    }

    /** kube-scheduler's default filterTimeout. */
    public SimulationOptions(
            FeatureGates gates, int percentageOfNodesToScore, BindingConditions bindingConditions, List<Gang> gangs) {
        this(gates, percentageOfNodesToScore, bindingConditions, gangs, DEFAULT_FILTER_TIMEOUT);
    }

    /** No gangs but those of PodGroup objects. */
    public SimulationOptions(FeatureGates gates, int percentageOfNodesToScore, BindingConditions bindingConditions) {
        this(gates, percentageOfNodesToScore, bindingConditions, List.of());
    }

    /** These options with these gangs. */
    public SimulationOptions withGangs(List<Gang> marked) {
        return new SimulationOptions(gates, percentageOfNodesToScore, bindingConditions, marked, filterTimeout);
    }

    /** These options with this filterTimeout ({@link Duration#ZERO}: no bound). */
    public SimulationOptions withFilterTimeout(Duration timeout) {
        return new SimulationOptions(gates, percentageOfNodesToScore, bindingConditions, gangs, timeout);
    }

    /** The bound on one node's allocation that kube-scheduler would apply with these options, or null for none. */
    public Duration effectiveFilterTimeout() {
        return gates.isEnabled(io.dra4j.allocator.DraFeature.DRASchedulerFilterTimeout) && !filterTimeout.isZero()
                ? filterTimeout
                : null;
    }

    /** Binding conditions met at once. */
    public SimulationOptions(FeatureGates gates, int percentageOfNodesToScore) {
        this(gates, percentageOfNodesToScore, BindingConditions.MET);
    }

    /** Kubernetes 1.37's default gates, adaptive percentage of nodes to score. */
    public static SimulationOptions defaults() {
        return new SimulationOptions(FeatureGates.defaults(KubernetesVersion.V1_37), 0);
    }
}
