package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The AllocationResults of a successful search, built on first access. A Filter pass allocates on every node but
 * keeps the result of one, so the fabric8 objects are made only for the outcomes someone reads. The search has
 * already been checked for the one error assembling can report ({@link ResultAssembler#check}), and it is no longer
 * changed once it is handed here. Immutable and thread-safe: the first reader assembles, every reader sees the same
 * objects.
 */
public final class LazyResults extends AbstractList<AllocationResult> implements RandomAccess {
    private final int size;
    private Search search;
    private List<AllocationResult> results;

    private LazyResults(Search search) {
        this.search = search;
        this.size = search.claims.size();
    }

    /** The results of a finished, successful search, or the error assembling them reports. */
    public static List<AllocationResult> of(Search search) throws AllocationException {
        ResultAssembler.check(search);
        return new LazyResults(search);
    }

    private synchronized List<AllocationResult> results() {
        if (results == null) {
            try {
                results = List.copyOf(ResultAssembler.assemble(search));
            } catch (AllocationException e) {
                throw new IllegalStateException("assembling results that were checked: " + e.getMessage(), e);
            }
            search = null;
        }
        return results;
    }

    @Override
    public AllocationResult get(int index) {
        return results().get(index);
    }

    @Override
    public int size() {
        return size;
    }
}
