package io.dra4j.cel.internal;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelOptions;
import dev.cel.common.exceptions.CelNumericOverflowException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import dev.cel.runtime.CelInternalRuntimeLibrary;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.standard.CelStandardOverload;
import dev.cel.runtime.standard.ModuloOperator;
import java.util.Set;

/**
 * The int modulo as cel-go computes it (common/types/int.go Modulo, through its checked modulus): the most negative
 * int modulo -1 is an "integer overflow", as the matching division is; Java's remainder answers 0 there. Every other
 * operand pair goes to cel-java's own modulo, including the modulus by zero.
 */
final class GoModulo implements CelInternalRuntimeLibrary {

    static final Set<CelStandardOverload> REPLACED = Set.of(ModuloOperator.ModuloOverload.MODULO_INT64);

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder, RuntimeEquality equality, CelOptions options) {
        CelFunctionBinding standard = ModuloOperator.ModuloOverload.MODULO_INT64.newFunctionBinding(options, equality);
        CelFunctionOverload modulo = standard.getDefinition();
        builder.addFunctionBindings(CelFunctionBinding.from(
                standard.getOverloadId(), ImmutableList.of(Long.class, Long.class), args -> {
                    if ((Long) args[0] == Long.MIN_VALUE && (Long) args[1] == -1) {
                        throw new CelNumericOverflowException("most negative number wraps");
                    }
                    return modulo.apply(args);
                }));
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        throw new UnsupportedOperationException("needs the runtime equality");
    }
}
