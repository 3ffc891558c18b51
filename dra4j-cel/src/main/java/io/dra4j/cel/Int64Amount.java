package io.dra4j.cel;

import java.math.BigDecimal;

/**
 * Arithmetic on Go's scaled-int64 quantity form ({@code value * 10^scale}, Go scale = minus the BigDecimal scale),
 * with upstream's overflow rules: an operation that does not fit reports failure so the caller falls back to the
 * arbitrary-precision form.
 */
final class Int64Amount {

    private Int64Amount() {}

    /** Go's int64Amount.Add on two int64-form values; null when the result needs the decimal form. */
    static BigDecimal add(BigDecimal a, BigDecimal b) {
        long av = a.unscaledValue().longValue();
        long bv = b.unscaledValue().longValue();
        int as = -a.scale();
        int bs = -b.scale();
        if (bv == 0) {
            return a;
        }
        if (av == 0) {
            return b;
        }
        try {
            if (as == bs) {
                return BigDecimal.valueOf(Math.addExact(av, bv), -as);
            }
            if (as > bs) {
                Long c = positiveScale(av, as - bs);
                return c == null ? null : BigDecimal.valueOf(Math.addExact(c, bv), -bs);
            }
            Long c = positiveScale(bv, bs - as);
            return c == null ? null : BigDecimal.valueOf(Math.addExact(av, c), -as);
        } catch (ArithmeticException overflow) {
            return null;
        }
    }

    /** {@code base * 10^scale} (scale >= 0), or null on int64 overflow. */
    static Long positiveScale(long base, int scale) {
        long[] result = positiveScaleInt64(base, scale);
        return result[1] != 0 ? result[0] : null;
    }

    /**
     * Go's positiveScaleInt64 as {value, ok}: on overflow the scales 1, 2, 3, 6 and 9 still hand back the
     * wrapped-around product (which ScaledValue then returns), other scales hand back 0.
     */
    private static long[] positiveScaleInt64(long base, int scale) {
        switch (scale) {
            case 0:
                return new long[] {base, 1};
            case 1:
                return multiplyScale(base, 10, true);
            case 2:
                return multiplyScale(base, 100, true);
            case 3:
                return multiplyScale(base, 1000, true);
            case 6:
                return multiplyScale(base, 1_000_000, false);
            case 9:
                return multiplyScale(base, 1_000_000_000, false);
            default:
                long value = base;
                for (int i = 0; i < scale; i++) {
                    long[] step = multiplyScale(value, 10, false);
                    if (step[1] == 0) {
                        return new long[] {0, 0};
                    }
                    value = step[0];
                }
                return new long[] {value, 1};
        }
    }

    /** Go's int64MultiplyScale{,10,100,1000}: the (possibly wrapped) product and whether it is exact. */
    private static long[] multiplyScale(long a, long b, boolean fixedFactor) {
        if (a == 0 || a == 1) {
            return new long[] {a * b, 1};
        }
        if (a == Long.MIN_VALUE && (fixedFactor || b != 1)) {
            return new long[] {0, 0};
        }
        long c = a * b;
        return new long[] {c, c / b == a ? 1 : 0};
    }

    /**
     * Go's negativeScaleInt64: {@code base / 10^scale}, rounded away from zero when digits are dropped.
     */
    static long negativeScale(long base, int scale) {
        if (scale == 0) {
            return base;
        }
        long value = base;
        boolean fraction = false;
        for (int i = 0; i < scale; i++) {
            if (!fraction && value % 10 != 0) {
                fraction = true;
            }
            value = value / 10;
            if (value == 0) {
                if (fraction) {
                    return base > 0 ? 1 : -1;
                }
                return 0;
            }
        }
        if (fraction) {
            value = base > 0 ? value + 1 : value - 1;
        }
        return value;
    }

    /** Go's int64Amount.AsScaledInt64 as used by ScaledValue, including its overflow results. */
    static long asScaledInt64(long value, int valueScale, int scale) {
        if (valueScale < scale) {
            return negativeScale(value, scale - valueScale);
        }
        return positiveScaleInt64(value, valueScale - scale)[0];
    }
}
