package io.dra4j.cli;

import io.dra4j.drivers.fake.FakeConfig;
import io.dra4j.drivers.fake.FakeConfigReader;
import io.dra4j.drivers.fake.FakeDriver;
import io.dra4j.drivers.nvidia.GpuInfo;
import io.dra4j.drivers.nvidia.NvidiaDevices;
import io.dra4j.drivers.nvidia.NvidiaDiscovery;
import io.dra4j.drivers.nvidia.NvidiaDriver;
import io.dra4j.drivers.nvidia.NvidiaHealthMonitor;
import io.dra4j.drivers.nvidia.NvidiaSmi;
import io.dra4j.kubelet.dra.ClaimLookup;
import io.dra4j.kubelet.dra.DeviceHealth;
import io.dra4j.kubelet.dra.DraDriver;
import io.dra4j.kubelet.dra.DraPlugin;
import io.dra4j.kubelet.dra.DraPluginOptions;
import io.dra4j.kubelet.slices.ResourceSlicePublisher;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dra4j driver fake|nvidia}: a DRA driver as a kubelet plugin on this node. */
@Command(
        name = "driver",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 100,
        description = "Runs a DRA driver as a kubelet plugin: publishes its devices as ResourceSlices and prepares "
                + "claims when the kubelet asks.",
        subcommands = {DriverCommand.Fake.class, DriverCommand.Nvidia.class})
