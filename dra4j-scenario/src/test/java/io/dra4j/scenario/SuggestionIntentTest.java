package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.KubernetesVersion;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A suggestion never widens a claim beyond what its class and request intend: class selectors stay, and a request
 * selector that restricts the driver stays, so no verified fix hands a NIC to a GPU claim (issue 9).
 */
class SuggestionIntentTest {
    private static final String SCENARIO = """
            name: intent
            node:
              name: node-1
            deviceClasses:
            - apiVersion: resource.k8s.io/v1
              kind: DeviceClass
              metadata: {name: %s}
              spec:
                selectors: %s
            resourceSlices:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceSlice
              metadata: {name: gpus}
              spec:
                driver: gpu.example.com
                pool: {name: gpus, generation: 1, resourceSliceCount: 1}
                nodeName: node-1
                devices:
                - name: gpu-0
                  attributes:
                    model: {string: a100}
            - apiVersion: resource.k8s.io/v1
              kind: ResourceSlice
              metadata: {name: nics}
              spec:
                driver: nic.example.com
                pool: {name: nics, generation: 1, resourceSliceCount: 1}
                nodeName: node-1
                devices:
                - name: nic-0
            claims:
            - apiVersion: resource.k8s.io/v1
              kind: ResourceClaim
              metadata: {name: train}
              spec:
                devices:
                  requests:
                  - name: gpu
                    exactly:
                      deviceClassName: %s
                      selectors:
                      - cel:
                          expression: '%s'
            """;

    @TempDir
    Path dir;

    private Scenario scenario(String className, String classSelectors, String requestSelector) throws Exception {
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, SCENARIO.formatted(className, classSelectors, className, requestSelector));
        return ScenarioReader.read(file, true);
    }

    /** Every suggestion, applied, gives the request only GPUs; none drops a class selector. */
    private static void assertIntentKept(Scenario s) throws Exception {
        Explanation x = ScenarioRunner.explain(s, KubernetesVersion.V1_37);
        assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Unschedulable.class);
        var allocator = ScenarioRunner.allocator(s, KubernetesVersion.V1_37);
        for (Explanation.Suggestion suggestion : x.suggestions()) {
            assertThat(suggestion.change())
                    .as(suggestion.description())
                    .isNotInstanceOf(Explanation.Change.DropClassSelector.class);
            AllocationOutcome after = allocator.allocateWith(suggestion.change(), s.node(), s.claims());
            if (after instanceof AllocationOutcome.Allocated a) {
                for (DeviceRequestAllocationResult r :
                        a.results().get(0).getDevices().getResults()) {
                    assertThat(r.getDriver()).as(suggestion.description()).isEqualTo("gpu.example.com");
                }
            }
        }
    }

    @Test
    void requestSelectorNamingTheDriverIsNeverDropped() throws Exception {
        Scenario s = scenario(
                "any",
                "[]",
                "device.driver == \"gpu.example.com\" && device.attributes[\"gpu.example.com\"].model == \"h100\"");
        assertIntentKept(s);
        Explanation x = ScenarioRunner.explain(s, KubernetesVersion.V1_37);
        assertThat(x.suggestions()).noneMatch(g -> g.change() instanceof Explanation.Change.DropSelector);
    }

    @Test
    void requestSelectorWhoseDevicesAreOfOneDriverIsNotDroppedWhenOthersWouldGetIn() throws Exception {
        Scenario s = scenario("any", "[]", "device.attributes[\"gpu.example.com\"].?model.orValue(\"\") == \"h100\"");
        assertIntentKept(s);
    }

    @Test
    void classSelectorsAreNeverDropped() throws Exception {
        Scenario s = scenario(
                "gpu",
                "[{cel: {expression: 'device.attributes[\"gpu.example.com\"].?model.orValue(\"\") == \"h100\"'}}]",
                "true");
        assertIntentKept(s);
    }
}
