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

        assertThat(TraceComparison.compare(upstream, dra4j)).isEqualTo(TraceComparison.Result.SAME);
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
                .isEqualTo(new TraceComparison.Result(java.util.Optional.empty(), TraceComparison.Tie.NODE));
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

    private static final String TIED = """
            {"pod":"ns/p","feasible":[],"rejected":{"a":{"plugin":"NodeResourcesFit","code":"Unschedulable",
             "reasons":["Insufficient cpu"]}},"best":[],"node":"","nominate":"%s",
             "victims":%s,"nominationTies":{"a":["ns/v1"],"b":["ns/v2","ns/v3"]}}
            """;

    @Test
    void nominatingAnotherTiedCandidateWithUpstreamsVictimsThereIsAPreemptionTieThatEndsTheComparison() {
        var upstream = List.of(attempt(TIED.formatted("a", "[\"ns/v1\"]")), attempt(BOUND.formatted("a", "")));
        var dra4j = List.of(
                attempt(PREEMPTED.formatted(",\"nominate\":\"b\",\"victims\":[\"ns/v3\",\"ns/v2\"]")),
                attempt("{\"pod\":\"other\"}"));

        assertThat(TraceComparison.compare(upstream, dra4j))
                .isEqualTo(new TraceComparison.Result(java.util.Optional.empty(), TraceComparison.Tie.NOMINATION));
    }

    @Test
    void aTiedCandidateWithOtherVictimsIsAVictimsDivergenceAndAnUntiedOneANominateDivergence() {
        var upstream = List.of(attempt(TIED.formatted("a", "[\"ns/v1\"]")));
        var otherVictims = List.of(attempt(PREEMPTED.formatted(",\"nominate\":\"b\",\"victims\":[\"ns/v2\"]")));
        var untied = List.of(attempt(PREEMPTED.formatted(",\"nominate\":\"c\",\"victims\":[\"ns/v4\"]")));
        var cleared = List.of(attempt(PREEMPTED.formatted(",\"nominate\":\"\"")));

        var victims =
                TraceComparison.compare(upstream, otherVictims).difference().orElseThrow();
        assertThat(victims.aspect()).isEqualTo("victims");
        assertThat(victims.detail()).contains("[\"ns/v2\",\"ns/v3\"]");
        var nominate = TraceComparison.compare(upstream, untied).difference().orElseThrow();
        assertThat(nominate.aspect()).isEqualTo("nominate");
        assertThat(nominate.detail()).contains("tied: [a, b]");
        assertThat(TraceComparison.compare(upstream, cleared)
                        .difference()
                        .orElseThrow()
                        .aspect())
                .isEqualTo("nominate");
    }

    @Test
    void withoutATieSetFromTheOracleAnotherNominationStaysADivergence() {
        var upstream = List.of(attempt(TIED.formatted("a", "[\"ns/v1\"]")
                .replace(",\"nominationTies\":{\"a\":[\"ns/v1\"],\"b\":[\"ns/v2\",\"ns/v3\"]}", "")));
        var dra4j = List.of(attempt(PREEMPTED.formatted(",\"nominate\":\"b\",\"victims\":[\"ns/v2\",\"ns/v3\"]")));

        assertThat(TraceComparison.compare(upstream, dra4j)
                        .difference()
                        .orElseThrow()
                        .aspect())
                .isEqualTo("nominate");
    }

    private static final String DONE = """
            {"done":true,"outcome":{"pods":{"ns/g-0":"a","ns/g-1":"","ns/h-0":""},
             "preEnqueue":{"ns/h-0":"waiting for pods's pod group \\"h\\" to appear in scheduling queue"},
             "podGroups":{"ns/g":{"scheduled":1,"status":""},"ns/idle":{"scheduled":0,"status":"not scheduled"}}}}
            """;

    private static ObjectNode dra4jOutcome(String gangStatus, boolean fits) {
        ObjectNode o = attempt("""
                {"pods":{"ns/g-0":"a","ns/g-1":"","ns/h-0":""},
                 "reasons":{"ns/g-1":"x","ns/h-0":"waiting for pods's pod group \\"h\\" to appear in scheduling queue"},
                 "podGroups":{"ns/g":{"scheduled":1,"fits":true,"status":""}}}
                """);
        ((ObjectNode) o.get("podGroups").get("ns/g")).put("fits", fits).put("status", gangStatus);
        return o;
    }

    @Test
    void equalOutcomesDoNotDifferAndAPodGroupNoCycleRanForIsNotCompared() {
        var r = TraceComparison.compare(
                List.of(), attempt(DONE), new Dra4jTrace.Run(List.of(), dra4jOutcome("", true)));

        assertThat(r).isEqualTo(TraceComparison.Result.SAME);
    }

    @Test
    void aPodEndingElsewhereAPreEnqueueMessageAndAGangStatusAreOutcomeDivergences() {
        ObjectNode moved = dra4jOutcome("", true);
        ((ObjectNode) moved.get("pods")).put("ns/g-1", "b");
        ObjectNode held = dra4jOutcome("", true);
        ((ObjectNode) held.get("reasons")).put("ns/h-0", "no PodGroup");
        ObjectNode status = dra4jOutcome("minCount (2) cannot be satisfied: 1 scheduled, 0 remaining", false);

        var byNode = TraceComparison.compare(List.of(), attempt(DONE), new Dra4jTrace.Run(List.of(), moved));
        var byReason = TraceComparison.compare(List.of(), attempt(DONE), new Dra4jTrace.Run(List.of(), held));
        var byStatus = TraceComparison.compare(List.of(), attempt(DONE), new Dra4jTrace.Run(List.of(), status));

        assertThat(byNode.difference().orElseThrow().signature()).isEqualTo("outcome node");
        assertThat(byNode.difference().orElseThrow().detail()).contains("ns/g-1 ends pending upstream, on b in dra4j");
        assertThat(byReason.difference().orElseThrow().signature()).isEqualTo("outcome preEnqueue");
        assertThat(byStatus.difference().orElseThrow().signature()).isEqualTo("outcome podGroup status");
    }
}
