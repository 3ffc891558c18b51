package io.dra4j.cli;

import io.dra4j.drivers.fake.FakeConfig;
import io.dra4j.drivers.fake.FakeConfigReader;
import io.dra4j.drivers.fake.FakeDevicePlugin;
import io.dra4j.drivers.nvidia.GpuInfo;
import io.dra4j.drivers.nvidia.NvidiaDevicePlugin;
import io.dra4j.drivers.nvidia.NvidiaDiscovery;
import io.dra4j.drivers.nvidia.NvidiaHealthMonitor;
import io.dra4j.drivers.nvidia.NvidiaSmi;
import io.dra4j.kubelet.cdi.CdiSpecFiles;
import io.dra4j.kubelet.deviceplugin.DevicePlugin;
import io.dra4j.kubelet.deviceplugin.DevicePluginServer;
import io.dra4j.kubelet.deviceplugin.PluginDevice;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dra4j device-plugin fake|nvidia}: the same devices through the older device plugin API. */
@Command(
        name = "device-plugin",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 100,
        description = "Runs a device plugin: registers on the kubelet's kubelet.sock (again whenever the kubelet "
                + "restarts) and serves ListAndWatch, GetPreferredAllocation and Allocate.",
        subcommands = {DevicePluginCommand.Fake.class, DevicePluginCommand.Nvidia.class})
final class DevicePluginCommand implements Callable<Integer> {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }

    static int serve(
            PrintWriter out,
            PrintWriter err,
            DevicePlugin plugin,
            List<PluginDevice> devices,
            Path dir,
            String socket) {
        return serve(out, err, plugin, () -> devices, dir, socket, new AtomicReference<>());
    }

    /**
     * Serves {@code devices} until stopped; {@code started} is the server once it is registered, for later
     * updates; a change of {@code devices} while it started is sent at once.
     */
    static int serve(
            PrintWriter out,
            PrintWriter err,
            DevicePlugin plugin,
            Supplier<List<PluginDevice>> devices,
            Path dir,
            String socket,
            AtomicReference<DevicePluginServer> started) {
        DevicePluginServer server;
        List<PluginDevice> initial = devices.get();
        try {
            server = DevicePluginServer.start(plugin, dir, socket, initial, 1000, out::println);
        } catch (IOException | IllegalArgumentException e) {
            err.println("dra4j: " + e.getMessage());
            return 1;
        }
        started.set(server);
        List<PluginDevice> now = devices.get();
        if (!now.equals(initial)) {
            server.update(now);
        }
        out.println("device plugin " + plugin.resourceName() + " serving " + server.socket() + " with " + initial.size()
                + " device(s)");
        NodeRuntime.runUntilStopped(server::close);
        return 0;
    }

    @Command(
            name = "fake",
            mixinStandardHelpOptions = true,
            usageHelpWidth = 100,
            description = "The devices of a fake driver devices file, with a static CDI spec.")
    static final class Fake implements Callable<Integer> {
        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(names = "--config", required = true, description = "The devices file.")
        Path config;

        @Option(
                names = "--device-plugin-dir",
                defaultValue = "/var/lib/kubelet/device-plugins",
                description = "The kubelet's device plugin directory.")
        Path dir;

        @Option(names = "--cdi-dir", defaultValue = "/var/run/cdi", description = "Where the CDI spec goes.")
        Path cdiDir;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            FakeConfig cfg;
            try {
                cfg = new FakeConfigReader().read(config);
            } catch (IOException e) {
                err.println("dra4j: " + e.getMessage());
                return 1;
            }
            FakeDevicePlugin plugin = new FakeDevicePlugin(cfg);
            try {
                plugin.writeCdiSpec(new CdiSpecFiles(cdiDir));
            } catch (IOException e) {
                err.println("dra4j: cannot write the CDI spec into " + cdiDir + ": " + e.getMessage());
                return 1;
            }
            return serve(
                    spec.commandLine().getOut(),
                    err,
                    plugin,
                    plugin.devices(),
                    dir,
                    cfg.driverName().replace('.', '-') + ".sock");
        }
    }

    @Command(
            name = "nvidia",
            mixinStandardHelpOptions = true,
            usageHelpWidth = 100,
            description = "Full NVIDIA GPUs found with nvidia-smi as nvidia.com/gpu; with --health a GPU that fails "
                    + "its checks (a critical XID, uncorrectable ECC errors) is advertised Unhealthy.")
    static final class Nvidia implements Callable<Integer> {
        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(names = "--nvidia-smi", defaultValue = "nvidia-smi", description = "The nvidia-smi to run.")
        String nvidiaSmi;

        @Option(names = "--nvidia-smi-xml", description = "Recorded 'nvidia-smi -q -x' output instead of running it.")
        Path xml;

        @Option(
                names = "--device-plugin-dir",
                defaultValue = "/var/lib/kubelet/device-plugins",
                description = "The kubelet's device plugin directory.")
        Path dir;

        @Mixin
        NvidiaHealthOptions healthOptions = new NvidiaHealthOptions();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            List<GpuInfo> gpus;
            NvidiaSmi smi = NvidiaSmi.process(nvidiaSmi);
            try {
                gpus = xml != null ? NvidiaDiscovery.recorded(xml, null, null) : NvidiaDiscovery.run(smi, false);
            } catch (IOException e) {
                err.println("dra4j: " + e.getMessage());
                return 1;
            }
            NvidiaDevicePlugin plugin = new NvidiaDevicePlugin(gpus);
            if (!healthOptions.health) {
                return serve(out, err, plugin, plugin.devices(), dir, "nvidia-gpu.sock");
            }
            NvidiaHealthMonitor monitor;
            try {
                monitor = healthOptions.monitor(gpus, smi);
            } catch (IOException e) {
                err.println("dra4j: " + e.getMessage());
                return 1;
            }
            AtomicReference<DevicePluginServer> server = new AtomicReference<>();
            try (NvidiaHealthOptions.Checks checks = healthOptions.schedule(monitor, err, () -> {
                DevicePluginServer running = server.get();
                if (running != null) {
                    running.update(plugin.devices(monitor));
                }
            })) {
                return serve(out, err, plugin, () -> plugin.devices(monitor), dir, "nvidia-gpu.sock", server);
            }
        }
    }
}
