package io.dra4j.scenario;

import static io.dra4j.scenario.Outcomes.allocated;
import static io.dra4j.scenario.Outcomes.classConfig;
import static io.dra4j.scenario.Outcomes.device;
import static io.dra4j.scenario.Outcomes.expect;
import static io.dra4j.scenario.Outcomes.onNode;
import static io.dra4j.scenario.Outcomes.result;
import static io.dra4j.scenario.Outcomes.sharedDevice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The comparison rules of docs/scenario-format.md, as conformance/check.py applies them. */
class OutcomeComparisonTest {
    private static final String DEVICE_1 =
            "  - request: req-0\n    driver: driver-a\n    pool: pool-1\n    device: device-1\n";
    private static final String DEVICE_2 =
            "  - request: req-0\n    driver: driver-a\n    pool: pool-1\n    device: device-2\n";

    private static String oneClaim(String results, String rest) {
        return "allocations:\n- claim: claim-0\n  results:\n" + results + rest;
    }

    private static boolean matches(String expectYaml, ScenarioOutcome outcome) {
        return OutcomeComparison.compare(expect(expectYaml), outcome).isEmpty();
    }

    private static final ScenarioOutcome TWO_DEVICES =
            allocated(result(null, List.of(), device("req-0", "device-1"), device("req-0", "device-2")));

    @Test
    void resultOrderCountsOnlyWhenAsserted() {
        String swapped = oneClaim(DEVICE_2 + DEVICE_1, "");
        assertThat(matches(swapped + "resultOrderAsserted: false\n", TWO_DEVICES))
                .isTrue();
        assertThat(OutcomeComparison.compare(expect(swapped + "resultOrderAsserted: true\n"), TWO_DEVICES))
                .get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("result #0");
        assertThat(matches(oneClaim(DEVICE_1 + DEVICE_2, "") + "resultOrderAsserted: true\n", TWO_DEVICES))
                .isTrue();
        assertThat(matches(oneClaim(DEVICE_1, ""), TWO_DEVICES)).isFalse();
        assertThat(matches(oneClaim(DEVICE_1 + DEVICE_1, ""), TWO_DEVICES)).isFalse();
    }

    @Test
    void quantitiesCompareByValue() {
        ScenarioOutcome shared = allocated(result(null, List.of(), sharedDevice()));
        String base = "  - request: req-1/sub-0\n    driver: driver-a\n    pool: pool-1\n    device: device-2\n"
                + "    tolerations: [{key: maintenance, operator: Exists, effect: NoSchedule, tolerationSeconds: 30}]\n"
                + "    bindingConditions: [attached]\n    bindingFailureConditions: [failed]\n    shareID: '*'\n";
        assertThat(matches(oneClaim(base + "    consumedCapacity: {memory: '1073741824', cores: 2}\n", ""), shared))
                .isTrue();
        assertThat(matches(oneClaim(base + "    consumedCapacity: {memory: 1Gi, cores: 2000m}\n", ""), shared))
                .isTrue();
        assertThat(matches(oneClaim(base + "    consumedCapacity: {memory: 1G, cores: 2}\n", ""), shared))
                .isFalse();
        assertThat(matches(oneClaim(base + "    consumedCapacity: {memory: 1Gi}\n", ""), shared))
                .isFalse();
    }

    @Test
    void shareIdStarMeansAnyButPresent() {
        ScenarioOutcome shared = allocated(result(
                null,
                List.of(),
                new DeviceRequestAllocationResultBuilder(device("req-0", "device-1"))
                        .withShareID("abc")
                        .build()));
        assertThat(matches(oneClaim(DEVICE_1 + "    shareID: '*'\n", "") + "resultOrderAsserted: true\n", shared))
                .isTrue();
        assertThat(matches(oneClaim(DEVICE_1 + "    shareID: abc\n", "") + "resultOrderAsserted: true\n", shared))
                .isTrue();
        assertThat(matches(oneClaim(DEVICE_1 + "    shareID: xyz\n", "") + "resultOrderAsserted: true\n", shared))
                .isFalse();
        assertThat(matches(oneClaim(DEVICE_1, ""), shared))
                .as("no shareID expected")
                .isFalse();
        ScenarioOutcome plain = allocated(result(null, List.of(), device("req-0", "device-1")));
        assertThat(matches(oneClaim(DEVICE_1 + "    shareID: '*'\n", ""), plain))
                .as("shareID expected")
                .isFalse();
    }

