package io.dra4j.cel.internal;

import dev.cel.checker.CelCheckerBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import io.dra4j.cel.KubernetesCelLibrary;
import java.util.List;

/** Base for the Kubernetes libraries: each declares functions (name plus overloads) and binds every overload id. */
abstract class LibrarySupport implements KubernetesCelLibrary {

    /** One function: its declaration and the bindings of its overloads. */
    record Function(CelFunctionDecl declaration, List<CelFunctionBinding> bindings) {
        static Function of(CelFunctionDecl declaration, CelFunctionBinding... bindings) {
            return new Function(declaration, List.of(bindings));
        }
    }

    private final String name;
    private final List<Function> functions;

    LibrarySupport(String name, List<Function> functions) {
        this.name = name;
        this.functions = List.copyOf(functions);
    }

    @Override
    public String libraryName() {
        return name;
    }

    @Override
    public void setCheckerOptions(CelCheckerBuilder checkerBuilder) {
        for (Function f : functions) {
            checkerBuilder.addFunctionDeclarations(f.declaration());
        }
    }

    /**
     * Bindings are registered per overload id only: grouping them per function name (as cel-java's own
     * extensions do) would clash with other libraries that bind the same function name, such as the standard
     * {@code string} conversion or {@code isGreaterThan} on both quantities and versions.
     */
    @Override
    public void setRuntimeOptions(CelRuntimeBuilder runtimeBuilder) {
        for (Function f : functions) {
            runtimeBuilder.addFunctionBindings(f.bindings());
        }
    }

    /** The function declarations, for callers that wire checkers by hand. */
    List<CelFunctionDecl> declarations() {
        return functions.stream().map(Function::declaration).toList();
    }

    /** An evaluation error whose message is exactly {@code message} (upstream's error text). */
    static CelEvaluationException error(String message) {
        return new CelEvaluationException(message);
    }

    @Override
    public String toString() {
        return name;
    }
}
