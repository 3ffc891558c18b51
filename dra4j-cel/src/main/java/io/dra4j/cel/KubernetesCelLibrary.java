package io.dra4j.cel;

import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.runtime.CelRuntimeLibrary;

/**
 * One Kubernetes CEL library: its function declarations for the compiler and its bindings for the runtime.
 * Add the same instance to both builders.
 */
public interface KubernetesCelLibrary extends CelCompilerLibrary, CelRuntimeLibrary {

    /** Upstream's library name, e.g. {@code kubernetes.quantity}. */
    String libraryName();
}
