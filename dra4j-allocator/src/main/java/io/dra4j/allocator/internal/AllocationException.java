package io.dra4j.allocator.internal;

import io.dra4j.allocator.DeviceId;
import java.util.Objects;
import java.util.Optional;

/**
 * A fatal allocation error. {@code perNode} marks the errors upstream reports as a failure on this node only
 * ({@code ErrFailedAllocationOnNode}) rather than as an error of the whole scheduling attempt.
 */
public final class AllocationException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean perNode;
    private final boolean timedOut;
    private final transient SelectorFailure selectorFailure;

    /**
     * A selector whose evaluation failed on a device, as a fact for the explanation (which suggests the guard).
     *
     * @param classSelector whether it is a selector of the request's device class rather than of the request
     * @param request       the request's full name ({@code request} or {@code request/subrequest})
     */
    public record SelectorFailure(
            int claim,
            String request,
            boolean classSelector,
            int index,
            DeviceId device,
            String expression,
            String error) {}

    public AllocationException(String message) {
        this(message, false);
    }

    public AllocationException(String message, boolean perNode) {
        this(message, perNode, false);
    }

    private AllocationException(String message, boolean perNode, boolean timedOut) {
        this(message, perNode, timedOut, null);
    }

    private AllocationException(String message, boolean perNode, boolean timedOut, SelectorFailure selectorFailure) {
        super(message, null, false, false);
        this.perNode = perNode;
        this.timedOut = timedOut;
        this.selectorFailure = selectorFailure;
    }

    /** A CEL runtime error of a selector on a device: upstream's error, with the facts behind it. */
    public static AllocationException selectorFailed(String message, SelectorFailure failure) {
        return new AllocationException(message, false, false, Objects.requireNonNull(failure));
    }

    /** The failing selector, when this is a CEL runtime error of one. */
    public Optional<SelectorFailure> selectorFailure() {
        return Optional.ofNullable(selectorFailure);
    }

    /** The search ran past its deadline (kube-scheduler's filterTimeout). */
    public static AllocationException deadlineExceeded() {
        return new AllocationException("timed out trying to allocate devices", false, true);
    }

    public boolean timedOut() {
        return timedOut;
    }

    public boolean perNode() {
        return perNode;
    }
}
