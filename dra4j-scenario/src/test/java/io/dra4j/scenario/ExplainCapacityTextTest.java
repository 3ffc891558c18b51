package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.KubernetesVersion;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Capacity details print the free amount in the format of the amount asked: canonical quantities. */
class ExplainCapacityTextTest {

    @Test
    void freeCapacityIsACanonicalQuantity() throws Exception {
        Path file = RepoPaths.repoRoot()
                .resolve("dra4j-scenario/src/test/resources/explain-capacity/free-capacity-quantity.yaml");
        Scenario s = ScenarioReader.read(file);
        String text = ExplanationWriter.text(s.name(), ScenarioRunner.explain(s, KubernetesVersion.LATEST));
        // 40Gi of capacity less the 20Gi a share consumes; resource.Quantity's String prints 20Gi.
        assertThat(text).contains("memory asked 40Gi, free 20Gi").doesNotContain("21474836480");
    }
}
