package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.migrate.internal.LintTables;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The allocator's default gates per release ({@link KubernetesVersion}, hand-kept) against the table that
 * scripts/dra-lint-tables generates from each release's pkg/features/kube_features.go: a gate is on by default
 * exactly when the release's own spec says so.
 */
class ReleaseDefaultsTest {
    @Test
    void everyReleasesDefaultGatesAreUpstreamsDefaults() {
        List<String> differences = new ArrayList<>();
        for (KubernetesVersion v : KubernetesVersion.values()) {
            for (DraFeature f : DraFeature.values()) {
                boolean upstream = LintTables.get()
                        .gate(f.gateName(), v.text())
                        .map(LintTables.GateState::defaultOn)
                        .orElse(false);
                boolean dra4j = v.defaultGates().contains(f);
                if (upstream != dra4j) {
                    differences.add(v.text() + " " + f.gateName() + ": upstream " + upstream + ", dra4j " + dra4j);
                }
            }
        }
        assertThat(differences).isEmpty();
    }

    @Test
    void theTableKnowsEveryGateTheAllocatorKnows() {
        for (DraFeature f : DraFeature.values()) {
            assertThat(LintTables.get().knowsGate(f.gateName()))
                    .as(f.gateName())
                    .isTrue();
        }
    }
}
