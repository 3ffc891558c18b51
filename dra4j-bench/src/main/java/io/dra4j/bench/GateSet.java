package io.dra4j.bench;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The feature gates a side-by-side run uses. {@link #K8S_1_37} is what a Kubernetes 1.37 cluster runs: its default
 * gates plus any gate the workload needs (upstream then uses its incubating allocator, or the experimental one for
 * list-type attributes). {@link #WORKLOAD} switches on only the gates the workload needs, which for most workloads
 * selects upstream's stable allocator, the variant older releases ran.
 */
public enum GateSet {
    K8S_1_37("1.37"),
    WORKLOAD("workload");

    private final String id;

    GateSet(String id) {
        this.id = id;
    }

    /** The name used in JMH parameters, directory names and the table. */
    public String id() {
        return id;
    }

    public static GateSet byId(String id) {
        for (GateSet g : values()) {
            if (g.id.equals(id)) {
                return g;
            }
        }
        throw new IllegalArgumentException("unknown gate set \"" + id + "\"; known: 1.37, workload");
    }

    /** The workload with this gate set's gates. */
    public Workload apply(Workload w) {
        if (this == WORKLOAD) {
            return w;
        }
        Set<DraFeature> on = EnumSet.copyOf(KubernetesVersion.V1_37.defaultGates());
        on.addAll(w.features());
        return w.withFeatures(List.copyOf(on));
    }

    /**
     * Whether this gate set selects another upstream allocator variant for the workload than 1.37's gates do. 1.37's
     * defaults never select the stable variant (binding conditions are on), and a workload whose own gates select a
     * non-stable variant selects the same one with 1.37's defaults added; so the variant differs exactly where the
     * workload's gates alone select the stable one.
     */
    public boolean differsFrom137(Workload w) {
        return this == K8S_1_37 || FeatureGates.of(w.features()).selectsStableVariant();
    }
}
