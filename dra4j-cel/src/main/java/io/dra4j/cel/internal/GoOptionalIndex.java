package io.dra4j.cel.internal;

import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;
import java.util.List;
import java.util.Optional;

/**
 * Optional list indexing ({@code l[?i]}) as cel-go's optional library does it: any index outside the list, including
 * one beyond Java's int range, gives {@code optional.none()}; cel-java casts the index to an int first and fails
 * with "index out of bounds". Add it to the runtime before cel-java's optional extension: the first binding
 * registered for an overload id is the one cel-java keeps.
 */
final class GoOptionalIndex implements CelRuntimeLibrary {

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        builder.addFunctionBindings(
                CelFunctionBinding.from("list_optindex_optional_int", List.class, Long.class, GoOptionalIndex::index),
                CelFunctionBinding.from(
                        "optional_list_optindex_optional_int",
                        Optional.class,
                        Long.class,
                        (optional, index) ->
                                optional.isEmpty() ? Optional.empty() : index((List<?>) optional.get(), index)));
    }

    private static Optional<?> index(List<?> list, long index) {
        if (index < 0 || index >= list.size()) {
            return Optional.empty();
        }
        return Optional.of(list.get((int) index));
    }
}
