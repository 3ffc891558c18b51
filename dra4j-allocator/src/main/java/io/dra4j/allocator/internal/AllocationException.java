package io.dra4j.allocator.internal;

/**
 * A fatal allocation error. {@code perNode} marks the errors upstream reports as a failure on this node only
 * ({@code ErrFailedAllocationOnNode}) rather than as an error of the whole scheduling attempt.
 */
public final class AllocationException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean perNode;

    public AllocationException(String message) {
        this(message, false);
    }

    public AllocationException(String message, boolean perNode) {
        super(message, null, false, false);
        this.perNode = perNode;
    }

    public boolean perNode() {
        return perNode;
    }
}
