package io.dra4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes benchmark workloads as scenario files for the Go oracle.
 *
 * <pre>java -cp dra4j-benchmarks.jar io.dra4j.bench.WriteWorkloads [--json] [--gates 1.37|workload] [--differing] DIR [WORKLOAD...]</pre>
 *
 * Without workload names every workload is written. {@code --json} writes {@code .json} instead of {@code .yaml}.
 * {@code --gates} picks the {@link GateSet} (default {@code workload}: only the gates the workload needs);
 * {@code --differing} skips the workloads for which that gate set selects the same upstream allocator variant as
 * Kubernetes 1.37's gates. Prints each written file's path.
 */
public final class WriteWorkloads {
    private WriteWorkloads() {}

    public static void main(String[] args) throws IOException {
        boolean json = false;
        boolean differing = false;
        GateSet gates = GateSet.WORKLOAD;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--json" -> json = true;
                case "--differing" -> differing = true;
                case "--gates" -> {
                    try {
                        gates = GateSet.byId(i + 1 < args.length ? args[++i] : "");
                    } catch (IllegalArgumentException e) {
                        System.err.println("WriteWorkloads: --gates: " + e.getMessage());
                        System.exit(2);
                    }
                }
                default -> rest.add(args[i]);
            }
        }
        if (rest.isEmpty()) {
            System.err.println("usage: WriteWorkloads [--json] [--gates 1.37|workload] [--differing] DIR [WORKLOAD...];"
                    + " workloads: " + String.join(", ", Workloads.names()));
            System.exit(2);
        }
        Path dir = Path.of(rest.get(0));
        Files.createDirectories(dir);
        List<String> names = rest.size() > 1 ? rest.subList(1, rest.size()) : Workloads.names();
        for (String name : names) {
            Workload w;
            try {
                w = Workloads.byName(name);
            } catch (IllegalArgumentException e) {
                System.err.println(e.getMessage());
                System.exit(2);
                return;
            }
            if (differing && !gates.differsFrom137(w)) {
                continue;
            }
            w = gates.apply(w);
            Path file = json ? ScenarioFiles.writeJson(w, dir) : ScenarioFiles.writeYaml(w, dir);
            System.out.println(file);
        }
    }
}
