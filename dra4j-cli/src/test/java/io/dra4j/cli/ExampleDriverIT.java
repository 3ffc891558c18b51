package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dra4j.testkit.controlplane.ControlPlane;
import io.dra4j.testkit.controlplane.ControlPlaneAssumptions;
import io.dra4j.testkit.controlplane.ControlPlaneOptions;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream's example DRA driver (kubernetes-sigs/dra-example-driver's kubelet plugin, built from the Go module proxy
 * by {@code scripts/build-example-driver}) passes {@code dra4j kubelet-probe}: it publishes its GPUs to a real
 * kube-apiserver, reads the claim allocated to one of them from there, and the probe registers it and prepares and
 * unprepares the claim as the kubelet would. Its sockets are owner-only only when the umask makes them so, which the
 * probe reports. Skipped when the binary is not built, unless
 * {@value #REQUIRED}{@code =1}.
 */
class ExampleDriverIT {
    static final String REQUIRED = "DRA4J_EXAMPLE_DRIVER_REQUIRED";
    static final String DRIVER = "gpu.example.com";

    @TempDir
    Path tmp;

    static Path binary() {
        String explicit = System.getenv("DRA4J_EXAMPLE_DRIVER");
        Path path = explicit != null && !explicit.isBlank()
                ? Path.of(explicit)
                : Path.of(
                        System.getProperty("user.home"),
                        ".cache",
                        "dra4j",
                        "dra-example-driver-v0.4.0",
                        "bin",
                        "dra-example-kubeletplugin");
        if (!Files.isExecutable(path)) {
            String reason = "upstream's example driver is not built: " + path
                    + " missing (run scripts/build-example-driver, or set DRA4J_EXAMPLE_DRIVER)";
            if ("1".equals(System.getenv(REQUIRED))) {
                throw new AssertionError(reason + "; " + REQUIRED + "=1 says it must be there");
            }
            assumeTrue(false, reason);
        }
        return path;
    }

    /** The probe's output and exit status against the example driver started with {@code umask}. */
    private record ProbeRun(int status, String output) {}

    private ProbeRun probeExampleDriver(Path driverBinary, ControlPlane plane, String node, String umask)
            throws Exception {
        KubernetesClient client = plane.client();
        client.resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(node)
                        .endMetadata()
                        .build())
                .create();
        client.resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(node)
                        .endMetadata()
                        .build())
                .create();
        Path root = Files.createDirectories(tmp.resolve(node).resolve("kubelet"));
        Path registry = Files.createDirectories(root.resolve("plugins_registry"));
        Path plugins = Files.createDirectories(root.resolve("plugins"));
        Path cdi = Files.createDirectories(tmp.resolve(node).resolve("cdi"));
        Path log = tmp.resolve(node).resolve("example-driver.log");
        // The umask is the only thing set around the binary: it decides the permissions of the sockets it creates.
        Process driver = new ProcessBuilder(
                        "/bin/sh",
                        "-c",
                        "umask " + umask + " && exec \"$0\" \"$@\"",
                        driverBinary.toString(),
                        "--kubeconfig",
                        plane.kubeconfig().toString(),
                        "--node-name",
                        node,
                        "--cdi-root",
                        cdi.toString(),
                        "--num-devices",
                        "2",
                        "--kubelet-registrar-directory-path",
                        registry.toString(),
                        "--kubelet-plugins-directory-path",
                        plugins.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            List<ResourceSlice> slices = List.of();
            while (slices.isEmpty() && System.nanoTime() < deadline && driver.isAlive()) {
                Thread.sleep(200);
                slices = client.resources(ResourceSlice.class)
                        .withField("spec.nodeName", node)
                        .list()
                        .getItems();
            }
            assertThat(slices).as(Files.readString(log)).singleElement().satisfies(s -> {
                assertThat(s.getSpec().getDriver()).isEqualTo(DRIVER);
                assertThat(s.getSpec().getDevices())
                        .extracting(d -> d.getName())
                        .containsExactly("gpu-0", "gpu-1");
            });

            // What the scheduler would write: gpu-1 allocated to the claim on this node.
            ResourceClaim created = client.resource(new ResourceClaimBuilder()
                            .withNewMetadata()
                            .withName("train")
                            .withNamespace(node)
                            .endMetadata()
                            .withNewSpec()
                            .withNewDevices()
                            .addNewRequest()
                            .withName("gpu")
                            .withNewExactly()
                            .withDeviceClassName("gpu.example.com")
                            .endExactly()
                            .endRequest()
                            .endDevices()
                            .endSpec()
                            .build())
                    .create();
            client.resource(new ResourceClaimBuilder(created)
                            .withNewStatus()
                            .withNewAllocation()
                            .withNodeSelector(new NodeSelectorBuilder()
                                    .addNewNodeSelectorTerm()
                                    .addNewMatchField()
                                    .withKey("metadata.name")
                                    .withOperator("In")
                                    .withValues(node)
                                    .endMatchField()
                                    .endNodeSelectorTerm()
                                    .build())
                            .withNewDevices()
                            .addNewResult()
                            .withRequest("gpu")
                            .withDriver(DRIVER)
                            .withPool(node)
                            .withDevice("gpu-1")
                            .endResult()
                            .endDevices()
                            .endAllocation()
                            .endStatus()
                            .build())
                    .updateStatus();

            StringWriter out = new StringWriter();
            Path junit = tmp.resolve(node).resolve("junit.xml");
            int status = Main.run(
                    new String[] {
                        "kubelet-probe",
                        "--kubelet-root",
                        root.toString(),
                        "--live",
                        "--kubeconfig",
                        plane.kubeconfig().toString(),
                        "--node-name",
                        node,
                        "--cdi-dir",
                        cdi.toString(),
                        "--no-device-plugins",
                        "--wait",
                        "30",
                        "--junit",
                        junit.toString()
                    },
                    new PrintWriter(out, true),
                    new PrintWriter(out, true));
            return new ProbeRun(status, out + "\n--- example driver log:\n" + Files.readString(log));
        } finally {
            driver.destroy();
            if (!driver.waitFor(20, TimeUnit.SECONDS)) {
                driver.destroyForcibly();
            }
        }
    }

    @Test
    void upstreamsExampleDriverPassesTheProbe() throws Exception {
        Path driverBinary = binary();
        try (ControlPlane plane = ControlPlaneAssumptions.startOrSkip(ControlPlaneOptions.apiServerOnly())) {
            // Owner-only sockets (umask 077): every check passes.
            ProbeRun strict = probeExampleDriver(driverBinary, plane, "node-umask-077", "077");
            assertThat(strict.status()).as(strict.output()).isZero();
            assertThat(strict.output())
                    .contains("PASS NodePrepareResources: 1 claim(s) prepared")
                    .contains("PASS repeated NodePrepareResources gives the same answer")
                    .contains("PASS claim with a wrong UID is refused")
                    .contains("PASS registers again after a kubelet restart")
                    .containsPattern("\\d+ passed, 0 failed");

            // The common umask 022: the helper creates its sockets as the umask allows (net.Listen, no chmod), and
            // the probe's owner-only checks are the only ones that fail.
            ProbeRun usual = probeExampleDriver(driverBinary, plane, "node-umask-022", "022");
            assertThat(usual.status()).as(usual.output()).isEqualTo(1);
            assertThat(usual.output())
                    .contains("FAIL registration socket is owner-only")
                    .contains("FAIL DRA socket is owner-only")
                    .containsPattern("\\d+ passed, 2 failed");
        }
    }
}
