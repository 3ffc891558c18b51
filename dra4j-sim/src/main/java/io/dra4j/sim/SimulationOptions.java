package io.dra4j.sim;

import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;

import java.util.Objects;

/**
 * How to simulate: the feature gates (DRA's and the scheduler's DRAExtendedResource) and kube-scheduler's
 * {@code percentageOfNodesToScore} (0: upstream's adaptive default).
 */
public record SimulationOptions(FeatureGates gates, int percentageOfNodesToScore) {
    public SimulationOptions {
        Objects.requireNonNull(gates, "gates");
        if (percentageOfNodesToScore < 0 || percentageOfNodesToScore > 100) {
            throw new IllegalArgumentException("percentageOfNodesToScore must be between 0 and 100, got "
                    + percentageOfNodesToScore);
        }
    }

    /** Kubernetes 1.37's default gates, adaptive percentage of nodes to score. */
    public static SimulationOptions defaults() {
        return new SimulationOptions(FeatureGates.defaults(KubernetesVersion.V1_37), 0);
    }
}
