package io.dra4j.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.EvalResult;
import io.dra4j.migrate.internal.GpuNodeLabels;
import io.dra4j.migrate.internal.YamlDocuments;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DevicePluginMigrationTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/migrate");
    private static final Pattern EXPRESSION = Pattern.compile("expression: \"(.*)\"");

    private static DevicePluginMigration migration() throws IOException {
        return DevicePluginMigration.with(ResourceMapping.parse(Files.readString(GOLDEN.resolve("fpga-mapping.yaml"))));
    }

    /**
     * The classic nvidia.com/gpu Deployment and Job, MIG mixed strategy (with a flow-style limits map and node
     * affinity), and a Helm-rendered chart with comments: the rewritten text and the notes are pinned; each was read
     * and checked by hand against the rules in ClaimsRewrite (see also the properties below).
     */
    @ParameterizedTest
    @ValueSource(strings = {"classic-gpu", "mig-mixed", "helm-chart"})
    void claims(String name) throws IOException {
        String input = Files.readString(GOLDEN.resolve(name + ".yaml"));
        DevicePluginMigration.Result result = migration().claims(name + ".yaml", input);
        assertThat(result.output()).isEqualTo(Files.readString(GOLDEN.resolve(name + ".claims.yaml")));
        assertThat(result.findings().stream().map(Finding::format))
                .containsExactlyElementsOf(Files.readAllLines(GOLDEN.resolve(name + ".claims.findings")));
        assertThat(result.hasErrors()).isFalse();

        // Only what had to change changed: every input line is still there, in order, except the removed entries.
        List<String> kept = result.output().lines().toList();
        int at = 0;
        for (String line : input.lines().toList()) {
            if (removable(line)) {
                continue;
            }
            int found = kept.subList(at, kept.size()).indexOf(line);
            assertThat(found).as("line kept in order: " + line).isNotNegative();
            at += found + 1;
        }
        // No mapped device-plugin resource is left, and running again changes nothing.
        assertThat(result.output())
                .doesNotContainPattern("nvidia\\.com/(gpu|mig-[^:]*): *\"?\\d")
                .doesNotContain("example.com/fpga: 1");
        assertThat(migration().claims(name + ".yaml", result.output()).output()).isEqualTo(result.output());
    }

    private static boolean removable(String line) {
        String t = line.strip();
        return t.startsWith("nvidia.com/")
                || t.startsWith("example.com/fpga")
                || t.equals("limits:")
                || t.equals("requests:")
                || t.equals("nodeSelector:")
                || t.startsWith("limits: {");
    }

    @Test
    void bridge() throws IOException {
        Map<String, String> inputs = new LinkedHashMap<>();
        for (String name : List.of("classic-gpu", "mig-mixed", "helm-chart")) {
            inputs.put(name + ".yaml", Files.readString(GOLDEN.resolve(name + ".yaml")));
        }
        DevicePluginMigration.Result result = migration().bridge(inputs);
        assertThat(result.output()).isEqualTo(Files.readString(GOLDEN.resolve("bridge.yaml")));
        assertThat(result.findings().stream().map(Finding::format))
                .containsExactlyElementsOf(Files.readAllLines(GOLDEN.resolve("bridge.findings")));
        assertThat(result.rewritten()).isEqualTo(6);
        assertThat(new ApiConverter().toV1("bridge.yaml", result.output()).findings())
                .isEmpty();
    }

    /** What the rewrite writes is valid v1 (the converter checks it against 1.37's field list) and compiles. */
    @Test
    void generatedObjectsAreValidV1AndSelectorsCompile() throws IOException {
        DeviceSelectorEnvironment cel = DeviceSelectorEnvironment.create(new CelFeatures(true, false));
        for (String name : List.of("classic-gpu.claims", "mig-mixed.claims", "helm-chart.claims", "bridge")) {
            String text = Files.readString(GOLDEN.resolve(name + ".yaml"));
            for (YamlDocuments.Document d : YamlDocuments.read(text)) {
                if (d.text().contains("resource.k8s.io/v1")) {
                    assertThat(new ApiConverter().toV1(name, d.text()).findings())
                            .as(name)
                            .isEmpty();
                }
            }
            Matcher m = EXPRESSION.matcher(text);
            while (m.find()) {
                String expr = m.group(1).replace("\\\"", "\"");
                assertThat(cel.compile(expr).compileError()).as(expr).isEmpty();
            }
        }
    }

    /**
     * A GPU feature-discovery label of an A100 80GB node, as a selector, selects the DRA driver's device for that GPU
     * (attributes as node-side.md §5.2 lists them) and not an H100's.
     */
    @Test
    void nodeLabelSelectorsMatchTheDriversDevice() {
        DeviceSelectorEnvironment cel = DeviceSelectorEnvironment.create(new CelFeatures(true, false));
        Device a100 = gpu("NVIDIA A100-SXM4-80GB", "Ampere", "8.0.0", "81920Mi");
        Device h100 = gpu("NVIDIA H100 80GB HBM3", "Hopper", "9.0.0", "81559Mi");
        Map<String, String> a100Labels = Map.of(
                "nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB",
                "nvidia.com/gpu.family", "ampere",
                "nvidia.com/gpu.memory", "81920",
                "nvidia.com/gpu.compute.major", "8",
                "nvidia.com/cuda.driver-version.major", "570");
        for (Map.Entry<String, String> label : a100Labels.entrySet()) {
            String expr =
                    GpuNodeLabels.selector(label.getKey(), label.getValue()).orElseThrow();
            assertThat(cel.compile(expr).evaluate(cel.device("gpu.nvidia.com", a100)))
                    .as(expr)
                    .isEqualTo(new EvalResult.Matched(true));
            if (!label.getKey().contains("driver")) {
                assertThat(cel.compile(expr).evaluate(cel.device("gpu.nvidia.com", h100)))
                        .as(expr)
                        .isEqualTo(new EvalResult.Matched(false));
            }
        }
        assertThat(GpuNodeLabels.selector("nvidia.com/gpu.count", "8")).isEmpty();
    }

    private static Device gpu(String product, String arch, String cc, String memory) {
        Map<String, DeviceAttribute> attrs = new LinkedHashMap<>();
        attrs.put("type", new DeviceAttribute(null, null, null, null, "gpu", null, null, null));
        attrs.put("productName", new DeviceAttribute(null, null, null, null, product, null, null, null));
        attrs.put("architecture", new DeviceAttribute(null, null, null, null, arch, null, null, null));
        attrs.put("cudaComputeCapability", new DeviceAttribute(null, null, null, null, null, null, cc, null));
        attrs.put("driverVersion", new DeviceAttribute(null, null, null, null, null, null, "570.158.1", null));
        Device d = new Device();
        d.setName("gpu-0");
        d.setAttributes(attrs);
        d.setCapacity(Map.of("memory", new DeviceCapacity(null, new Quantity(memory))));
        return d;
    }
}