final class DriverCommand implements Callable<Integer> {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }

    /** Options every driver takes. */
    static final class NodeOptions {
        @Option(
                names = "--node-name",
                required = true,
                defaultValue = "${env:NODE_NAME}",
                description = "This node's name (default: $NODE_NAME).")
        String nodeName;

        @Option(names = "--kubelet-root", defaultValue = "/var/lib/kubelet", description = "The kubelet's --root-dir.")
        Path kubeletRoot;

        @Option(names = "--cdi-dir", defaultValue = "/var/run/cdi", description = "Where CDI specs go.")
        Path cdiDir;

        @Option(
                names = "--claims",
                description = "Read claims from these manifest files instead of the API server "
                        + "(for trying a driver with kubelet-probe without a cluster; nothing is published then).")
        List<Path> claimFiles;

        @Option(
                names = "--kubeconfig",
                description = "Kubeconfig of the API server (default: in-cluster or ~/.kube/config).")
        Path kubeconfig;

        @Option(
                names = "--rolling-update-pod-uid",
                defaultValue = "${env:POD_UID}",
                description =
                        "Run side by side with another instance (rolling update), with this pod UID in the socket names.")
        String podUid;

        @Option(
                names = "--sync-delay",
                defaultValue = "30",
                description = "Seconds before repairing slices changed behind the driver's back.")
        long syncDelaySeconds;
    }

    /** How often a driver that reports health sends its complete list: well within the kubelet's 30 s timeout. */
    static final long HEALTH_REPORT_SECONDS = 10;

    /**
     * Runs {@code driver} until stopped, publishing {@code devices} unless claims come from files, and reporting
     * {@code health} (the devices of this node's pool; null: the driver does not report health) when it changes and
     * every {@value #HEALTH_REPORT_SECONDS} s.
     */
    static int run(
            PrintWriter out,
            PrintWriter err,
            NodeOptions o,
            String driverName,
            DraDriver driver,
            Supplier<List<Device>> devices,
            Supplier<List<CounterSet>> counters,
            Function<String, List<DeviceHealth>> health,
            Runnable[] onChange) {
        KubernetesClient client = o.claimFiles == null ? NodeRuntime.driverClient(o.kubeconfig) : null;
        ClaimLookup lookup = client == null ? NodeRuntime.fileLookup(o.claimFiles) : NodeRuntime.driverLookup(client);
        DraPluginOptions options =
                DraPluginOptions.defaults(driverName, o.nodeName, o.kubeletRoot).withCdiDirectory(o.cdiDir);
        if (o.podUid != null && !o.podUid.isEmpty()) {
            options = options.withRollingUpdate(o.podUid);
        }
        if (health != null) {
            options = options.withHealth(true);
        }
        DraPlugin plugin;
        try {
            plugin = DraPlugin.start(driver, lookup, options);
        } catch (IOException | IllegalArgumentException e) {
            err.println("dra4j: " + e.getMessage());
            if (client != null) {
                client.close();
            }
            return 1;
        }
        out.println("driver " + driverName + " serving " + options.draSocket() + ", registered through "
                + options.registrationSocket());
        ResourceSlicePublisher publisher = client == null
                ? null
                : new ResourceSlicePublisher(
                        client,
                        driverName,
                        o.nodeName,
                        (m, e) -> err.println("dra4j: " + m + (e == null ? "" : ": " + e.getMessage())),
                        o.syncDelaySeconds * 1000,
                        true);
        Runnable reportHealth = () -> {
            if (health != null) {
                plugin.reportHealth(health.apply(o.nodeName));
            }
        };
        Runnable publish = () -> {
            if (publisher != null) {
                publisher.publish(devices.get(), counters.get());
            } else {
                out.println("not publishing " + devices.get().size() + " device(s): claims come from files");
            }
            reportHealth.run();
        };
        onChange[0] = publish;
        publish.run();
        ScheduledExecutorService healthReports = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "health-reports-" + driverName);
            t.setDaemon(true);
            return t;
        });
        if (health != null) {
            healthReports.scheduleAtFixedRate(
                    reportHealth, HEALTH_REPORT_SECONDS, HEALTH_REPORT_SECONDS, TimeUnit.SECONDS);
        }
        NodeRuntime.runUntilStopped(() -> {
            healthReports.shutdownNow();
            if (publisher != null) {
                publisher.close();
            }
            plugin.close();
            if (client != null) {
                client.close();
            }
        });
        return 0;
    }

    @Command(
            name = "fake",
            mixinStandardHelpOptions = true,
            usageHelpWidth = 100,
            description = "A driver for the devices of a file, watched for changes (health, taints, new devices).")
    static final class Fake implements Callable<Integer> {
        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(names = "--config", required = true, description = "The devices file (see FakeConfigReader).")
        Path config;

        @Option(
                names = "--driver-name",
                description = "Driver name (default: the file's driver, else " + FakeConfigReader.DEFAULT_DRIVER + ").")
        String driverName;

        @Mixin
        NodeOptions node = new NodeOptions();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            FakeConfigReader reader = new FakeConfigReader();
            FakeConfig cfg;
            try {
                cfg = withName(reader.read(config));
            } catch (IOException e) {
                err.println("dra4j: " + e.getMessage());
                return 1;
            }
            FakeDriver driver = new FakeDriver(cfg, out::println);
            Runnable[] onChange = new Runnable[1];
            Thread watcher = new Thread(() -> watch(reader, driver, onChange, err), "fake-config-watch");
            watcher.setDaemon(true);
            watcher.start();
            try {
                return run(
                        out,
                        err,
                        node,
                        cfg.driverName(),
                        driver,
                        driver::devices,
                        () -> driver.config().counterSets(),
                        driver::health,
                        onChange);
            } finally {
                watcher.interrupt();
            }
        }

        private FakeConfig withName(FakeConfig c) {
            return driverName == null ? c : new FakeConfig(driverName, c.resourceName(), c.devices(), c.counterSets());
        }

        /** Re-reads the devices file when it changes; a broken edit is reported and the last good one kept. */
        private void watch(FakeConfigReader reader, FakeDriver driver, Runnable[] onChange, PrintWriter err) {
            FileTime seen = mtime();
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                FileTime now = mtime();
                if (now != null && !now.equals(seen)) {
                    seen = now;
                    try {
                        driver.update(withName(reader.read(config)));
                        if (onChange[0] != null) {
                            onChange[0].run();
                        }
                    } catch (IOException e) {
                        err.println("dra4j: " + e.getMessage() + " (keeping the previous devices)");
                    }
                }
            }
        }

        private FileTime mtime() {
            try {
                return Files.getLastModifiedTime(config);
            } catch (IOException e) {
                return null;
            }
        }
    }

    @Command(
            name = "nvidia",
            mixinStandardHelpOptions = true,
            usageHelpWidth = 100,
            description = "NVIDIA GPUs found with nvidia-smi, published with the attributes of NVIDIA's DRA driver "
                    + "(gpu.nvidia.com); MIG devices as partitions of their GPU.")
    static final class Nvidia implements Callable<Integer> {
        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(names = "--nvidia-smi", defaultValue = "nvidia-smi", description = "The nvidia-smi to run.")
        String nvidiaSmi;

        @Option(names = "--nvidia-smi-xml", description = "Recorded 'nvidia-smi -q -x' output instead of running it.")
        Path xml;

        @Option(names = "--nvidia-smi-list", description = "Recorded 'nvidia-smi -L' output.")
        Path list;

        @Option(names = "--nvidia-smi-lgi", description = "Recorded 'nvidia-smi mig -lgi' output.")
        Path lgi;

        @Option(names = "--nvidia-smi-lgip", description = "Recorded 'nvidia-smi mig -lgip' output.")
        Path lgip;

        @Option(names = "--nvidia-smi-lgipp", description = "Recorded 'nvidia-smi mig -lgipp' output.")
        Path lgipp;

        @Option(
                names = "--dynamic-mig",
                description = "Publish MIG-enabled GPUs as partitions created at prepare "
                        + "(NVIDIA's DynamicMIG): every profile placement a device consuming the GPU's counters.")
        boolean dynamicMig;

        @Option(names = "--print", description = "Print the devices found as YAML and exit.")
        boolean print;

        @Mixin
        NvidiaHealthOptions healthOptions = new NvidiaHealthOptions();

        @Mixin
        NodeOptions node = new NodeOptions();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            List<GpuInfo> gpus;
            NvidiaSmi smi = NvidiaSmi.process(nvidiaSmi);
            try {
                gpus = xml != null
                        ? NvidiaDiscovery.recorded(xml, list, lgi, lgip, lgipp)
                        : NvidiaDiscovery.run(smi, dynamicMig);
            } catch (IOException e) {
                err.println("dra4j: " + e.getMessage());
                return 1;
            }
            NvidiaDevices.Published p = NvidiaDevices.of(gpus, dynamicMig);
            if (print) {
                var ser = new io.fabric8.kubernetes.client.utils.KubernetesSerialization();
                out.print(ser.asYaml(java.util.Map.of("devices", p.devices(), "sharedCounters", p.counterSets())));
                return 0;
            }
            NvidiaDriver driver = new NvidiaDriver(gpus, smi, dynamicMig, out::println);
            if (!healthOptions.health) {
                return run(
                        out,
                        err,
                        node,
                        NvidiaDevices.DRIVER,
                        driver,
                        p::devices,
                        p::counterSets,
                        null,
                        new Runnable[1]);
            }
            NvidiaHealthMonitor monitor;
            try {
                monitor = healthOptions.monitor(gpus, smi);
            } catch (IOException e) {
                err.println("dra4j: " + e.getMessage());
                return 1;
            }
            Runnable[] onChange = new Runnable[1];
            try (NvidiaHealthOptions.Checks checks = healthOptions.schedule(monitor, err, () -> {
                if (onChange[0] != null) {
                    onChange[0].run();
                }
            })) {
                return run(
                        out,
                        err,
                        node,
                        NvidiaDevices.DRIVER,
                        driver,
                        () -> monitor.taint(p.devices()),
                        p::counterSets,
                        pool -> monitor.report(pool, p.devices()),
                        onChange);
            }
        }
    }
}
