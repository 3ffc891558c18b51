package io.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.scenario.ManifestReader;
import io.dra4j.scenario.Manifests;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class GetDevicesTest {
    private static int devicesInBundledFleet() throws Exception {
        try (InputStream in = io.dra4j.sim.ClusterSnapshot.class.getResourceAsStream(SimulateCommand.BUNDLED_FLEET)) {
            Manifests m = ManifestReader.parse(in.readAllBytes(), "fleet");
            return m.resourceSlices().stream()
                    .mapToInt((ResourceSlice s) -> s.getSpec().getDevices() == null
                            ? 0
                            : s.getSpec().getDevices().size())
                    .sum();
        }
    }

    private static List<String> rows(CliRuns.Run run) {
        List<String> lines = Arrays.asList(run.out().split("\n"));
        int end = lines.indexOf("");
        return lines.subList(1, end < 0 ? lines.size() : end);
    }

    @Test
    void listsEveryDeviceWithItsHolderInKubectlsTableStyle() throws Exception {
        CliRuns.Run run = CliRuns.run("get", "devices");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out().split("\n")[0].split("\\s{3,}"))
                .containsExactly("NODE", "POOL", "DEVICE", "CLASSES", "TAINTS", "CLAIM", "POD");
        assertThat(rows(run)).hasSize(devicesInBundledFleet());
        // The bundled fleet's one claim allocated before the run holds four H100s for its pod.
        assertThat(rows(run).stream().filter(r -> r.contains("ml-train/warmup-0-gpus-x7k2p")))
                .hasSize(4)
                .allSatisfy(r -> assertThat(r).endsWith("ml-train/warmup-0"));
        assertThat(run.out()).contains("node pool p5.48xlarge: 4 of 32 device(s) held (12%), 1 tainted");
    }

    @Test
    void selectsByNodeLabelAndClassAndWritesJson() {
        CliRuns.Run h100 =
                CliRuns.run("get", "devices", "--class", "h100", "-l", "topology.kubernetes.io/zone", "-o", "json");
        assertThat(h100.status()).as(h100.err()).isZero();
        JsonNode devices = JsonMapper.builder().build().readTree(h100.out()).get("devices");
        assertThat(devices.size()).isEqualTo(32);
        devices.forEach(d -> assertThat(d.get("classes").toString()).contains("\"h100\""));

        CliRuns.Run none = CliRuns.run("get", "devices", "-l", "no-such-label");
        assertThat(rows(none)).isEmpty();
    }

    @Test
    void afterTheSimulationMoreDevicesAreHeld() {
        CliRuns.Run before = CliRuns.run("get", "devices", "-o", "wide");
        CliRuns.Run after = CliRuns.run("get", "devices", "--after-simulation", "-o", "wide");
        assertThat(after.status()).as(after.err()).isZero();
        assertThat(after.out().split("\n")[0].split("\\s{3,}"))
                .containsExactly(
                        "NODE",
                        "POOL",
                        "DEVICE",
                        "CLASSES",
                        "TAINTS",
                        "CLAIM",
                        "POD",
                        "KIND",
                        "NODE-POOL",
                        "ATTRIBUTES");
        assertThat(held(rows(before))).isEqualTo(4);
        assertThat(held(rows(after))).isGreaterThan(4);
    }

    /** Rows whose CLAIM column names a claim. */
    private static long held(List<String> rows) {
        return rows.stream()
                .filter(r -> !r.split("\\s{3,}")[5].equals("<none>"))
                .count();
    }

    @Test
    void badInput() {
        assertThat(CliRuns.run("get", "pods").status()).isEqualTo(2);
        CliRuns.Run unknown = CliRuns.run("get", "devices", "--class", "nope");
        assertThat(unknown.status()).isEqualTo(1);
        assertThat(unknown.err()).isEqualTo("dra4j: deviceclass nope not found in the snapshot\n");
    }
}
