package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.KubernetesVersion;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Counter details print the amounts as canonical quantities, as capacity details do, never as plain numbers. */
class ExplainCounterTextTest {

    @Test
    void counterAmountsAreCanonicalQuantities() throws Exception {
        Path file = RepoPaths.repoRoot()
                .resolve("dra4j-scenario/src/test/resources/explain-counters/counter-quantity.yaml");
        Scenario s = ScenarioReader.read(file);
        String text = ExplanationWriter.text(s.name(), ScenarioRunner.explain(s, KubernetesVersion.LATEST));
        // gpu-0 consumes 80Gi of the 80Gi memory counter; the allocated 1g.10gb partition holds 10Gi of it.
        assertThat(text)
                .contains("counter set gpu-0-counters: memory needs 80Gi, 70Gi free")
                .doesNotContain("85899345920")
                .doesNotContain("75161927680");
    }
}
