package io.dra4j.sim;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;

import java.time.Duration;
import java.util.Objects;

/**
 * How to simulate: the feature gates (DRA's and the scheduler's DRAExtendedResource), kube-scheduler's
 * {@code percentageOfNodesToScore} (0: upstream's adaptive default), and what the drivers do with devices that have
 * binding conditions.
 */
public record SimulationOptions(FeatureGates gates, int percentageOfNodesToScore, BindingConditions bindingConditions) {
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
        if (percentageOfNodesToScore < 0 || percentageOfNodesToScore > 100) {
            throw new IllegalArgumentException("percentageOfNodesToScore must be between 0 and 100, got "
                    + percentageOfNodesToScore);
        }
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
