package io.dra4j.allocator;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An immutable set of DRA feature gates that are on. Every gate not in the set is off.
 */
public final class FeatureGates {
    private final EnumSet<DraFeature> enabled;

    private FeatureGates(EnumSet<DraFeature> enabled) {
        this.enabled = enabled;
    }

    /** Exactly these gates on, every other gate off. */
    public static FeatureGates of(Collection<DraFeature> on) {
        return new FeatureGates(on.isEmpty() ? EnumSet.noneOf(DraFeature.class) : EnumSet.copyOf(on));
    }

    public static FeatureGates of(DraFeature... on) {
        return of(Set.of(on));
    }

    /** The defaults of a Kubernetes release. */
    public static FeatureGates defaults(KubernetesVersion version) {
        return of(version.defaultGates());
    }

    /** The defaults of the newest supported release (1.37). */
    public static FeatureGates defaults() {
        return defaults(KubernetesVersion.LATEST);
    }

    public boolean isEnabled(DraFeature feature) {
        return enabled.contains(feature);
    }

    /**
     * Whether these gates select upstream's stable allocator variant, whose pool order is Go map order upstream
     * (random; dra4j sorts), so that upstream's search-step count varies between runs.
     */
    public boolean selectsStableVariant() {
        return io.dra4j.allocator.internal.EngineFeatures.from(this).stable();
    }

    /** A copy with one gate switched. */
    public FeatureGates with(DraFeature feature, boolean on) {
        EnumSet<DraFeature> copy = EnumSet.copyOf(enabled.isEmpty() ? EnumSet.noneOf(DraFeature.class) : enabled);
        if (on) {
            copy.add(feature);
        } else {
            copy.remove(feature);
        }
        return new FeatureGates(copy);
    }

    public Set<DraFeature> enabled() {
        return enabled.isEmpty() ? Set.of() : Set.copyOf(enabled);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FeatureGates other && other.enabled.equals(enabled);
    }

    @Override
    public int hashCode() {
        return enabled.hashCode();
    }

    @Override
    public String toString() {
        return enabled.stream().map(DraFeature::gateName).collect(Collectors.joining(",", "[", "]"));
    }
}
