package io.dra4j.cel;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.dra4j.cel.internal.DeviceViews;
import io.dra4j.cel.internal.SelectorCompiler;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import java.util.Objects;
import java.util.concurrent.ExecutionException;

/**
 * The CEL environment in which kube-scheduler evaluates DRA device selectors (Kubernetes 1.37, StoredExpressions).
 * Thread-safe.
 */
public final class DeviceSelectorEnvironment {

    /** Distinct expressions kept compiled; upstream keeps 10, but the size only affects speed. */
    private static final int CACHE_SIZE = 4096;

    private final CelFeatures features;
    private final SelectorCompiler compiler;
    private final Cache<String, CompiledExpression> cache =
            CacheBuilder.newBuilder().maximumSize(CACHE_SIZE).build();
    /** Derived attributes' expressions, compiled with their own result types. */
    private final Cache<String, CompiledExpression> derivedCache =
            CacheBuilder.newBuilder().maximumSize(CACHE_SIZE).build();

    private DeviceSelectorEnvironment(CelFeatures features, SelectorCompiler compiler) {
        this.features = features;
        this.compiler = compiler;
    }

    /**
     * A new environment for a feature set, with its own cache of compiled expressions (the counterpart of the CEL
     * cache upstream passes to NewAllocator); whoever creates it owns the cache and drops it with the environment.
     * The StoredExpressions environment does not depend on the features at 1.37 (see {@link CelFeatures}), so all
     * environments use one immutable compiler.
     */
    public static DeviceSelectorEnvironment create(CelFeatures features) {
        Objects.requireNonNull(features, "features");
        return new DeviceSelectorEnvironment(features, SharedCompiler.INSTANCE);
    }

    public CelFeatures features() {
        return features;
    }

    /** Compiles an expression, or returns the cached result for the same text. Never throws. */
    public CompiledExpression compile(String expression) {
        Objects.requireNonNull(expression, "expression");
        try {
            return cache.get(expression, () -> new CompiledExpression(expression, compiler.compile(expression)));
        } catch (ExecutionException e) {
            // compile() never throws; keep the promise anyway.
            return new CompiledExpression(
                    expression, new SelectorCompiler.Compiled.Failure("unexpected compilation error: " + e.getCause()));
        }
    }

    /**
     * Compiles a derived attribute's expression as the API server validates a new one: it must evaluate to a
     * primitive scalar, or a list of scalars when {@link CelFeatures#listTypeAttributes()} is set. The result is for
     * {@link CompiledExpression#compileError()} and {@link CompiledExpression#estimatedCost()}. Never throws.
     */
    public CompiledExpression compileDerivedAttribute(String expression) {
        Objects.requireNonNull(expression, "expression");
        SelectorCompiler.Output output = features.listTypeAttributes()
                ? SelectorCompiler.Output.DERIVED_ATTRIBUTE_OR_LIST
                : SelectorCompiler.Output.DERIVED_ATTRIBUTE;
        try {
            return derivedCache.get(
                    expression, () -> new CompiledExpression(expression, compiler.compile(expression, output)));
        } catch (ExecutionException e) {
            return new CompiledExpression(
                    expression, new SelectorCompiler.Compiled.Failure("unexpected compilation error: " + e.getCause()));
        }
    }

    /**
     * The CEL view of a device of the given driver, built once and reusable for any selector on any thread. A device
     * upstream cannot present to CEL (an attribute without a value, an unparsable version) yields a view on which every
     * evaluation fails with upstream's error.
     */
    public CelDevice device(String driver, Device device) {
        Objects.requireNonNull(device, "device");
        return new CelDevice(DeviceViews.of(driver, device));
    }

    /**
     * Building the compiler takes a while; it is built on first use and shared. It is immutable (parser, checker,
     * validators and function bindings without state), so sharing it shares no results.
     */
    private static final class SharedCompiler {
        static final SelectorCompiler INSTANCE = new SelectorCompiler();
    }
}
