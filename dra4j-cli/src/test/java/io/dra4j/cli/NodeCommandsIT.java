package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node commands as a user runs them: a driver or device plugin in one thread, kubelet-probe against it. */
class NodeCommandsIT {
    static final String DEVICES = """
            driver: gpu.fake.dra4j.io
            resourceName: fake.dra4j.io/gpu
            devices:
              - name: gpu-0
                attributes: {model: {string: FAKE-H100}, interconnectDomain: {string: nvl-a}}
                capacity: {memory: {value: 80Gi}}
                numaNodes: [0]
                env: {FAKE_FLAVOUR: big}
              - name: gpu-1
                attributes: {model: {string: FAKE-H100}, interconnectDomain: {string: nvl-a}}
                numaNodes: [0]
              - name: gpu-2
                attributes: {model: {string: FAKE-H100}, interconnectDomain: {string: nvl-b}}
                numaNodes: [1]
                healthy: false
            """;
    static final String CLAIMS = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: train, namespace: ml, uid: 0b6e2f4a-1111-4c3d-9e8f-7a6b5c4d3e2f}
            spec:
              devices:
                requests:
                  - name: gpus
                    exactly: {deviceClassName: gpu.fake.dra4j.io, count: 2}
            status:
              allocation:
                devices:
                  results:
                    - {request: gpus, driver: gpu.fake.dra4j.io, pool: node-a, device: gpu-0}
                    - {request: gpus, driver: gpu.fake.dra4j.io, pool: node-a, device: gpu-1}
                nodeSelector:
                  nodeSelectorTerms:
                    - matchFields: [{key: metadata.name, operator: In, values: [node-a]}]
            """;

    @TempDir
    Path tmp;

    private Thread background(String[] args, StringWriter out, AtomicInteger status) {
        Thread t = new Thread(() -> status.set(Main.run(args, new PrintWriter(out, true), new PrintWriter(out, true))));
        t.start();
        return t;
    }

    @Test
    void kubeletProbePassesAgainstTheFakeDriverAndWritesJUnit() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        Path devices = Files.writeString(tmp.resolve("devices.yaml"), DEVICES);
        Path claims = Files.writeString(tmp.resolve("claims.yaml"), CLAIMS);
        StringWriter driverOut = new StringWriter();
        AtomicInteger driverStatus = new AtomicInteger(-1);
        Thread driver = background(
                new String[] {
                    "driver",
                    "fake",
                    "--config",
                    devices.toString(),
                    "--node-name",
                    "node-a",
                    "--kubelet-root",
                    root.toString(),
                    "--cdi-dir",
                    tmp.resolve("cdi").toString(),
                    "--claims",
                    claims.toString()
                },
                driverOut,
                driverStatus);
        try {
            StringWriter out = new StringWriter();
            Path junit = tmp.resolve("report/junit.xml");
            int status = Main.run(
                    new String[] {
                        "kubelet-probe",
                        "--kubelet-root",
                        root.toString(),
                        "--claims",
                        claims.toString(),
                        "--node-name",
                        "node-a",
                        "--cdi-dir",
                        tmp.resolve("cdi").toString(),
                        "--no-device-plugins",
                        "--health-watch",
                        "2",
                        "--junit",
                        junit.toString()
                    },
                    new PrintWriter(out, true),
                    new PrintWriter(out, true));
            assertThat(status).as(out + "\n" + driverOut).isZero();
            assertThat(out.toString())
                    .contains("PASS NodePrepareResources: 1 claim(s) prepared")
                    .contains("PASS claim with a wrong UID is refused")
                    .containsPattern(
                            "PASS health stream sends an update within 30 s: v1.DRAResourceHealth: 3 device\\(s\\) after \\d+ ms")
                    .contains("PASS health update is well-formed")
                    .contains("PASS health values are taken by the kubelet as sent")
                    .containsPattern("PASS prepared devices keep a known health while their pods run: pod status after "
                            + "2000 ms: ml/train \\S+ Healthy, ml/train \\S+ Healthy; announced to pods: ")
                    .doesNotContain("health update names only published devices")
                    .containsPattern("\\d+ passed, 0 failed");
            assertThat(Files.readString(junit))
                    .contains("<testsuite name=\"plugin gpu.fake.dra4j.io-reg.sock\"")
                    .contains("name=\"health update is well-formed\"")
                    .contains("failures=\"0\"");
        } finally {
            driver.interrupt();
            driver.join(10_000);
        }
        assertThat(driverStatus.get()).as(driverOut.toString()).isZero();
        assertThat(driverOut.toString()).contains("prepared claim ml/train: [node-a/gpu-0, node-a/gpu-1]");
        assertThat(root.resolve("plugins_registry/gpu.fake.dra4j.io-reg.sock")).doesNotExist();
    }

    @Test
    void aNegativeHealthWatchIsBadUsage() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(
                new String[] {"kubelet-probe", "--kubelet-root", tmp.toString(), "--health-watch", "-1"},
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("--health-watch: -1 is negative").doesNotContain("Exception");
    }

    @Test
    void kubeletProbeDrivesTheFakeDevicePluginThroughAKubeletRestart() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Path dpDir = Files.createDirectories(root.resolve("device-plugins"));
        Path devices = Files.writeString(tmp.resolve("devices.yaml"), DEVICES);
        // The probe serves kubelet.sock; the plugin registers once it is there.
        StringWriter out = new StringWriter();
        AtomicInteger probeStatus = new AtomicInteger(-1);
        Thread probe = background(
                new String[] {
                    "kubelet-probe",
                    "--kubelet-root",
                    root.toString(),
                    "--no-dra",
                    "--cdi-dir",
                    tmp.resolve("cdi").toString(),
                    "--wait",
                    "20"
                },
                out,
                probeStatus);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!Files.exists(dpDir.resolve("kubelet.sock")) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        StringWriter pluginOut = new StringWriter();
        AtomicInteger pluginStatus = new AtomicInteger(-1);
        Thread plugin = background(
                new String[] {
                    "device-plugin",
                    "fake",
                    "--config",
                    devices.toString(),
                    "--device-plugin-dir",
                    dpDir.toString(),
                    "--cdi-dir",
                    tmp.resolve("cdi").toString()
                },
                pluginOut,
                pluginStatus);
        try {
            probe.join(60_000);
            assertThat(probeStatus.get()).as(out + "\n" + pluginOut).isZero();
            assertThat(out.toString())
                    .contains("PASS Register is accepted")
                    .contains("PASS ListAndWatch sends the device list at once: 3 device(s), 2 healthy")
                    .contains("PASS GetPreferredAllocation returns a valid preference")
                    .contains("PASS Allocate answers for one container")
                    .contains("PASS registers again after the kubelet restarts");
            assertThat(pluginOut.toString()).contains("kubelet.sock was re-created");
        } finally {
            plugin.interrupt();
            plugin.join(10_000);
        }
    }

    /** The slices the fake driver publishes for DEVICES on node-a (it publishes nothing with --claims). */
    static final String SLICES = """
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: node-a-gpus}
            spec:
              driver: gpu.fake.dra4j.io
              nodeName: node-a
              pool: {name: node-a, generation: 1, resourceSliceCount: 1}
              devices:
                - {name: gpu-0}
                - {name: gpu-1}
                - {name: gpu-2}
            """;

    @Test
    void kubeletProbeReportsGpusAdvertisedByTheFakeDriverAndTheFakeDevicePluginAlike() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        Path dpDir = Files.createDirectories(root.resolve("device-plugins"));
        Path devices = Files.writeString(tmp.resolve("devices.yaml"), DEVICES);
        Path claims = Files.writeString(tmp.resolve("claims.yaml"), CLAIMS);
        Path slices = Files.writeString(tmp.resolve("slices.yaml"), SLICES);
        StringWriter driverOut = new StringWriter();
        Thread driver = background(
                new String[] {
                    "driver",
                    "fake",
                    "--config",
                    devices.toString(),
                    "--node-name",
                    "node-a",
                    "--kubelet-root",
                    root.toString(),
                    "--cdi-dir",
                    tmp.resolve("cdi").toString(),
                    "--claims",
                    claims.toString()
                },
                driverOut,
                new AtomicInteger(-1));
        StringWriter out = new StringWriter();
        AtomicInteger probeStatus = new AtomicInteger(-1);
        Thread probe = background(
                new String[] {
                    "kubelet-probe",
                    "--kubelet-root",
                    root.toString(),
                    "--claims",
                    claims.toString(),
                    "--claims",
                    slices.toString(),
                    "--node-name",
                    "node-a",
                    "--cdi-dir",
                    tmp.resolve("cdi").toString(),
                    "--wait",
                    "30"
                },
                out,
                probeStatus);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(dpDir.resolve("kubelet.sock")) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        StringWriter pluginOut = new StringWriter();
        Thread plugin = background(
                new String[] {
                    "device-plugin",
                    "fake",
                    "--config",
                    devices.toString(),
                    "--device-plugin-dir",
                    dpDir.toString(),
                    "--cdi-dir",
                    tmp.resolve("cdi").toString()
                },
                pluginOut,
                new AtomicInteger(-1));
        try {
            probe.join(120_000);
            assertThat(probeStatus.get())
                    .as(out + "\n" + driverOut + "\n" + pluginOut)
                    .isEqualTo(1);
            assertThat(out.toString())
                    .contains("PASS NodePrepareResources: 1 claim(s) prepared")
                    .contains("PASS Allocate answers for one container")
                    .contains("PASS health update names only published devices")
                    .contains("PASS health update covers every published device")
                    .contains("FAIL no device is advertised by both a device plugin and a DRA driver: 3 device(s) "
                            + "twice, so the node can be over-admitted: fake.dra4j.io/gpu device gpu-0 is "
                            + "gpu.fake.dra4j.io node-a/gpu-0 (same name, and fake.dra4j.io is the domain of "
                            + "gpu.fake.dra4j.io)")
                    .containsPattern("\\d+ passed, 1 failed");
        } finally {
            plugin.interrupt();
            driver.interrupt();
            plugin.join(10_000);
            driver.join(10_000);
        }
    }

    @Test
    void kubeletProbeFailsAHealthStreamThatDoesNotMatchThePublishedDevices() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("kubelet"));
        Files.createDirectories(root.resolve("plugins_registry"));
        Path devices = Files.writeString(tmp.resolve("devices.yaml"), DEVICES);
        Path claims = Files.writeString(tmp.resolve("claims.yaml"), CLAIMS);
        // The node's slices as the probe is told them: gpu-2 left out, a gpu-7 the driver does not have.
        Path slices = Files.writeString(tmp.resolve("slices.yaml"), SLICES.replace("{name: gpu-2}", "{name: gpu-7}"));
        StringWriter driverOut = new StringWriter();
        Thread driver = background(
                new String[] {
                    "driver",
                    "fake",
                    "--config",
                    devices.toString(),
                    "--node-name",
                    "node-a",
                    "--kubelet-root",
                    root.toString(),
                    "--cdi-dir",
                    tmp.resolve("cdi").toString(),
                    "--claims",
                    claims.toString()
                },
                driverOut,
                new AtomicInteger(-1));
        try {
            StringWriter out = new StringWriter();
            int status = Main.run(
                    new String[] {
                        "kubelet-probe",
                        "--kubelet-root",
                        root.toString(),
                        "--claims",
                        claims.toString(),
                        "--claims",
                        slices.toString(),
                        "--node-name",
                        "node-a",
                        "--cdi-dir",
                        tmp.resolve("cdi").toString(),
                        "--no-device-plugins"
                    },
                    new PrintWriter(out, true),
                    new PrintWriter(out, true));
            assertThat(status).as(out + "\n" + driverOut).isEqualTo(1);
            assertThat(out.toString())
                    .contains("PASS health update is well-formed")
                    .contains("FAIL health update names only published devices: not in the node's ResourceSlices of "
                            + "gpu.fake.dra4j.io: [node-a/gpu-2]")
                    .contains("FAIL health update covers every published device: missing (they decay to Unknown "
                            + "after 30 s): [node-a/gpu-7]")
                    .containsPattern("\\d+ passed, 2 failed");
        } finally {
            driver.interrupt();
            driver.join(10_000);
        }
    }

    @Test
    void aBrokenDevicesFileIsAnErrorNamingFileAndField() throws Exception {
        Path devices = Files.writeString(tmp.resolve("devices.yaml"), "devices:\n  - name: gpu-0\n    atributes: {}\n");
        StringWriter out = new StringWriter();
        int status = Main.run(
                new String[] {
                    "driver",
                    "fake",
                    "--config",
                    devices.toString(),
                    "--node-name",
                    "n",
                    "--kubelet-root",
                    tmp.toString(),
                    "--claims",
                    devices.toString()
                },
                new PrintWriter(out, true),
                new PrintWriter(out, true));
        assertThat(status).isEqualTo(1);
        assertThat(out.toString().trim()).isEqualTo("dra4j: " + devices + ": devices[0]: unknown field \"atributes\"");
    }
}
