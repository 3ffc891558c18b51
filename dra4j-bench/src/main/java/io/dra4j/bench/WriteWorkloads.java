package io.dra4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes benchmark workloads as scenario files for the Go oracle.
 *
 * <pre>java -cp dra4j-benchmarks.jar io.dra4j.bench.WriteWorkloads [--json] DIR [WORKLOAD...]</pre>
 *
 * Without workload names every workload is written. {@code --json} writes {@code .json} instead of {@code .yaml}.
 */
public final class WriteWorkloads {
    private WriteWorkloads() {
    }

    public static void main(String[] args) throws IOException {
        boolean json = false;
        List<String> rest = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--json")) {
                json = true;
            } else {
                rest.add(a);
            }
        }
        if (rest.isEmpty()) {
            System.err.println("usage: WriteWorkloads [--json] DIR [WORKLOAD...]; workloads: "
                    + String.join(", ", Workloads.names()));
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
            Path file = json ? ScenarioFiles.writeJson(w, dir) : ScenarioFiles.writeYaml(w, dir);
            System.out.println(file);
        }
    }
}
