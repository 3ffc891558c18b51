package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrateCommandTest {
    private static final String JOB = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: train   # the nightly run
            spec:
              template:
                spec:
                  restartPolicy: Never
                  containers:
                  - name: main
                    image: trainer:1
                    resources:
                      limits:
                        nvidia.com/gpu: 2
            """;

    @Test
    void diffShowsOnlyWhatChangesAndLeavesTheFileAlone(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("job.yaml"), JOB);
        CliRuns.Run run = CliRuns.run("migrate", "--claims", "--diff", file.toString());
        assertThat(run.status()).isZero();
        assertThat(run.out())
                .startsWith("--- " + file + "\n+++ " + file + "\n@@ -10,5 +10,23 @@\n")
                .contains("-          limits:\n-            nvidia.com/gpu: 2\n+          claims:\n")
                .contains("+      resourceClaims:\n+      - name: devices\n+        resourceClaimTemplateName: "
                        + "train-devices\n");
        assertThat(Files.readString(file)).isEqualTo(JOB);
    }

    @Test
    void inPlaceRewritesTheFile(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("job.yaml"), JOB);
        CliRuns.Run run = CliRuns.run("migrate", "--claims", "--in-place", file.toString());
        assertThat(run.status()).isZero();
        assertThat(run.out()).isEmpty();
        String text = Files.readString(file);
        assertThat(text)
                .startsWith(JOB.substring(0, JOB.indexOf("          limits:")))
                .contains("kind: ResourceClaimTemplate")
                .doesNotContain("nvidia.com/gpu");
    }

    @Test
    void bridgePrintsDeviceClasses(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("job.yaml"), JOB);
        CliRuns.Run run = CliRuns.run("migrate", "--bridge", file.toString());
        assertThat(run.status()).isZero();
        assertThat(run.out())
                .contains("kind: DeviceClass\n")
                .contains("extendedResourceName: nvidia.com/gpu\n")
                .contains("the device plugin wins");
        assertThat(CliRuns.run("migrate", "--bridge", "--diff", file.toString()).status())
                .isEqualTo(2);
        assertThat(CliRuns.run("migrate", "--bridge", "--claims", file.toString())
                        .status())
                .isEqualTo(2);
        assertThat(CliRuns.run("migrate", file.toString()).status()).isEqualTo(2);
    }

    @Test
    void brokenDocumentsAreReportedAndTheRestRewritten(@TempDir Path dir) throws IOException {
        String text = "kind: [broken\n---\n" + JOB;
        Path file = Files.writeString(dir.resolve("two.yaml"), text);
        CliRuns.Run run = CliRuns.run("migrate", "--claims", file.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains(file + ":2:1: error: invalid-yaml: document 1: invalid YAML");
        assertThat(run.out())
                .startsWith("kind: [broken\n---\napiVersion: batch/v1\n")
                .contains("kind: ResourceClaimTemplate");
    }
}
