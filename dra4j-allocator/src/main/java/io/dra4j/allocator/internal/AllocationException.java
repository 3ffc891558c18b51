package io.dra4j.allocator.internal;

/**
 * A fatal allocation error. {@code perNode} marks the errors upstream reports as a failure on this node only
 * ({@code ErrFailedAllocationOnNode}) rather than as an error of the whole scheduling attempt.
 */
public final class AllocationException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean perNode;
    private final boolean timedOut;

    public AllocationException(String message) {
        this(message, false);
    }

    public AllocationException(String message, boolean perNode) {
        this(message, perNode, false);
    }

    private AllocationException(String message, boolean perNode, boolean timedOut) {
        super(message, null, false, false);
        this.perNode = perNode;
        this.timedOut = timedOut;
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
