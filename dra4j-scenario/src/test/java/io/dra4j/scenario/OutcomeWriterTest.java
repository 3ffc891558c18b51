package io.dra4j.scenario;

import static io.dra4j.scenario.Outcomes.allocated;
import static io.dra4j.scenario.Outcomes.classConfig;
import static io.dra4j.scenario.Outcomes.device;
import static io.dra4j.scenario.Outcomes.onNode;
import static io.dra4j.scenario.Outcomes.result;
import static io.dra4j.scenario.Outcomes.sharedDevice;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutcomeWriterTest {
    private static final ScenarioOutcome FULL = allocated(
            result(onNode("node-1"), List.of(classConfig()), device("req-0", "device-1"), sharedDevice()),
            result(null, List.of(), device("req-0", "device-3")));

    /**
     * The shape of the Go oracle's structs (oracle/cmd/oracle/output.go and k8s.io/api): fields in struct order,
     * omitempty fields left out, quantities canonical, map keys sorted, HTML characters escaped as Go does.
     */
    @Test
    void jsonLineHasTheOracleShape() {
        assertThat(OutcomeWriter.json(FULL))
                .isEqualTo("{\"scenario\":\"s\",\"outcome\":\"allocated\",\"allocations\":["
                        + "{\"claim\":\"claim-0\",\"results\":["
                        + "{\"request\":\"req-0\",\"driver\":\"driver-a\",\"pool\":\"pool-1\",\"device\":\"device-1\"},"
                        + "{\"request\":\"req-1/sub-0\",\"driver\":\"driver-a\",\"pool\":\"pool-1\",\"device\":\"device-2\","
                        + "\"tolerations\":[{\"key\":\"maintenance\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\",\"tolerationSeconds\":30}],"
                        + "\"bindingConditions\":[\"attached\"],\"bindingFailureConditions\":[\"failed\"],\"shareID\":\"share-1\","
                        + "\"consumedCapacity\":{\"cores\":\"2\",\"memory\":\"1Gi\"}}],"
                        + "\"nodeSelector\":{\"nodeSelectorTerms\":[{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"node-1\"]}]}]},"
                        + "\"config\":[{\"source\":\"FromClass\",\"requests\":[\"req-0\"],\"opaque\":{\"driver\":\"driver-a\","
                        + "\"parameters\":{\"alpha\":\"\\u003cx\\u003e\",\"zeta\":1}}}]},"
                        + "{\"claim\":\"claim-1\",\"results\":[{\"request\":\"req-0\",\"driver\":\"driver-a\",\"pool\":\"pool-1\",\"device\":\"device-3\"}],"
                        + "\"nodeSelector\":null}]}");
    }

    @Test
    void adminAccessOnlyWhenTrue() {
        var admin = new io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder(
                        device("req-0", "device-1"))
                .withAdminAccess(true)
                .build();
        var notAdmin = new io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder(
                        device("req-0", "device-2"))
                .withAdminAccess(false)
                .build();
        assertThat(OutcomeWriter.json(allocated(result(null, List.of(), admin, notAdmin))))
                .contains("\"device\":\"device-1\",\"adminAccess\":true}")
                .contains("\"device\":\"device-2\"}");
    }

    @Test
    void errorAndUnschedulableLines() {
        assertThat(OutcomeWriter.json(Outcomes.failed("claim c: <input>:1 & \"x\"\n | ^")))
                .isEqualTo(
                        "{\"scenario\":\"s\",\"outcome\":\"error\",\"error\":\"claim c: \\u003cinput\\u003e:1 \\u0026 \\\"x\\\"\\n | ^\"}");
        assertThat(OutcomeWriter.json(Outcomes.unschedulable()))
                .isEqualTo("{\"scenario\":\"s\",\"outcome\":\"unschedulable\"}");
        assertThat(OutcomeWriter.render(Outcomes.unschedulable(), OutcomeWriter.Format.JSON))
                .isEqualTo("{\"scenario\":\"s\",\"outcome\":\"unschedulable\"}\n");
    }

    @Test
    void yamlHoldsTheSameStructure() {
        Object fromYaml = Mappers.READER.readValue(OutcomeWriter.yaml(FULL), Object.class);
        Object fromJson = Mappers.READER.readValue(OutcomeWriter.json(FULL), Object.class);
        assertThat(fromYaml).isEqualTo(fromJson);
        assertThat(OutcomeWriter.yaml(FULL)).startsWith("---\nscenario: s\noutcome: allocated\n");
        assertThat(OutcomeWriter.render(Outcomes.unschedulable(), OutcomeWriter.Format.YAML))
                .isEqualTo("---\nscenario: s\noutcome: unschedulable\n");
    }

    @Test
    void textShowsDevicesNodeSelectorsAndConfig() {
        assertThat(OutcomeWriter.text(FULL)).isEqualTo("""
                s: allocated
                  claim claim-0 on metadata.name in (node-1)
                    req-0 -> driver-a/pool-1/device-1
                    req-1/sub-0 -> driver-a/pool-1/device-2 (shareID share-1; consumed cores=2, memory=1Gi; \
                tolerates maintenance:NoSchedule; binding conditions [attached]; binding failure conditions [failed])
                    config FromClass driver-a {"alpha":"\\u003cx\\u003e","zeta":1} for req-0
                  claim claim-1 on any node
                    req-0 -> driver-a/pool-1/device-3
                """);
    }

    @Test
    void textShowsErrorsAndUnschedulable() {
        assertThat(OutcomeWriter.text(Outcomes.failed("claim c: bad\nsecond line")))
                .isEqualTo("s: error\n  claim c: bad\n  second line\n");
        assertThat(OutcomeWriter.render(Outcomes.unschedulable(), OutcomeWriter.Format.TEXT))
                .isEqualTo("s: unschedulable\n");
    }

    @Test
    void shortNodeSelectorForms() {
        Map<String, Object> selector = Map.of(
                "nodeSelectorTerms",
                List.of(
                        Map.of(
                                "matchExpressions",
                                List.of(
                                        Map.of("key", "zone", "operator", "NotIn", "values", List.of("a", "b")),
                                        Map.of("key", "gpu", "operator", "Exists"))),
                        Map.of(
                                "matchExpressions",
                                List.of(Map.of("key", "cores", "operator", "Gt", "values", List.of("8"))))));
        assertThat(TextRenderer.nodeSelector(selector)).isEqualTo("zone notin (a, b) && gpu exists || cores > 8");
        assertThat(TextRenderer.nodeSelector(null)).isEqualTo("any node");
    }
}
