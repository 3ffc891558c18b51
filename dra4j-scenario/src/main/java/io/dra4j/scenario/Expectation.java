package io.dra4j.scenario;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code expect} block of a scenario: exactly one of three expected outcomes.
 */
public sealed interface Expectation {

    /**
     * The claims are allocated.
     *
     * @param allocations         one entry per claim, in claim order, as written in the file: plain immutable maps,
     *                            lists, strings, numbers and booleans, with the keys {@code claim}, {@code results},
     *                            {@code nodeSelector} and optionally {@code config}. They stay in this raw form
     *                            because the comparison rules (quantities by value, {@code shareID: "*"}, a key that
     *                            is absent versus present) are defined on what was written.
     * @param resultOrderAsserted whether the order of each claim's results must match exactly
     */
    record Allocated(List<Map<String, Object>> allocations, boolean resultOrderAsserted) implements Expectation {
        public Allocated {
            allocations = List.copyOf(allocations);
        }
    }

    /** No error, but the claims do not fit on the node. */
    record Unschedulable() implements Expectation {}

    /** An allocation error whose message contains {@code substring}. */
    record Error(String substring) implements Expectation {
        public Error {
            Objects.requireNonNull(substring, "substring");
        }
    }
}
