package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code --compare} and {@code --mapping}: bad usage, a bad mapping file, and an override that takes effect. */
class CompareMappingTest {
    @Test
    void anUnknownComparisonIsBadUsage() {
        CliRuns.Run run = CliRuns.run("simulate", "--compare", "gpus");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--compare takes device-plugins, got gpus");
    }

    @Test
    void aMappingWithoutCompareIsBadUsage(@TempDir Path dir) throws IOException {
        Path m = Files.writeString(dir.resolve("m.yaml"), "requests: {}\n");
        CliRuns.Run run = CliRuns.run("simulate", "--mapping", m.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--mapping goes with --compare device-plugins");
    }

    @Test
    void aBadMappingNamesFileAndEntry(@TempDir Path dir) throws IOException {
        Path m = Files.writeString(dir.resolve("m.yaml"), "requests:\n  research/mig-3g/mig: {count: 1}\n");
        CliRuns.Run run = CliRuns.run("simulate", "--compare", "device-plugins", "--mapping", m.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err())
                .contains(m + ": requests.research/mig-3g/mig: resource (a string) and count")
                .doesNotContain("Exception");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aMigLayoutOverrideServesTheMediumPartitions(@TempDir Path dir) throws IOException {
        Path m = Files.writeString(dir.resolve("m.yaml"), """
                migLayout:
                  NVIDIA A100-SXM4-40GB: [3g.20gb, 3g.20gb]
                requests:
                  monitoring/all-gpus-admin/gpus: {resource: nvidia.com/gpu, count: 0}
                """);
        JsonNode byDefault = compare();
        CliRuns.Run run =
                CliRuns.run("simulate", "--compare", "device-plugins", "-o", "json", "--mapping", m.toString());
        assertThat(run.status()).as(run.err()).isZero();
        JsonNode c = JsonMapper.builder().build().readTree(run.out()).get("comparison");
        // 16 A100 laid out as two 3g.20gb each: the 30 medium jobs fit, the 12 small ones find no 1g.5gb partition.
        assertThat(c.get("devicePlugins").get("pending").asLong())
                .isEqualTo(byDefault.get("devicePlugins").get("pending").asLong() - 30 + 12);
        assertThat(c.get("dra")).isEqualTo(byDefault.get("dra"));
        assertThat(c.get("mapping").toString())
                .contains("monitoring/all-gpus-admin/gpus -> nothing (dropped)", "overridden by " + m);
    }

    private static JsonNode compare() {
        CliRuns.Run run = CliRuns.run("simulate", "--compare", "device-plugins", "-o", "json");
        assertThat(run.status()).as(run.err()).isZero();
        return JsonMapper.builder().build().readTree(run.out()).get("comparison");
    }
}
