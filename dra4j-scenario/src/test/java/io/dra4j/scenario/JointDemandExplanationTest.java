package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.KubernetesVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When every request has enough usable devices on its own but not all together, the decisive reason says what they
 * compete for, with the numbers (issue 9), instead of a generic sentence.
 */
class JointDemandExplanationTest {
    @TempDir
    Path dir;

    private static String scenario(int devices, int models, String claims) {
        String deviceList = IntStream.range(0, devices)
                .mapToObj(i -> "        - name: gpu-" + i + "\n          attributes:\n            model: {string: m"
                        + (i % models) + "}\n")
                .collect(Collectors.joining());
        return """
                name: joint
                node:
                  name: node-1
                deviceClasses:
                - apiVersion: resource.k8s.io/v1
                  kind: DeviceClass
                  metadata: {name: gpu}
                  spec:
                    selectors:
                    - cel: {expression: device.driver == "gpu.example.com"}
                resourceSlices:
                - apiVersion: resource.k8s.io/v1
                  kind: ResourceSlice
                  metadata: {name: gpus}
                  spec:
                    driver: gpu.example.com
                    pool: {name: gpus, generation: 1, resourceSliceCount: 1}
                    nodeName: node-1
                    devices:
                """ + deviceList + "claims:\n" + claims;
    }

    private Explanation explain(String text) throws Exception {
        Path file = Files.writeString(dir.resolve("s.yaml"), text);
        Explanation x = ScenarioRunner.explain(ScenarioReader.read(file, true), KubernetesVersion.V1_37);
        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Unschedulable.class);
        return x;
    }

    private static String claim(String name, String requests, String constraints) {
        return """
                - apiVersion: resource.k8s.io/v1
                  kind: ResourceClaim
                  metadata: {name: %s}
                  spec:
                    devices:
                      requests:
                %s%s""".formatted(name, requests, constraints);
    }

    private static String request(String name, int count, String model) {
        return """
                      - name: %s
                        exactly:
                          deviceClassName: gpu
                          count: %d
                          selectors:
                          - cel: {expression: 'device.attributes["gpu.example.com"].model == "%s"'}
                """.formatted(name, count, model);
    }

    @Test
    void tenDistinctDevicesAmongSevenModelsNamesBothNumbers() throws Exception {
        String requests = IntStream.range(0, 10)
                .mapToObj(i -> "      - name: r" + i + "\n        exactly: {deviceClassName: gpu}\n")
                .collect(Collectors.joining());
        String constraints = "      constraints:\n      - distinctAttribute: gpu.example.com/model\n";

        Explanation x = explain(scenario(63, 7, claim("spread", requests, constraints)));

        assertThat(x.decisive())
                .isEqualTo("distinctAttribute gpu.example.com/model: the devices that can serve claim spread, "
                        + "request r0; request r1; request r2; request r3; request r4; request r5; request r6; "
                        + "request r7; request r8; request r9 have 7 distinct value(s), and they need 10 device(s) "
                        + "with distinct values");
    }

    @Test
    void claimsCompetingForTheSameDevicesAreNamedWithTheDevicesAndTheirJointNeed() throws Exception {
        // Three devices of model m0 (out of six), claim a asks for three of them and claim b for one.
        String claims = claim("a", request("r", 3, "m0"), "") + claim("b", request("r", 1, "m0"), "");

        Explanation x = explain(scenario(6, 2, claims));

        assertThat(x.decisive())
                .isEqualTo("3 device(s) can serve claim a, request r; claim b, request r, which need 4 together");
    }
}