    @Test
    void nodeSelectorsCompareOrderInsensitivelyAndOnlyWhenGiven() {
        ScenarioOutcome selected = allocated(result(
                new NodeSelectorBuilder()
                        .addNewNodeSelectorTerm()
                        .addNewMatchExpression()
                        .withKey("zone")
                        .withOperator("In")
                        .withValues("a", "b")
                        .endMatchExpression()
                        .addNewMatchField()
                        .withKey("metadata.name")
                        .withOperator("In")
                        .withValues("node-1")
                        .endMatchField()
                        .endNodeSelectorTerm()
                        .build(),
                List.of(),
                device("req-0", "device-1")));
        String reordered =
                "  nodeSelector:\n    nodeSelectorTerms:\n    - matchFields: [{key: metadata.name, operator: In, values: [node-1]}]\n"
                        + "      matchExpressions: [{key: zone, operator: In, values: [b, a]}]\n";
        assertThat(matches(oneClaim(DEVICE_1, reordered), selected)).isTrue();
        assertThat(matches(oneClaim(DEVICE_1, ""), selected)).as("not asserted").isTrue();
        assertThat(matches(oneClaim(DEVICE_1, "  nodeSelector: null\n"), selected))
                .isFalse();
        ScenarioOutcome anyNode = allocated(result(null, List.of(), device("req-0", "device-1")));
        assertThat(matches(oneClaim(DEVICE_1, "  nodeSelector: null\n"), anyNode))
                .isTrue();
        ScenarioOutcome local = allocated(result(onNode("node-1"), List.of(), device("req-0", "device-1")));
        assertThat(matches(oneClaim(DEVICE_1, reordered), local)).isFalse();
    }

    @Test
    void absentConfigMeansNone() {
        ScenarioOutcome configured = allocated(result(null, List.of(classConfig()), device("req-0", "device-1")));
        assertThat(matches(oneClaim(DEVICE_1, ""), configured)).isFalse();
        String config = "  config:\n  - opaque: {parameters: {zeta: 1, alpha: <x>}, driver: driver-a}\n"
                + "    requests: [req-0]\n    source: FromClass\n";
        assertThat(matches(oneClaim(DEVICE_1, config), configured)).isTrue();
        assertThat(matches(oneClaim(DEVICE_1, config.replace("req-0]", "req-1]")), configured))
                .isFalse();
        ScenarioOutcome plain = allocated(result(null, List.of(), device("req-0", "device-1")));
        assertThat(matches(oneClaim(DEVICE_1, "  config: []\n"), plain)).isTrue();
    }

    @Test
    void tolerationsIgnoreEmptyFieldsAndOrder() {
        ScenarioOutcome tolerating = allocated(result(
                null,
                List.of(),
                new DeviceRequestAllocationResultBuilder(device("req-0", "device-1"))
                        .withTolerations(
                                new DeviceTolerationBuilder()
                                        .withKey("a")
                                        .withOperator("Exists")
                                        .build(),
                                new DeviceTolerationBuilder()
                                        .withKey("b")
                                        .withOperator("Equal")
                                        .withValue("x")
                                        .build())
                        .build()));
        String tolerations = "    tolerations:\n    - {key: b, operator: Equal, value: x, effect: ''}\n"
                + "    - {key: a, operator: Exists}\n";
        assertThat(matches(oneClaim(DEVICE_1 + tolerations, ""), tolerating)).isTrue();
        assertThat(matches(oneClaim(DEVICE_1 + tolerations.replace("value: x", "value: y"), ""), tolerating))
                .isFalse();
    }

    @Test
    void errorsMatchBySubstring() {
        ScenarioOutcome failed = Outcomes.failed("claim claim-0, request req-0: missing device class name");
        assertThat(matches("error: 'request req-0: missing device'\n", failed)).isTrue();
        assertThat(OutcomeComparison.compare(expect("error: 'no such class'\n"), failed))
                .get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("lacks 'no such class'");
        assertThat(matches("error: 'x'\n", TWO_DEVICES)).isFalse();
        assertThat(matches("error: 'x'\n", Outcomes.unschedulable())).isFalse();
    }

    @Test
    void outcomeKindsMustAgree() {
        assertThat(matches("unschedulable: true\n", Outcomes.unschedulable())).isTrue();
        assertThat(matches("unschedulable: true\n", TWO_DEVICES)).isFalse();
        assertThat(matches("unschedulable: true\n", Outcomes.failed("boom"))).isFalse();
        assertThat(matches(oneClaim(DEVICE_1 + DEVICE_2, ""), Outcomes.unschedulable()))
                .isFalse();
        assertThat(matches(oneClaim(DEVICE_1 + DEVICE_2, ""), Outcomes.failed("boom")))
                .isFalse();
    }

    @Test
    void claimsCompareByCountAndName() {
        assertThat(matches(oneClaim(DEVICE_1 + DEVICE_2, "") + "- claim: claim-1\n  results: []\n", TWO_DEVICES))
                .isFalse();
        assertThat(matches(oneClaim(DEVICE_1 + DEVICE_2, "").replace("claim-0", "other"), TWO_DEVICES))
                .isFalse();
        assertThat(matches("allocations: []\n", allocated())).isTrue();
    }

    @Test
    void quantityNormalisation() {
        assertThat(OutcomeComparison.quantity("4Gi")).isEqualTo(OutcomeComparison.quantity("4294967296"));
        assertThat(OutcomeComparison.quantity("1.5k")).isEqualTo(OutcomeComparison.quantity(1500));
        assertThat(OutcomeComparison.quantity("100m")).isEqualTo(OutcomeComparison.quantity("0.1"));
        assertThat(OutcomeComparison.quantity("1e3")).isEqualTo(OutcomeComparison.quantity("1k"));
        assertThat(OutcomeComparison.quantity(java.util.Map.of("value", "2")))
                .isEqualTo(OutcomeComparison.quantity("2"));
        assertThat(OutcomeComparison.quantity("lots")).isNotEqualTo(OutcomeComparison.quantity("0"));
    }
}
