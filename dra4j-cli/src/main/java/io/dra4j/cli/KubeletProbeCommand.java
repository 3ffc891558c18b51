package io.dra4j.cli;

import io.dra4j.kubelet.probe.KubeletProbe;
import io.dra4j.kubelet.probe.ProbeOptions;
import io.dra4j.kubelet.probe.ProbeReport;
import io.dra4j.scenario.ManifestReader;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dra4j kubelet-probe}: the kubelet stand-in that tests DRA drivers and device plugins. */
@Command(
        name = "kubelet-probe",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 100,
        description = "Acts as the kubelet towards the plugins of a node: registers DRA drivers from the registry "
                + "directory, prepares and unprepares claims (twice, for idempotency), checks answers and CDI specs, "
                + "registers again; drives device plugins through Register, ListAndWatch, Allocate and a kubelet "
                + "restart. Exit status 0 when every check passed, 1 when one failed, 2 on bad usage.")
final class KubeletProbeCommand implements Callable<Integer> {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--kubelet-root",
            defaultValue = "/var/lib/kubelet",
            description = "The kubelet root directory: plugins_registry/ and device-plugins/ are under it.")
    Path kubeletRoot;

    @Option(
            names = "--claims",
            description = "Manifest files with the allocated ResourceClaims to prepare (and the "
                    + "node's ResourceSlices, to find devices a device plugin advertises too).")
    List<Path> claimFiles;

    @Option(
            names = "--live",
            description = "Take the claims allocated to --node-name, and the node's ResourceSlices, "
                    + "from the API server.")
    boolean live;

    @Option(names = "--kubeconfig", description = "Kubeconfig for --live.")
    Path kubeconfig;

    @Option(
            names = "--node-name",
            defaultValue = "${env:NODE_NAME}",
            description = "This node (claims for others are skipped).")
    String nodeName;

    @Option(
            names = "--cdi-dir",
            defaultValue = "/var/run/cdi,/etc/cdi",
            split = ",",
            description = "CDI spec directories (default: /var/run/cdi,/etc/cdi).")
    List<Path> cdiDirs;

    @Option(names = "--wait", defaultValue = "10", description = "Seconds to wait for plugins to appear or register.")
    long waitSeconds;

    @Option(
            names = "--health-watch",
            defaultValue = "0",
            description =
                    "Seconds to keep reading a DRA driver's health stream while its claims are prepared, as the "
                            + "kubelet keeps their pods' device health (reports time out after their "
                            + "health_check_timeout_seconds, else 30 s, and then read Unknown); 0 checks the first update only.")
    long healthWatchSeconds;

    @Option(names = "--no-dra", description = "Skip DRA drivers.")
    boolean noDra;

    @Option(names = "--no-device-plugins", description = "Skip device plugins.")
    boolean noDevicePlugins;

    @Option(names = "--junit", description = "Also write the report as JUnit XML to this file.")
    Path junit;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (healthWatchSeconds < 0) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--health-watch: " + healthWatchSeconds + " is negative");
        }
        List<ResourceClaim> claims = List.of();
        List<ResourceSlice> slices = List.of();
        if (claimFiles != null) {
            claims = NodeRuntime.claims(claimFiles, err);
            if (claims == null) {
                return 1;
            }
            slices = ManifestReader.read(claimFiles.toArray(Path[]::new)).resourceSlices();
        } else if (live) {
            try (KubernetesClient client = NodeRuntime.client(kubeconfig)) {
                claims = client.resources(ResourceClaim.class)
                        .inAnyNamespace()
                        .list()
                        .getItems();
                slices = client.resources(ResourceSlice.class).list().getItems();
            } catch (RuntimeException e) {
                err.println("dra4j: cannot list ResourceClaims and ResourceSlices: " + e.getMessage());
                return 1;
            }
        }
        ProbeReport report = new KubeletProbe(new ProbeOptions(
                        kubeletRoot,
                        cdiDirs,
                        claims,
                        nodeName,
                        Duration.ofSeconds(waitSeconds),
                        !noDra,
                        !noDevicePlugins,
                        slices,
                        Duration.ofSeconds(healthWatchSeconds)))
                .run();
        report.print(out);
        if (junit != null) {
            try {
                report.writeJUnit(junit);
            } catch (IOException e) {
                err.println("dra4j: cannot write " + junit + ": " + e.getMessage());
                return 1;
            }
        }
        return report.passed() ? 0 : 1;
    }
}
