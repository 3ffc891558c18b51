package io.dra4j.testkit.simdiff;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class TraceComparisonTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ObjectNode attempt(String json) {
        return (ObjectNode) JSON.readTree(json);
    }

    private static final String BOUND = """
            {"pod":"ns/p","feasible":["a","b"],"rejected":{"c":{"plugin":"TaintToleration",
             "code":"UnschedulableAndUnresolvable","reasons":["node(s) had untolerated taint {k: v}"]}},
             "scores":{"a":{"total":150,"plugins":{"NodeResourcesFit":50,"TaintToleration":100,"ImageLocality":0}},
                       "b":{"total":150,"plugins":{"NodeResourcesFit":50,"TaintToleration":100}}},
             "best":["a","b"],"node":"%s",
             "claims":{"gpus":{"devices":{"results":[{"request":"gpu","driver":"d","pool":"a","device":"gpu-0"}]}%s}}}
            """;

    @Test
    void equalTracesDoNotDifferAndZeroScoresAndAllocationTimestampsDoNotCount() {
        var upstream = List.of(attempt(BOUND.formatted("a", ",\"allocationTimestamp\":\"2026-12-01T00:00:00Z\"")));
        var dra4j = List.of(attempt(BOUND.formatted("a", "").replace(",\"ImageLocality\":0", "")));

        assertThat(TraceComparison.compare(upstream, dra4j))
                .isEqualTo(new TraceComparison.Result(java.util.Optional.empty(), false));
    }

    @Test
    void aDifferentPluginRejectingANodeIsAFilterDivergenceNamingThePlugin() {
        var upstream = List.of(attempt(BOUND.formatted("a", "")));
        var dra4j = List.of(attempt(BOUND.formatted("a", "").replace("TaintToleration\",", "NodeAffinity\",")));

        var d = TraceComparison.compare(upstream, dra4j).difference().orElseThrow();

        assertThat(d.aspect()).isEqualTo("filter");
        assertThat(d.signature()).isEqualTo("filter TaintToleration");
        assertThat(d.detail()).contains("node c");
    }

    @Test
    void aScoreDifferenceNamesThePluginsThatDiffer() {
        var upstream = List.of(attempt(BOUND.formatted("a", "")));
        var dra4j = List.of(attempt(BOUND.formatted("a", "")
                .replace(
                        "\"total\":150,\"plugins\":{\"NodeResourcesFit\":50,\"TaintToleration\":100,",
                        "\"total\":149,\"plugins\":{\"NodeResourcesFit\":49,\"TaintToleration\":100,")));

        var d = TraceComparison.compare(upstream, dra4j).difference().orElseThrow();

        assertThat(d.signature()).isEqualTo("score [NodeResourcesFit]");
    }

    @Test
    void anotherOfTheBestNodesIsATieThatEndsTheComparisonAndANodeOutsideTheBestIsADivergence() {
        var upstream = List.of(attempt(BOUND.formatted("a", "")), attempt(BOUND.formatted("a", "")));
        var tie = List.of(attempt(BOUND.formatted("b", "")), attempt("{\"pod\":\"other\"}"));

        assertThat(TraceComparison.compare(upstream, tie))
                .isEqualTo(new TraceComparison.Result(java.util.Optional.empty(), true));
        var outside = List.of(attempt(BOUND.formatted("c", "")), attempt(BOUND.formatted("a", "")));
        assertThat(TraceComparison.compare(upstream, outside)
                        .difference()
                        .orElseThrow()
                        .aspect())
                .isEqualTo("node");
    }

    @Test
    void anExtraAttemptOnEitherSideIsADivergence() {
        var one = List.of(attempt(BOUND.formatted("a", "")));
        var two = List.of(attempt(BOUND.formatted("a", "")), attempt(BOUND.formatted("a", "")));

        assertThat(TraceComparison.compare(one, two).difference().orElseThrow().aspect())
                .isEqualTo("attempts");
        assertThat(TraceComparison.compare(two, one).difference().orElseThrow().aspect())
                .isEqualTo("attempts");
    }

    private static final String PREEMPTED = """
            {"pod":"ns/p","feasible":[],"rejected":{"a":{"plugin":"NodeResourcesFit","code":"Unschedulable",
             "reasons":["Insufficient cpu"]}},"best":[],"node":""%s}
            """;

    @Test
    void victimsCompareAsASetAndOtherVictimsAreAVictimsDivergence() {
        var upstream = List.of(attempt(PREEMPTED.formatted(",\"nominate\":\"a\",\"victims\":[\"ns/v1\",\"ns/v2\"]")));
        var reordered = List.of(attempt(PREEMPTED.formatted(",\"nominate\":\"a\",\"victims\":[\"ns/v2\",\"ns/v1\"]")));
        var fewer = List.of(attempt(PREEMPTED.formatted(",\"nominate\":\"a\",\"victims\":[\"ns/v1\"]")));

        assertThat(TraceComparison.compare(upstream, reordered).difference()).isEmpty();
        var d = TraceComparison.compare(upstream, fewer).difference().orElseThrow();
        assertThat(d.aspect()).isEqualTo("victims");
        assertThat(d.detail()).contains("ns/v2");
    }

    @Test
    void clearingANominationIsNotLeavingItAndNominatingAnotherNodeDiffers() {
        var cleared = List.of(attempt(PREEMPTED.formatted(",\"nominate\":\"\"")));
        var left = List.of(attempt(PREEMPTED.formatted("")));
        var other = List.of(attempt(PREEMPTED.formatted(",\"nominate\":\"b\"")));

        assertThat(TraceComparison.compare(cleared, left)
                        .difference()
                        .orElseThrow()
                        .aspect())
                .isEqualTo("nominate");
        assertThat(TraceComparison.compare(cleared, other)
                        .difference()
                        .orElseThrow()
                        .aspect())
                .isEqualTo("nominate");
        assertThat(TraceComparison.compare(left, left).difference()).isEmpty();
    }
}
