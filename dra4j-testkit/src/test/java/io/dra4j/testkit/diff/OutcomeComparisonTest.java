package io.dra4j.testkit.diff;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class OutcomeComparisonTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final String UPSTREAM = """
            {"scenario":"s","outcome":"allocated","allocations":[{"claim":"claim-0","results":[
              {"request":"req-0","driver":"driver-a","pool":"pool-1","device":"device-1",
               "tolerations":[{"key":"key1","operator":"Exists","effect":"NoSchedule"}],
               "shareID":"7e1a0b52-0d9d-4f4e-9a43-34d1c1f0c9aa","consumedCapacity":{"memory":"4Gi","bandwidth":"500m"}}],
             "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]},
                                                  {"matchExpressions":[{"key":"region","operator":"In","values":["b","a"]}]}]}}]}""";

    @Test
    void equalMeaningIsEqualDespiteFormAndRandomShareIds() {
        String dra4j = """
                {"scenario":"s","outcome":"allocated","allocations":[{"claim":"claim-0","results":[
                  {"request":"req-0","driver":"driver-a","pool":"pool-1","device":"device-1","adminAccess":false,
                   "tolerations":[{"key":"key1","operator":"Exists","value":"","effect":"NoSchedule"}],
                   "bindingConditions":[],
                   "shareID":"0b8a4c0e-1111-4222-8333-444455556666","consumedCapacity":{"bandwidth":"0.5","memory":"4294967296"}}],
                 "nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"region","operator":"In","values":["a","b"]}]},
                                                      {"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]},
                 "config":[]}]}""";
        assertThat(OutcomeComparison.compare(read(UPSTREAM), read(dra4j), false))
                .isEmpty();
    }

    @Test
    void anotherDeviceIsADivergence() {
        String dra4j = UPSTREAM.replace("\"device-1\"", "\"device-2\"");
        assertThat(OutcomeComparison.compare(read(UPSTREAM), read(dra4j), false))
                .hasValueSatisfying(d -> {
                    assertThat(d.aspect()).isEqualTo("results");
                    assertThat(d.detail()).contains("device-1").contains("device-2");
                });
    }

    @Test
    void aMissingShareIdOrOtherConsumedCapacityIsADivergence() {
        String noShare = UPSTREAM.replaceAll("\"shareID\":\"[^\"]*\",", "");
        assertThat(OutcomeComparison.compare(read(UPSTREAM), read(noShare), false))
                .isPresent();
        String lessMemory = UPSTREAM.replace("\"memory\":\"4Gi\"", "\"memory\":\"4G\"");
        assertThat(OutcomeComparison.compare(read(UPSTREAM), read(lessMemory), false))
                .isPresent();
    }

    @Test
    void nodeSelectorAndOutcomeKindDifferencesAreFound() {
        String otherNode = UPSTREAM.replace("[\"node-1\"]", "[\"node-2\"]");
        assertThat(OutcomeComparison.compare(read(UPSTREAM), read(otherNode), false))
                .hasValueSatisfying(d -> assertThat(d.aspect()).isEqualTo("nodeSelector"));
        String unschedulable = "{\"scenario\":\"s\",\"outcome\":\"unschedulable\"}";
        assertThat(OutcomeComparison.compare(read(UPSTREAM), read(unschedulable), false))
                .hasValueSatisfying(d -> assertThat(d.aspect()).isEqualTo("outcome allocated vs unschedulable"));
    }

    @Test
    void resultOrderIsReportedAsSuch() {
        String two = """
                {"outcome":"allocated","allocations":[{"claim":"c","nodeSelector":null,"results":[
                  {"request":"r","driver":"d","pool":"p","device":"a"},{"request":"r","driver":"d","pool":"p","device":"b"}]}]}""";
        String swapped =
                two.replace("\"a\"}", "\"x\"}").replace("\"b\"}", "\"a\"}").replace("\"x\"}", "\"b\"}");
        assertThat(OutcomeComparison.compare(read(two), read(swapped), false))
                .hasValueSatisfying(d -> assertThat(d.aspect()).isEqualTo("result order"));
        assertThat(OutcomeComparison.compare(read(two), read(swapped), true)).isEmpty();
    }

    @Test
    void celRuntimeErrorsNamingAnotherDeviceDiffer() {
        String upstream =
                "{\"outcome\":\"error\",\"error\":\"claim claim-0: selector #1 on device driver-a/pool-1/device-0: "
                        + "CEL runtime error: no such key: fw. consider using CEL optional chaining (.? followed by orValue())\"}";
        assertThat(OutcomeComparison.compare(read(upstream), read(upstream), false))
                .isEmpty();
        String otherDevice = upstream.replace("driver-a/pool-1/device-0", "driver-a/pool-1/device-1");
        assertThat(OutcomeComparison.compare(read(upstream), read(otherDevice), false))
                .hasValueSatisfying(d -> assertThat(d.aspect()).isEqualTo("error message"));
    }

    @Test
    void withRandomPoolOrderErrorsMayNameAnotherDevice() {
        String upstream = "{\"outcome\":\"error\",\"error\":\"claim claim-0, request req-0: cannot add device "
                + "driver-a/pool-1/device-0 because a claim constraint would not be satisfied\"}";
        String dra4j = upstream.replace("driver-a/pool-1/device-0", "driver-a/pool-3/device-1");
        assertThat(OutcomeComparison.compare(read(upstream), read(dra4j), true)).isEmpty();
        assertThat(OutcomeComparison.compare(read(upstream), read(dra4j), false))
                .isPresent();
        String otherText = dra4j.replace("claim constraint", "class selector");
        assertThat(OutcomeComparison.compare(read(upstream), read(otherText), true))
                .isPresent();
    }

    @Test
    void quantitiesCompareByValue() {
        assertThat(Quantities.canonicalValue("4Gi")).isEqualTo(Quantities.canonicalValue("4294967296"));
        assertThat(Quantities.canonicalValue("500m")).isEqualTo(Quantities.canonicalValue("0.5"));
        assertThat(Quantities.canonicalValue("1k")).isEqualTo(Quantities.canonicalValue("1e3"));
        assertThat(Quantities.canonicalValue("1Ki")).isNotEqualTo(Quantities.canonicalValue("1k"));
        assertThat(Quantities.canonicalValue("0")).isEqualTo(Quantities.canonicalValue("0Gi"));
        assertThat(Quantities.canonicalValue("bogus")).isEqualTo("[bogus]");
    }

    private static JsonNode read(String json) {
        return JSON.readTree(json);
    }
}
