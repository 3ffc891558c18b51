package io.dra4j.cel.internal;

/**
 * A range of unsigned 64-bit numbers with the saturating arithmetic of cel-go's checker ({@code SizeEstimate} and
 * {@code CostEstimate} in {@code checker/cost.go}, which share their operations): sums and products stop at
 * 2<sup>64</sup>-1 ({@link #MAX}, which is -1 as a Java long); cost factors round up.
 */
public record Uint64Range(long min, long max) {

    /** math.MaxUint64. */
    public static final long MAX = -1L;

    static final Uint64Range UNKNOWN = new Uint64Range(0, MAX);
    static final Uint64Range ZERO = new Uint64Range(0, 0);
    static final Uint64Range ONE = new Uint64Range(1, 1);

    /** 2^64 as a double: the float64 value of math.MaxUint64 and the bound cel-go compares rounded costs with. */
    private static final double TWO_TO_64 = Math.scalb(1.0, 64);

    private static final double TWO_TO_63 = Math.scalb(1.0, 63);

    static Uint64Range fixed(long value) {
        return new Uint64Range(value, value);
    }

    Uint64Range add(Uint64Range other) {
        return new Uint64Range(add(min, other.min), add(max, other.max));
    }

    Uint64Range multiply(Uint64Range other) {
        return new Uint64Range(multiply(min, other.min), multiply(max, other.max));
    }

    Uint64Range multiplyByCostFactor(double factor) {
        return new Uint64Range(multiplyByCostFactor(min, factor), multiplyByCostFactor(max, factor));
    }

    Uint64Range union(Uint64Range other) {
        return new Uint64Range(
                Long.compareUnsigned(other.min, min) < 0 ? other.min : min,
                Long.compareUnsigned(other.max, max) > 0 ? other.max : max);
    }

    /** Whether the maximum is above {@code limit} (both unsigned). */
    public boolean maxExceeds(long limit) {
        return Long.compareUnsigned(max, limit) > 0;
    }

    @Override
    public String toString() {
        return "[" + Long.toUnsignedString(min) + ", " + Long.toUnsignedString(max) + "]";
    }

    static long add(long x, long y) {
        if (y != 0 && Long.compareUnsigned(x, MAX - y) > 0) {
            return MAX;
        }
        return x + y;
    }

    static long multiply(long x, long y) {
        if (y != 0 && Long.compareUnsigned(x, Long.divideUnsigned(MAX, y)) > 0) {
            return MAX;
        }
        return x * y;
    }

    static long multiplyByCostFactor(long x, double factor) {
        double xf = toDouble(x);
        if (xf > 0 && factor > 0 && xf > TWO_TO_64 / factor) {
            return MAX;
        }
        double ceil = Math.ceil(xf * factor);
        if (ceil >= TWO_TO_64) {
            return MAX;
        }
        return fromDouble(ceil);
    }

    /** Go's float64(x) of an unsigned value, rounded to nearest. */
    static double toDouble(long x) {
        if (x >= 0) {
            return x;
        }
        return ((double) ((x >>> 1) | (x & 1))) * 2.0;
    }

    /** Go's uint64(d) of a non-negative double below 2^64 (saturating above). */
    static long fromDouble(double d) {
        if (!(d < TWO_TO_64)) {
            return MAX;
        }
        if (d < TWO_TO_63) {
            return (long) d;
        }
        return (long) (d - TWO_TO_63) + Long.MIN_VALUE;
    }
}
