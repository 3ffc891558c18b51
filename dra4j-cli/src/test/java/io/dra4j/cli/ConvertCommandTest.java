package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConvertCommandTest {
    private static final String BETA1 = """
            # the training claim
            apiVersion: resource.k8s.io/v1beta1
            kind: ResourceClaim
            metadata:
              name: train
            spec:
              devices:
                requests:
                - name: gpus
                  deviceClassName: gpu.nvidia.com
                  count: 2
            """;
    private static final String V1 = """
            # the training claim
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata:
              name: train
            spec:
              devices:
                requests:
                - name: gpus
                  exactly:
                    deviceClassName: gpu.nvidia.com
                    count: 2
            """;

    @Test
    void printsTheConversionAndLeavesTheFileAlone(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("claim.yaml"), BETA1);
        CliRuns.Run run = CliRuns.run("convert", file.toString());
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEqualTo(V1);
        assertThat(run.err()).isEmpty();
        assertThat(Files.readString(file)).isEqualTo(BETA1);
    }

    @Test
    void inPlaceRewritesOnlyFilesWithoutErrors(@TempDir Path dir) throws IOException {
        Path good = Files.writeString(dir.resolve("good.yaml"), BETA1);
        String badText = BETA1 + "---\napiVersion: resource.k8s.io/v1beta1\nkind: Frobnicator\nmetadata: {name: f}\n";
        Path bad = Files.writeString(dir.resolve("bad.yaml"), badText);
        CliRuns.Run run = CliRuns.run("convert", "--in-place", good.toString(), bad.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(Files.readString(good)).isEqualTo(V1);
        assertThat(Files.readString(bad)).isEqualTo(badText);
        assertThat(run.err())
                .contains(bad + ":14:1: error: no-v1-form: Frobnicator f: no kind \"Frobnicator\" is "
                        + "registered for version \"resource.k8s.io/v1beta1\"")
                .contains(bad + ": not rewritten: it has errors");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("good.yaml", "bad.yaml");
        }
    }

    @Test
    void missingFilesAndBadUsage(@TempDir Path dir) throws IOException {
        Path good = Files.writeString(dir.resolve("good.yaml"), BETA1);
        CliRuns.Run run = CliRuns.run("convert", dir.resolve("missing.yaml").toString(), good.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("missing.yaml: no such file");
        assertThat(run.out()).isEqualTo(V1);
        assertThat(CliRuns.run("convert", "--to", "v1beta2", good.toString()).status())
                .isEqualTo(2);
        assertThat(CliRuns.run("convert", "--in-place", "-").status()).isEqualTo(2);
    }
}
