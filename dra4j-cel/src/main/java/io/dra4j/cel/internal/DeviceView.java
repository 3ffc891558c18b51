package io.dra4j.cel.internal;

import dev.cel.runtime.CelVariableResolver;
import java.util.Map;
import java.util.Optional;

/**
 * The immutable CEL view of one device, built once and shared by every selector evaluation on any thread.
 */
public final class DeviceView {

    private final Map<String, Object> variable;
    private final long maxValueSize;
    private final long traversalCost;
    private final Optional<String> invalid;
    private final CelVariableResolver resolver;

    /**
     * @param variable the value bound to the {@code device} variable
     * @param maxValueSize the largest size (string length, list length, map size) of any value reachable from the
     *     device; decides whether an expression's cost can be bounded without tracking
     * @param invalid upstream's error when the device cannot be presented to CEL at all (an attribute without a
     *     value, an unparsable version); then every evaluation fails with it
     */
    DeviceView(Map<String, Object> variable, long maxValueSize, Optional<String> invalid) {
        this.variable = variable;
        this.maxValueSize = maxValueSize;
        this.traversalCost = LibraryCosts.traversalCost(variable);
        this.invalid = invalid;
        Optional<Object> bound = Optional.of(variable);
        this.resolver = name -> DeviceType.VARIABLE.equals(name) ? bound : Optional.empty();
    }

    public Map<String, Object> variable() {
        return variable;
    }

    public long maxValueSize() {
        return maxValueSize;
    }

    /** The Kubernetes library's traversal cost of the whole device value. */
    public long traversalCost() {
        return traversalCost;
    }

    public Optional<String> invalid() {
        return invalid;
    }

    CelVariableResolver resolver() {
        return resolver;
    }
}
