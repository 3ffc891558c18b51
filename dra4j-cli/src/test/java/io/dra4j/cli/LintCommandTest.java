package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LintCommandTest {
    private static final String BETA1_CLAIM = """
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
    private static final String BAD_CEL = """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata:
              name: broken
            spec:
              selectors:
              - cel:
                  expression: device.driver = 'x'
            """;

    @Test
    void warningsExitFourErrorsExitThree(@TempDir Path dir) throws IOException {
        Path claim = Files.writeString(dir.resolve("claim.yaml"), BETA1_CLAIM);
        CliRuns.Run run = CliRuns.run("lint", "--kubernetes-version", "1.37", claim.toString());
        assertThat(run.status()).isEqualTo(4);
        assertThat(run.out())
                .startsWith(claim + ":1:1: warning: api-version-off-by-default: ResourceClaim default/train:");
        assertThat(run.err()).isEmpty();

        Path bad = Files.writeString(dir.resolve("bad.yaml"), BAD_CEL);
        run = CliRuns.run("lint", "--kubernetes-version", "1.37", "-f", bad.toString(), claim.toString());
        assertThat(run.status()).isEqualTo(3);
        assertThat(run.out())
                .contains(bad + ":8:7: error: cel-compile: DeviceClass broken: " + "spec.selectors[0].cel.expression:");
        assertThat(Files.readString(claim)).isEqualTo(BETA1_CLAIM);
    }

    @Test
    void cleanInputExitsZeroAndSarifIsJson(@TempDir Path dir) throws IOException {
        Path claim = Files.writeString(
                dir.resolve("claim.yaml"),
                BETA1_CLAIM
                        .replace("v1beta1", "v1")
                        .replace(
                                "  deviceClassName: gpu.nvidia.com\n      count: 2",
                                "  exactly:\n        deviceClassName: " + "gpu.nvidia.com\n        count: 2"));
        CliRuns.Run run = CliRuns.run("lint", "--kubernetes-version", "v1.37.2", claim.toString());
        assertThat(run.out()).isEmpty();
        assertThat(run.status()).isZero();
        run = CliRuns.run(
                "lint",
                "--kubernetes-version",
                "1.37",
                "--format",
                "sarif",
                Files.writeString(dir.resolve("b.yaml"), BAD_CEL).toString());
        assertThat(run.status()).isEqualTo(3);
        assertThat(run.out()).contains("\"version\" : \"2.1.0\"", "\"ruleId\" : \"cel-compile\"");
    }

    @Test
    void featureGatesAreReadAndCheckedAsForAllocate(@TempDir Path dir) throws IOException {
        Path claim = Files.writeString(dir.resolve("claim.yaml"), BETA1_CLAIM);
        CliRuns.Run locked = CliRuns.run(
                "lint",
                "--kubernetes-version",
                "1.37",
                "--feature-gates",
                "DRAPrioritizedList=false",
                claim.toString());
        CliRuns.Run allocate = CliRuns.run(
                "allocate",
                "--kubernetes-version",
                "1.37",
                "--feature-gates",
                "DRAPrioritizedList=false",
                claim.toString());
        assertThat(locked.status()).isEqualTo(2);
        assertThat(allocate.status()).isEqualTo(2);
        String refusal = "invalid argument \"DRAPrioritizedList=false\" for \"--feature-gates\" flag: cannot set "
                + "feature gate DRAPrioritizedList to false, feature is locked to true";
        assertThat(locked.err()).contains(refusal);
        assertThat(allocate.err()).contains(refusal);
        // A gate lint does not know from its DRA table, needed by one it does: accepted as kube-scheduler does.
        CliRuns.Run workload = CliRuns.run(
                "lint",
                "--kubernetes-version",
                "1.37",
                "--feature-gates",
                "GenericWorkload=true",
                "--feature-gates",
                "DRAWorkloadResourceClaims=true",
                claim.toString());
        assertThat(workload.status()).isEqualTo(4);
        assertThat(CliRuns.run(
                                "lint",
                                "--kubernetes-version",
                                "1.37",
                                "--feature-gates",
                                "DRAWorkloadResourceClaims=1",
                                claim.toString())
                        .err())
                .contains("DRAWorkloadResourceClaims is enabled, but depends on features that are disabled: "
                        + "[GenericWorkload]");
        assertThat(Files.readString(claim)).isEqualTo(BETA1_CLAIM);
    }

    @Test
    void badUsageAndUnreadableFiles(@TempDir Path dir) {
        assertThat(CliRuns.run("lint", "--kubernetes-version", "1.20", "x.yaml").status())
                .isEqualTo(2);
        assertThat(CliRuns.run(
                                "lint",
                                "--kubernetes-version",
                                "1.37",
                                "--feature-gates",
                                "DRAPrioritizedList",
                                "x.yaml")
                        .status())
                .isEqualTo(2);
        CliRuns.Run run = CliRuns.run(
                "lint",
                "--kubernetes-version",
                "1.37",
                dir.resolve("missing.yaml").toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("missing.yaml: no such file");
    }
}
