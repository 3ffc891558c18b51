package io.dra4j.cli;

import static io.dra4j.cli.CliRuns.run;
import static io.dra4j.cli.CliRuns.scenario;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kubectl habits: -f, - for stdin, errors on stderr, --exit-code, version, completion, --timeout, --validate. */
class CliHabitsTest {
    @TempDir
    Path dir;

    private static CliRuns.Run withStdin(String stdin, String... args) {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            return run(args);
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void dashReadsStandardInput() {
        CliRuns.Run r = withStdin(CliRuns.SCENARIO.formatted("piped", 1), "allocate", "-o", "json", "-");
        assertThat(r.status()).isZero();
        assertThat(r.jsonLines().get(0).get("scenario").stringValue()).isEqualTo("piped");
        assertThat(r.jsonLines().get(0).get("outcome").stringValue()).isEqualTo("allocated");
    }

    @Test
    void brokenStandardInputIsNamedInTheError() {
        CliRuns.Run r = withStdin("name: [", "allocate", "-f", "-");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains("scenario file <stdin>: malformed YAML at line");
    }

    @Test
    void repeatableFileOptionAndArgumentsRunInOrder() throws IOException {
        Path a = scenario(dir, "a", 1);
        Path b = scenario(dir, "b", 2);
        Path c = scenario(dir, "c", 1);
        CliRuns.Run r = run("allocate", "-o", "json", "-f", a.toString(), "--filename", b.toString(), c.toString());
        assertThat(r.jsonLines())
                .extracting(n -> n.get("scenario").stringValue())
                .containsExactly("a", "b", "c");
    }

    @Test
    void noInputIsBadUsage() {
        CliRuns.Run r = run("allocate");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("no input");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void errorsGoToStandardErrorAndTextOutputStaysClean() throws IOException {
        Path good = scenario(dir, "good", 1);
        Path missing = dir.resolve("missing.yaml");
        CliRuns.Run r = run("allocate", missing.toString(), good.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains(missing.toString()).contains("no such file");
        assertThat(r.out()).contains("good").doesNotContain("no such file");

        CliRuns.Run x = run("explain", missing.toString(), good.toString());
        assertThat(x.status()).isEqualTo(1);
        assertThat(x.err()).contains("no such file");
        assertThat(x.out()).doesNotContain("no such file");
    }

    @Test
    void unreadableDirectoryAndPermissionDenied() throws IOException {
        CliRuns.Run d = run("allocate", dir.toString());
        assertThat(d.status()).isEqualTo(1);
        assertThat(d.err()).contains("is a directory");
        Path locked = scenario(dir, "locked", 1);
        if (locked.toFile().setReadable(false) && !Files.isReadable(locked)) {
            CliRuns.Run p = run("allocate", locked.toString());
            assertThat(p.status()).isEqualTo(1);
            assertThat(p.err()).contains("permission denied");
        }
    }

    @Test
    void exitCodeOptionFailsOnUnschedulable() throws IOException {
        Path fits = scenario(dir, "fits", 1);
        Path tooMany = scenario(dir, "too-many", 2);
        assertThat(run("allocate", fits.toString(), tooMany.toString()).status())
                .isZero();
        assertThat(run("allocate", "--exit-code", fits.toString(), tooMany.toString())
                        .status())
                .isEqualTo(3);
        assertThat(run("allocate", "--exit-code", fits.toString()).status()).isZero();
        assertThat(run("explain", "--exit-code", tooMany.toString()).status()).isEqualTo(3);
    }

    @Test
    void validationIsOnByDefaultAndCanBeTurnedOff() throws IOException {
        Path negative = dir.resolve("negative.yaml");
        Files.writeString(negative, CliRuns.SCENARIO.formatted("negative", -3));
        CliRuns.Run r = run("allocate", "-o", "json", negative.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err())
                .contains("spec.devices.requests[0].exactly.count: Invalid value: -3: must be greater than zero");
        CliRuns.Run off = run("allocate", "--validate=false", "-o", "json", negative.toString());
        assertThat(off.status()).isZero();
    }

    @Test
    void timeoutAcceptsGoDurationsAndRejectsOthers() throws IOException {
        Path fits = scenario(dir, "fits", 1);
        assertThat(run("allocate", "--timeout", "1m30s", fits.toString()).status())
                .isZero();
        assertThat(run("allocate", "--timeout", "0", fits.toString()).status()).isZero();
        CliRuns.Run bad = run("allocate", "--timeout", "soon", fits.toString());
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).contains("invalid duration 'soon'");
        assertThat(new Inputs.DurationConverter().convert("500ms").toMillis()).isEqualTo(500);
        assertThat(new Inputs.DurationConverter().convert("1h2m3s").getSeconds())
                .isEqualTo(3723);
    }

    @Test
    void featureGatesInKubeSchedulersSyntax() throws IOException {
        Path fits = scenario(dir, "fits", 1);
        assertThat(run(
                                "allocate",
                                "--feature-gates",
                                "DRAPrioritizedList=true,DRADeviceTaints=false,DRADeviceTaintRules=false",
                                fits.toString())
                        .status())
                .isZero();
        CliRuns.Run unknown = run("allocate", "--feature-gates", "DRAMagic=true", fits.toString());
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("unrecognized feature gate: DRAMagic");
        CliRuns.Run bad = run("allocate", "--feature-gates", "DRADeviceTaints=maybe", fits.toString());
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err())
                .contains(
                        "invalid value of DRADeviceTaints=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax");
        assertThat(run("allocate", "--feature-gates", "DRADeviceTaints", fits.toString())
                        .err())
                .contains("missing bool value for DRADeviceTaints");
    }

    @Test
    void featureGatesThatTheReleaseRefusesAreRefused() throws IOException {
        Path fits = scenario(dir, "fits", 1);
        String before = Files.readString(fits);
        CliRuns.Run locked = run("allocate", "--feature-gates", "DRAPrioritizedList=false", fits.toString());
        assertThat(locked.status()).isEqualTo(2);
        assertThat(locked.out()).isEmpty();
        assertThat(locked.err())
                .contains("invalid argument \"DRAPrioritizedList=false\" for \"--feature-gates\" flag: cannot set "
                        + "feature gate DRAPrioritizedList to false, feature is locked to true");
        CliRuns.Run dependency = run("explain", "--feature-gates", "DRADeviceTaints=false", fits.toString());
        assertThat(dependency.status()).isEqualTo(2);
        assertThat(dependency.err())
                .contains("DRADeviceTaintRules is enabled, but depends on features that are disabled: "
                        + "[DRADeviceTaints]");
        // 1.36 does not lock DRAPrioritizedList yet; 1.34 has no DRADerivedAttributes gate.
        CliRuns.Run older = run(
                "allocate",
                "--kubernetes-version",
                "1.36",
                "--feature-gates",
                "DRAPrioritizedList=false",
                fits.toString());
        assertThat(older.status()).isZero();
        assertThat(older.err())
                .contains("\"Warning: setting GA feature gate. It will be removed in a future release.\" "
                        + "featureGate=\"DRAPrioritizedList\" value=false");
        assertThat(run(
                                "allocate",
                                "--kubernetes-version",
                                "1.34",
                                "--feature-gates",
                                "DRADerivedAttributes=true",
                                fits.toString())
                        .err())
                .contains("unrecognized feature gate: DRADerivedAttributes");
        assertThat(Files.readString(fits)).isEqualTo(before);
    }

    @Test
    void gatesDra4jDoesNotModelAreAcceptedAndNamed() throws IOException {
        Path fits = scenario(dir, "fits", 1);
        String before = Files.readString(fits);
        // DRAWorkloadResourceClaims needs GenericWorkload, which kube-scheduler knows and dra4j does not model.
        CliRuns.Run workload = run(
                "allocate", "--feature-gates", "GenericWorkload=true,DRAWorkloadResourceClaims=true", fits.toString());
        assertThat(workload.status()).isZero();
        assertThat(workload.err())
                .isEqualTo("dra4j: feature gate GenericWorkload=true: accepted as kube-scheduler accepts it; dra4j "
                        + "does not model it\n");
        // The flag repeats as kube-scheduler's does, with its kube: prefix.
        CliRuns.Run repeated = run(
                "explain",
                "--feature-gates",
                "kube:DRAPartitionableDevicesType=true",
                "--feature-gates",
                "kube:DRAResourcePoolStatus=true",
                fits.toString());
        assertThat(repeated.status()).isZero();
        assertThat(repeated.err())
                .contains("feature gate DRAPartitionableDevicesType=true: accepted as kube-scheduler accepts it")
                .contains("feature gate DRAResourcePoolStatus=true: accepted as kube-scheduler accepts it");
        CliRuns.Run all = run("allocate", "--feature-gates", "AllAlpha=true,AllBeta=true", fits.toString());
        assertThat(all.status()).isZero();
        assertThat(all.err())
                .contains("dra4j: feature gate AllAlpha=true: dra4j applies it to the DRA gates it models; it does "
                        + "not model the other gates it sets");
        CliRuns.Run alone = run("allocate", "--feature-gates", "AllAlpha=true", fits.toString());
        assertThat(alone.status()).isEqualTo(2);
        assertThat(alone.err())
                .contains("CompositePodGroup is enabled, but depends on features that are disabled: "
                        + "[GenericWorkload]");
        // 1.34 does not lock DynamicResourceAllocation, but dra4j only allocates with DRA on.
        CliRuns.Run off = run(
                "allocate",
                "--kubernetes-version",
                "1.34",
                "--feature-gates",
                "DynamicResourceAllocation=false",
                fits.toString());
        assertThat(off.status()).isEqualTo(2);
        assertThat(off.out()).isEmpty();
        assertThat(off.err())
                .contains("--feature-gates: DynamicResourceAllocation=false turns kube-scheduler's DynamicResources "
                        + "plugin off; dra4j allocates devices only with it on");
        assertThat(Files.readString(fits)).isEqualTo(before);
    }

    @Test
    void featureGateOverridesChangeTheDecision() throws IOException {
        Path tainted = dir.resolve("tainted.yaml");
        Files.writeString(
                tainted,
                CliRuns.SCENARIO
                        .formatted("tainted", 1)
                        .replace("features: []", "features: [DRADeviceTaints]")
                        .replace(
                                "    - name: gpu-0\n",
                                "    - name: gpu-0\n      taints:\n      - {key: broken, effect: NoSchedule}\n"));
        assertThat(run("allocate", "-o", "json", tainted.toString())
                        .jsonLines()
                        .get(0)
                        .get("outcome")
                        .stringValue())
                .isEqualTo("unschedulable");
        assertThat(run(
                                "allocate",
                                "-o",
                                "json",
                                "--feature-gates",
                                "DRADeviceTaints=false,DRADeviceTaintRules=false",
                                tainted.toString())
                        .jsonLines()
                        .get(0)
                        .get("outcome")
                        .stringValue())
                .isEqualTo("allocated");
    }

    @Test
    void versionNamesDra4jsVersionAndTheKubernetesRelease() {
        CliRuns.Run flag = run("--version");
        CliRuns.Run command = run("version");
        assertThat(flag.status()).isZero();
        assertThat(command.status()).isZero();
        assertThat(flag.out()).isEqualTo(command.out());
        assertThat(flag.out())
                .matches("dra4j \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?, follows Kubernetes 1\\.37 "
                        + "\\(allocation as k8s\\.io/dynamic-resource-allocation v0\\.37\\.2\\)\\R");
    }

    @Test
    void shellCompletionScriptIsGenerated() {
        CliRuns.Run r = run("generate-completion");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("complete -F").contains("allocate").contains("explain");
    }
}
