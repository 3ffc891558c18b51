package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The toleration fix {@code explain} prints as YAML: pasted where it says into the claim, the claims allocate. The
 * YAML is read back with the project's reader and decoded into the fabric8 model, as a user's edited file would be.
 */
class TolerationYamlTest {
    @Test
    void pastedTolerationsMakeTheClaimFit() throws Exception {
        Path file = RepoPaths.conformanceCases().resolve("tainted-two-devices.yaml");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(file), "conformance case present");
        Scenario s = ScenarioReader.read(file);
        Explanation x = ScenarioRunner.explain(s, KubernetesVersion.LATEST);
        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Unschedulable.class);
        String text = ExplanationWriter.text(s.name(), x);

        // The block after "paste into claim C, spec.devices.requests[name=R].exactly.tolerations:".
        List<String> lines = text.lines().toList();
        int at = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("    paste into claim ")) {
                at = i;
                break;
            }
        }
        assertThat(at).as(text).isNotNegative();
        String header = lines.get(at);
        String claimName = header.substring("    paste into claim ".length(), header.indexOf(", "));
        String request = header.substring(header.indexOf("[name=") + 6, header.indexOf("]"));
        StringBuilder yaml = new StringBuilder();
        for (int i = at + 1; i < lines.size() && lines.get(i).startsWith("      "); i++) {
            yaml.append(lines.get(i).substring(6)).append('\n');
        }
        List<DeviceToleration> pasted = new ArrayList<>();
        for (JsonNode item :
                YamlDocuments.read(yaml.toString().getBytes()).get(0).root()) {
            pasted.add(Json.decode(item, DeviceToleration.class, Mappers.API_READER));
        }
        assertThat(pasted).isNotEmpty();

        List<ResourceClaim> claims = new ArrayList<>();
        for (ResourceClaim c : s.claims()) {
            ResourceClaim copy = new ResourceClaimBuilder(c).build();
            if (copy.getMetadata().getName().equals(claimName)) {
                for (DeviceRequest r : copy.getSpec().getDevices().getRequests()) {
                    if (r.getName().equals(request)) {
                        List<DeviceToleration> all =
                                new ArrayList<>(r.getExactly().getTolerations());
                        all.addAll(pasted);
                        r.getExactly().setTolerations(all);
                    }
                }
            }
            claims.add(copy);
        }
        Scenario fixed = new Scenario(
                s.name(),
                s.source(),
                s.features(),
                s.confidence(),
                s.notes(),
                s.node(),
                s.deviceClasses(),
                s.resourceSlices(),
                s.deviceTaintRules(),
                s.allocatedDevices(),
                claims,
                s.expectation(),
                s.sourcePath());
        assertThat(ScenarioRunner.run(fixed, KubernetesVersion.LATEST))
                .as(text)
                .isInstanceOf(AllocationOutcome.Allocated.class);
    }
}
