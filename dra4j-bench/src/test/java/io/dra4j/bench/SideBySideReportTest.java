package io.dra4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SideBySideReportTest {

    @Test
    void upstreamAndDra4jOutcomesDescribeAlikeWhenTheyPickTheSameDevices() {
        Workload w = Workloads.byName("partitionable_backtracking");
        AllocationOutcome mine = w.allocatorBuilder(w.allocatedState()).build().allocate(w.node(), w.claims());
        StringBuilder results = new StringBuilder();
        for (int d = 2; d <= 8; d++) {
            results.append(d > 2 ? "," : "")
                    .append("{\"request\":\"req-0\",\"driver\":\"test-driver.cdi.k8s.io\","
                            + "\"pool\":\"resourceslice-0\",\"device\":\"device-")
                    .append(d)
                    .append("\"}");
        }
        String upstreamLine = "{\"scenario\":\"partitionable_backtracking\",\"outcome\":\"allocated\","
                + "\"allocations\":[{\"claim\":\"test-claim\",\"results\":[" + results + "]}]}";
        String upstream = SideBySideReport.describe(ScenarioFiles.json().readTree(upstreamLine));
        assertThat(SideBySideReport.describe(mine)).isEqualTo(upstream);
        assertThat(upstream).startsWith("allocated: [req-0=resourceslice-0/device-2 ");
    }

    @Test
    void unschedulableAndErrorsAreDescribedByOutcome() {
        assertThat(SideBySideReport.describe(new AllocationOutcome.Unschedulable("x")))
                .isEqualTo("unschedulable");
        assertThat(SideBySideReport.describe(
                        ScenarioFiles.json().readTree("{\"scenario\":\"s\",\"outcome\":\"error\",\"error\":\"boom\"}")))
                .isEqualTo("error: boom");
        assertThat(SideBySideReport.describe(new AllocationOutcome.Failed("boom", false)))
                .isEqualTo("error: boom");
    }

    @Test
    void filterPassComparisonCountsOutcomesAndNamesTheFirstDifferentNode() {
        List<Allocator.Attempt> mine = List.of(
                new Allocator.Attempt(new AllocationOutcome.Unschedulable("x"), 1),
                new Allocator.Attempt(new AllocationOutcome.Unschedulable("x"), 1));
        JsonNode same = ScenarioFiles.json()
                .readTree(
                        "{\"scenario\":\"s\",\"nodes\":["
                                + "{\"node\":\"a\",\"outcome\":\"unschedulable\"},{\"node\":\"b\",\"outcome\":\"unschedulable\"}]}");
        assertThat(SideBySideReport.compare(same, mine))
                .isEqualTo(new SideBySideReport.Comparison(true, "same on every node: unschedulable 2"));
        JsonNode other = ScenarioFiles.json()
                .readTree("{\"scenario\":\"s\",\"nodes\":["
                        + "{\"node\":\"a\",\"outcome\":\"unschedulable\"},{\"node\":\"b\",\"outcome\":\"error\","
                        + "\"error\":\"boom\"}]}");
        SideBySideReport.Comparison c = SideBySideReport.compare(other, mine);
        assertThat(c.same()).isFalse();
        assertThat(c.text())
                .isEqualTo("DIFFERENT on 1 of 2 nodes, first node b: upstream error: boom / dra4j unschedulable");
        assertThat(SideBySideReport.compare(null, mine).same()).isFalse();
    }

    @Test
    void timesAndRatiosAreHumanReadable() {
        assertThat(SideBySideReport.time(512)).isEqualTo("512 ns");
        assertThat(SideBySideReport.time(271_340)).isEqualTo("271.3 µs");
        assertThat(SideBySideReport.time(84_939_130)).isEqualTo("84.94 ms");
        assertThat(SideBySideReport.time(-1)).isEqualTo("n/a");
        assertThat(SideBySideReport.ratio(300, 100)).isEqualTo("3.00x");
        assertThat(SideBySideReport.ratio(100, 300)).isEqualTo("0.33x");
        assertThat(SideBySideReport.ratio(5_000, 100)).isEqualTo("50x");
        assertThat(SideBySideReport.ratio(-1, 100)).isEqualTo("n/a");
    }
}
