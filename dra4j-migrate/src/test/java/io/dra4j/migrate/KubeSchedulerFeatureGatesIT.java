package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.migrate.internal.LintTables;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneBinaries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link FeatureGateFlag} against kube-scheduler 1.37.2 itself: each value goes to {@code kube-scheduler
 * --feature-gates VALUE} (without a kubeconfig, so an accepted value ends in the missing-configuration error), and
 * dra4j must accept what it accepts and refuse the rest with its messages. Several errors are compared as sets:
 * upstream prints them in Go's randomised map order. The generated gate table is also compared with the gates the
 * binary's {@code --help} lists (alpha and beta ones, with their defaults; GA and deprecated gates are not listed).
 */
class KubeSchedulerFeatureGatesIT {
    private static final Pattern FAILED = Pattern.compile("\"command failed\" err=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern HELP_GATE =
            Pattern.compile("kube:(\\w+)=true\\|false \\((ALPHA|BETA) - default=(\\w+)\\)");

    private static final List<String> VALUES = List.of(
            "GenericWorkload=true,DRAWorkloadResourceClaims=true",
            "DRAWorkloadResourceClaims=true",
            "DRAPartitionableDevicesType=true,DRAResourcePoolStatus=true",
            "DRAPartitionableDevicesType=true,DRAPartitionableDevices=false",
            "AllAlpha=true",
            "AllAlpha=true,AllBeta=true",
            "AllAlpha=true,AllBeta=true,GenericWorkload=false",
            "AllBeta=false",
            "AllBeta=false,DRADeviceTaints=false",
            "kube:DRAWorkloadResourceClaims=true,kube:GenericWorkload=true",
            "kube:DRAMagic=true",
            "foo:DRAAdminAccess=true",
            "DRAAdminAccess=true,kube:DRAPrioritizedList=true",
            "DRAAdminAccess=false,DRAPrioritizedList=false",
            "DynamicResourceAllocation=false",
            "DRADeviceTaints=false,DRAFractionalCapacityRange=true,DRAConsumableCapacity=false",
            "RuntimeClassInImageCriApi=true,PodLevelResources=false,NativeHistograms=false",
            "CustomCPUCFSQuotaPeriod=true",
            "DRADeviceTaints=maybe",
            "DRADeviceTaints",
            " DRAListTypeAttributes = true ,,DRADerivedAttributes=1");

    @Test
    void dra4jAcceptsAndRefusesAsKubeScheduler() throws Exception {
        ControlPlaneBinaries binaries = binaries();
        List<String> mismatches = new ArrayList<>();
        for (String value : VALUES) {
            Optional<String> upstream = refusal(run(binaries, "--feature-gates", value));
            Optional<List<String>> dra4j = dra4jErrors(value);
            boolean same = upstream.isEmpty() == dra4j.isEmpty()
                    && (upstream.isEmpty() || sameAggregate(upstream.get(), dra4j.get()));
            if (!same) {
                mismatches.add(value + ": kube-scheduler " + upstream.orElse("accepts") + "; dra4j "
                        + dra4j.map(Object::toString).orElse("accepts"));
            }
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void theTableHoldsTheGatesKubeSchedulerLists() throws Exception {
        String help = run(binaries(), "--help");
        TreeSet<String> listed = new TreeSet<>();
        Matcher m = HELP_GATE.matcher(help);
        while (m.find()) {
            listed.add(m.group(1) + " " + m.group(2) + " " + m.group(3));
        }
        TreeSet<String> table = new TreeSet<>();
        LintTables.get().schedulerGates("1.37").forEach((gate, state) -> {
            if (state.stage().equals("Alpha") || state.stage().equals("Beta")) {
                table.add(gate + " " + state.stage().toUpperCase(java.util.Locale.ROOT) + " " + state.defaultOn());
            }
        });
        assertThat(listed).hasSizeGreaterThan(100);
        assertThat(table).isEqualTo(listed);
    }

    private static ControlPlaneBinaries binaries() {
        ControlPlaneBinaries binaries = ControlPlaneBinaries.locate();
        if (!java.nio.file.Files.isExecutable(binaries.scheduler())) {
            String why = "kube-scheduler is not built in " + binaries.directory();
            if ("1".equals(System.getenv(ControlPlaneAssumptions.REQUIRED))) {
                throw new AssertionError(why);
            }
            Assumptions.abort(why);
        }
        return binaries;
    }

    /** The errors dra4j gives for the value (the aggregate's parts), or empty when it accepts it. */
    private static Optional<List<String>> dra4jErrors(String value) {
        Map<String, Boolean> settings;
        try {
            settings = FeatureGateFlag.parse(value);
        } catch (IllegalArgumentException e) {
            return Optional.of(List.of(e.getMessage()));
        }
        List<String> errors = FeatureGateFlag.errors("1.37", settings);
        return errors.isEmpty() ? Optional.empty() : Optional.of(errors);
    }

    /** The same errors, in any order: one message, or several in utilerrors' brackets. */
    private static boolean sameAggregate(String upstream, List<String> dra4j) {
        if (dra4j.size() == 1) {
            return dra4j.get(0).equals(upstream);
        }
        // Each of dra4j's messages is in upstream's aggregate, and nothing else.
        int length = 2 + String.join(", ", dra4j).length();
        return upstream.startsWith("[")
                && upstream.length() == length
                && dra4j.stream().allMatch(upstream::contains);
    }

    /** The error kube-scheduler stopped with, or empty when it got past the flags (to the missing kubeconfig). */
    private static Optional<String> refusal(String output) {
        Matcher m = FAILED.matcher(output);
        assertThat(m.find()).as("kube-scheduler's output: %s", output).isTrue();
        String err = m.group(1).replace("\\\"", "\"");
        return err.startsWith("invalid configuration: no configuration has been provided")
                ? Optional.empty()
                : Optional.of(err);
    }

    private static String run(ControlPlaneBinaries binaries, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(binaries.scheduler().toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("KUBERNETES_MASTER");
        pb.environment().remove("KUBECONFIG");
        pb.environment().remove("KUBERNETES_SERVICE_HOST");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new String(out, StandardCharsets.UTF_8);
    }
}
