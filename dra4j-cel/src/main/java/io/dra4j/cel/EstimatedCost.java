package io.dra4j.cel;

/**
 * The static cost estimate of a selector, as kube-apiserver computes it when a DeviceClass, ResourceClaim or
 * ResourceClaimTemplate is created ({@code CompilationResult.MaxCost}): the least and the most one evaluation can
 * cost in CEL cost units, whatever the device. Both are unsigned 64-bit numbers ({@link Long#toUnsignedString});
 * the most is 2<sup>64</sup>-1 when cel-go cannot bound it.
 */
public record EstimatedCost(long min, long max) {

    /** Upstream's CELSelectorExpressionMaxCost: the API server rejects a selector whose estimated maximum exceeds it. */
    public static final long LIMIT = 1_000_000;

    /** Whether the API server would reject the selector as "too complex, exceeds cost limit". */
    public boolean exceedsLimit() {
        return Long.compareUnsigned(max, LIMIT) > 0;
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(min) + ".." + Long.toUnsignedString(max);
    }
}
