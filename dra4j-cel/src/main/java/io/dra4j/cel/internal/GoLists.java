package io.dra4j.cel.internal;

import com.google.common.collect.ImmutableList;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelListsExtensions;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;
import java.util.EnumSet;
import java.util.List;

/**
 * {@code slice} and {@code lists.range} of cel-go's lists extension (ext/lists.go), replacing cel-java's bindings:
 * cel-go names the arguments in slice errors ("cannot slice(2, 1), ...") and rejects a negative range size.
 */
final class GoLists implements CelRuntimeLibrary {

    /**
     * cel-java's lists extension without sort and sortBy ({@link GoSort} declares cel-go's), for the compiler. Built from
     * a function set it registers no macros, so cel-java's sortBy macro is left out too.
     */
    static CelListsExtensions compilerDeclarations() {
        EnumSet<CelListsExtensions.Function> functions = EnumSet.allOf(CelListsExtensions.Function.class);
        functions.remove(CelListsExtensions.Function.SORT);
        functions.remove(CelListsExtensions.Function.SORT_BY);
        return CelExtensions.lists(functions);
    }

    /** cel-java's lists extension without the functions this library and {@link GoSort} bind, for the runtime. */
    static CelRuntimeLibrary others() {
        EnumSet<CelListsExtensions.Function> functions = EnumSet.allOf(CelListsExtensions.Function.class);
        functions.remove(CelListsExtensions.Function.SLICE);
        functions.remove(CelListsExtensions.Function.RANGE);
        functions.remove(CelListsExtensions.Function.SORT);
        functions.remove(CelListsExtensions.Function.SORT_BY);
        return CelExtensions.lists(functions);
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        builder.addFunctionBindings(
                CelFunctionBinding.from(
                        "list_slice",
                        ImmutableList.of(List.class, Long.class, Long.class),
                        args -> slice((List<?>) args[0], (Long) args[1], (Long) args[2])),
                CelFunctionBinding.from("lists_range", Long.class, GoLists::range));
    }

    private static List<?> slice(List<?> list, long start, long end) throws CelEvaluationException {
        if (start < 0 || end < 0) {
            throw LibrarySupport.error(
                    String.format("cannot slice(%d, %d), negative indexes not supported", start, end));
        }
        if (start > end) {
            throw LibrarySupport.error(String.format(
                    "cannot slice(%d, %d), start index must be less than or equal to end index", start, end));
        }
        if (list.size() < end) {
            throw LibrarySupport.error(
                    String.format("cannot slice(%d, %d), list is length %d", start, end, list.size()));
        }
        return ImmutableList.copyOf(list.subList((int) start, (int) end));
    }

    /** cel-go's default ext.Lists range limit (defaultMaxRangeSize). */
    private static final long MAX_RANGE_SIZE = 1_000_000;

    private static List<Long> range(long n) throws CelEvaluationException {
        if (n < 0) {
            throw LibrarySupport.error("lists.range: size must be non-negative, got " + n);
        }
        if (n > MAX_RANGE_SIZE) {
            throw LibrarySupport.error("lists.range: size " + n + " exceeds maximum allowed (" + MAX_RANGE_SIZE + ")");
        }
        ImmutableList.Builder<Long> out = ImmutableList.builder();
        for (long i = 0; i < n; i++) {
            out.add(i);
        }
        return out.build();
    }
}
