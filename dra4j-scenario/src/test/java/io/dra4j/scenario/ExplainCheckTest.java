package io.dra4j.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.dra4j.allocator.AllocationOutcome;
import io.dra4j.allocator.Allocator;
import io.dra4j.allocator.Explanation;
import io.dra4j.allocator.KubernetesVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Re-checks explanations independently of the explainer: every suggestion of every unschedulable scenario (shared
 * and the repository's) is applied to the scenario with {@link Allocator#allocateWith} and must then allocate; an
 * explanation without a suggestion must point at a request whose own funnel ends below what it asks for, or at an
 * unusable pool. The decision inside an explanation must equal the plain allocation.
 */
class ExplainCheckTest {
    private static final KubernetesVersion VERSION = KubernetesVersion.LATEST;

    private static List<Path> unschedulable() throws Exception {
        List<Path> out = new ArrayList<>();
        List<Path> all = new ArrayList<>(RepoPaths.yamlFiles(RepoPaths.conformanceCases()));
        all.addAll(RepoPaths.yamlFiles(RepoPaths.repoRoot().resolve("scenarios")));
        for (Path p : all) {
            Scenario s = ScenarioReader.read(p);
            if (ScenarioRunner.run(s, VERSION) instanceof AllocationOutcome.Unschedulable) {
                out.add(p);
            }
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everySuggestionMakesTheClaimsFit() throws Exception {
        return unschedulable().stream()
                .map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
                    Scenario s = ScenarioReader.read(p);
                    Explanation x = ScenarioRunner.explain(s, VERSION);
                    assertThat(x.outcome()).isInstanceOf(AllocationOutcome.Unschedulable.class);
                    assertThat(x.decisive()).isNotBlank();
                    Allocator allocator = ScenarioRunner.allocator(s, VERSION);
                    for (Explanation.Suggestion suggestion : x.suggestions()) {
                        assertThat(allocator.allocateWith(suggestion.change(), s.node(), s.claims()))
                                .as("after '%s'", suggestion.description())
                                .isInstanceOf(AllocationOutcome.Allocated.class);
                    }
                    if (x.suggestions().isEmpty()) {
                        boolean shortRequest = x.claims().stream()
                                .flatMap(c -> c.requests().stream())
                                .anyMatch(r ->
                                        r.shortfall() != null && x.decisive().contains(r.request()));
                        assertThat(shortRequest || !x.pools().isEmpty())
                                .as(
                                        "decisive reason '%s' is backed by a request's funnel or an unusable pool",
                                        x.decisive())
                                .isTrue();
                    }
                }));
    }

    @Test
    void mostUnschedulableScenariosGetAVerifiedSuggestion() throws Exception {
        List<Path> cases = unschedulable();
        long withSuggestion = 0;
        for (Path p : cases) {
            if (!ScenarioRunner.explain(ScenarioReader.read(p), VERSION)
                    .suggestions()
                    .isEmpty()) {
                withSuggestion++;
            }
        }
        assertThat(cases).hasSizeGreaterThan(40);
        assertThat(withSuggestion)
                .as("%d of %d", withSuggestion, cases.size())
                .isGreaterThanOrEqualTo(cases.size() * 3 / 4);
    }

    @TestFactory
    Stream<DynamicTest> explainingNeverChangesTheDecision() {
        List<Path> all = new ArrayList<>(RepoPaths.yamlFiles(RepoPaths.conformanceCases()));
        all.addAll(RepoPaths.yamlFiles(RepoPaths.repoRoot().resolve("scenarios")));
        return all.stream()
                .map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
                    Scenario s = ScenarioReader.read(p);
                    String before = s.toString();
                    AllocationOutcome plain = ScenarioRunner.run(s, VERSION);
                    Explanation x = ScenarioRunner.explain(s, VERSION);
                    assertThat(x.outcome().getClass()).isEqualTo(plain.getClass());
                    if (plain instanceof AllocationOutcome.Failed f) {
                        assertThat(((AllocationOutcome.Failed) x.outcome()).message())
                                .isEqualTo(f.message());
                    }
                    if (plain instanceof AllocationOutcome.Allocated a) {
                        assertThat(devices(x.outcome())).isEqualTo(devices(a));
                    }
                    assertThat(s.toString()).isEqualTo(before);
                }));
    }

    private static List<String> devices(AllocationOutcome o) {
        return ((AllocationOutcome.Allocated) o)
                .results().stream()
                        .flatMap(r -> r.getDevices().getResults().stream())
                        .map(r -> r.getRequest() + "=" + r.getDriver() + "/" + r.getPool() + "/" + r.getDevice())
                        .toList();
    }
}
