package io.dra4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What the CLI tests share: a one-GPU scenario file and a way to run the command line in-process. */
final class CliRuns {
    /** One GPU on node-1; the claim asks for {@code %d} of them. */
    static final String SCENARIO = """
            name: %s
            features: []
            node:
              name: node-1
            deviceClasses:
            - apiVersion: resource.k8s.io/v1
              kind: DeviceClass
              metadata:
                name: gpu
              spec:
                selectors:
                - cel:
                    expression: device.driver == "gpu.example.com"
            resourceSlices:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceSlice
              metadata:
                name: node-1-gpus
              spec:
                driver: gpu.example.com
                pool:
                  name: node-1
                  generation: 1
                  resourceSliceCount: 1
                nodeName: node-1
                devices:
                - name: gpu-0
            claims:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceClaim
              metadata:
                name: train
              spec:
                devices:
                  requests:
                  - name: gpus
                    exactly:
                      deviceClassName: gpu
                      allocationMode: ExactCount
                      count: %d
            """;

    record Run(int status, String out, String err) {
        List<JsonNode> jsonLines() {
            JsonMapper mapper = JsonMapper.builder().build();
            return out.lines().map(mapper::readTree).toList();
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(status, out.toString(), err.toString());
    }

    static Path scenario(Path dir, String name, int count) throws IOException {
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, SCENARIO.formatted(name, count));
        return file;
    }
}
