package io.dra4j.scenario;

import io.dra4j.allocator.AllocationOutcome;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** Test fixtures: allocation outcomes built with the fabric8 builders, expectations read from YAML text. */
final class Outcomes {
    private Outcomes() {}

    static DeviceRequestAllocationResult device(String request, String device) {
        return new DeviceRequestAllocationResultBuilder()
                .withRequest(request)
                .withDriver("driver-a")
                .withPool("pool-1")
                .withDevice(device)
                .build();
    }

    /** A result for device-2 with every optional field set. */
    static DeviceRequestAllocationResult sharedDevice() {
        Map<String, Quantity> consumed = new LinkedHashMap<>();
        consumed.put("memory", new Quantity("1024Mi"));
        consumed.put("cores", new Quantity("2"));
        return new DeviceRequestAllocationResultBuilder(device("req-1/sub-0", "device-2"))
                .withTolerations(new DeviceTolerationBuilder()
                        .withKey("maintenance")
                        .withOperator("Exists")
                        .withEffect("NoSchedule")
                        .withTolerationSeconds(30L)
                        .build())
                .withBindingConditions("attached")
                .withBindingFailureConditions("failed")
                .withShareID("share-1")
                .withConsumedCapacity(consumed)
                .build();
    }

    static NodeSelector onNode(String node) {
        return new NodeSelectorBuilder()
                .addNewNodeSelectorTerm()
                .addNewMatchField()
                .withKey("metadata.name")
                .withOperator("In")
                .withValues(node)
                .endMatchField()
                .endNodeSelectorTerm()
                .build();
    }

    static DeviceAllocationConfiguration classConfig() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("zeta", 1);
        parameters.put("alpha", "<x>");
        return new DeviceAllocationConfigurationBuilder()
                .withSource("FromClass")
                .withRequests("req-0")
                .withNewOpaque()
                .withDriver("driver-a")
                .withParameters(parameters)
                .endOpaque()
                .build();
    }

    static AllocationResult result(
            NodeSelector selector,
            List<DeviceAllocationConfiguration> config,
            DeviceRequestAllocationResult... results) {
        return new AllocationResultBuilder()
                .withNewDevices()
                .withResults(results)
                .withConfig(config)
                .endDevices()
                .withNodeSelector(selector)
                .build();
    }

    static ScenarioOutcome allocated(AllocationResult... perClaim) {
        List<String> claims = new java.util.ArrayList<>();
        for (int i = 0; i < perClaim.length; i++) {
            claims.add("claim-" + i);
        }
        return new ScenarioOutcome("s", claims, new AllocationOutcome.Allocated(List.of(perClaim)));
    }

    static ScenarioOutcome failed(String message) {
        return new ScenarioOutcome("s", List.of("claim-0"), new AllocationOutcome.Failed(message, false));
    }

    static ScenarioOutcome unschedulable() {
        return new ScenarioOutcome(
                "s", List.of("claim-0"), new AllocationOutcome.Unschedulable("cannot allocate all claims"));
    }

    /** An expectation written as the body of an {@code expect} block. */
    static Expectation expect(String yaml) {
        JsonNode node = Mappers.READER.readTree(yaml);
        return ExpectationParser.parse(node, "expect");
    }
}
