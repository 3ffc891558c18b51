package io.dra4j.cli;

import io.dra4j.scenario.Manifests;
import io.dra4j.sim.ClusterSnapshot;
import io.dra4j.sim.whatif.DeviceInventory;
import io.dra4j.sim.whatif.LabelQuery;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** {@code dra4j get devices}: every device, who holds it, in kubectl's table style. */
@Command(
        name = "get",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        usageHelpWidth = 100,
        description = {
            "dra4j get devices: every device of the snapshot's ResourceSlices with its node, pool, the "
                    + "DeviceClasses it matches, its taints (as published in the slice), whether it is a "
                    + "partition or shareable, and the claim and pods holding it; then one line per node pool "
                    + "with how many devices are held."
        },
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:listed", "1:the snapshot could not be read or had invalid objects", "2:bad usage"})
final class GetCommand implements Callable<Integer> {
    enum Format {
        text,
        wide,
        json
    }

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RESOURCE", description = "devices")
    private String resource;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text (default), wide (adds kind, node pool, attributes) or json")
    private Format output;

    @Option(
            names = {"-l", "--selector"},
            paramLabel = "SELECTOR",
            description = "only devices of nodes whose labels match (kubectl -l syntax)")
    private String selector;

    @Option(names = "--class", paramLabel = "DEVICECLASS", description = "only devices matching this DeviceClass")
    private String deviceClass;

    @Option(
            names = "--pool-label",
            paramLabel = "LABEL",
            defaultValue = "node.kubernetes.io/instance-type",
            description = "the node label naming its node pool (default: node.kubernetes.io/instance-type)")
    private String poolLabel;

    @Option(
            names = "--after-simulation",
            description =
                    "list the devices as the simulation leaves them (pending pods scheduled), not as the snapshot has them")
    private boolean afterSimulation;

    @Mixin
    private SnapshotSource source;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!resource.equals("devices") && !resource.equals("device")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "dra4j get knows devices, not " + resource);
        }
        LabelQuery query;
        try {
            query = selector == null ? null : LabelQuery.parse(selector);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Manifests manifests = source.read(spec.commandLine(), err);
        if (manifests == null) {
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
        List<DeviceInventory.Row> rows;
        try {
            ClusterSnapshot snapshot = ClusterSnapshot.of(manifests);
            if (afterSimulation) {
                snapshot = new io.dra4j.sim.Simulator(io.dra4j.sim.SimulationOptions.defaults())
                        .run(snapshot)
                        .finalState();
            }
            rows = DeviceInventory.of(
                    snapshot, query == null ? l -> true : query, query != null, deviceClass, poolLabel);
        } catch (IllegalArgumentException e) {
            err.println("dra4j: " + e.getMessage());
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
        if (output == Format.json) {
            out.println(JsonMapper.builder()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .build()
                    .writeValueAsString(Map.of("devices", rows)));
        } else {
            table(rows, output == Format.wide, out);
            out.println();
            summary(rows, out);
        }
        out.flush();
        err.flush();
        return manifests.problems().isEmpty() ? CommandLine.ExitCode.OK : CommandLine.ExitCode.SOFTWARE;
    }

    private static void table(List<DeviceInventory.Row> rows, boolean wide, PrintWriter out) {
        List<String[]> lines = new ArrayList<>();
        lines.add(
                wide
                        ? new String[] {
                            "NODE",
                            "POOL",
                            "DEVICE",
                            "CLASSES",
                            "TAINTS",
                            "CLAIM",
                            "POD",
                            "KIND",
                            "NODE-POOL",
                            "ATTRIBUTES"
                        }
                        : new String[] {"NODE", "POOL", "DEVICE", "CLASSES", "TAINTS", "CLAIM", "POD"});
        for (DeviceInventory.Row r : rows) {
            List<String> cells = new ArrayList<>(List.of(
                    none(r.node()),
                    r.driver() + "/" + r.pool(),
                    r.device(),
                    none(String.join(",", r.classes())),
                    none(String.join(",", r.taints())),
                    none(String.join(",", r.claims())),
                    none(String.join(",", r.pods()))));
            if (wide) {
                List<String> attrs = new ArrayList<>();
                r.attributes().entrySet().stream()
                        .sorted(Map.Entry.comparingByKey())
                        .forEach(e -> attrs.add(e.getKey() + "=" + e.getValue()));
                cells.addAll(List.of(r.kind(), none(r.nodePool()), none(String.join(",", attrs))));
            }
            lines.add(cells.toArray(String[]::new));
        }
        int[] width = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        for (String[] l : lines) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                sb.append(i == l.length - 1 ? l[i] : String.format("%-" + (width[i] + 3) + "s", l[i]));
            }
            out.println(sb.toString().stripTrailing());
        }
    }

    /** One line per node pool: devices held of devices, tainted. */
    private static void summary(List<DeviceInventory.Row> rows, PrintWriter out) {
        Map<String, int[]> pools = new TreeMap<>();
        for (DeviceInventory.Row r : rows) {
            int[] c = pools.computeIfAbsent(
                    r.node().isEmpty() ? "(devices of no node)" : none(r.nodePool()), k -> new int[3]);
            c[0]++;
            c[1] += r.held() ? 1 : 0;
            c[2] += r.taints().isEmpty() ? 0 : 1;
        }
        pools.forEach((pool, c) -> out.printf(
                "node pool %s: %d of %d device(s) held (%d%%), %d tainted%n",
                pool, c[1], c[0], c[0] == 0 ? 0 : 100 * c[1] / c[0], c[2]));
    }

    private static String none(String s) {
        return s.isEmpty() ? "<none>" : s;
    }
}
