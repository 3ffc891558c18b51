package io.dra4j.cel;

import java.math.BigInteger;

/** Go's scaledValue for quantities held as arbitrary-precision decimals (inf.Dec), including its quirks. */
final class DecimalAmount {

    private static final BigInteger MAX_INT64 = BigInteger.valueOf(Long.MAX_VALUE);

    private DecimalAmount() {}

    /**
     * {@code ceil(unscaled * 10^-scale / 10^-newScale)} as upstream computes it: exact for large magnitudes; for
     * values below 2^63-1 with fewer than 19 dropped digits upstream truncates and adds one, so negative
     * fractions round one step too far toward +inf; results wrap around on int64 overflow.
     */
    static long scaledValue(BigInteger unscaled, int scale, int newScale) {
        long dif = (long) scale - newScale;
        if (dif == 0) {
            return unscaled.longValue();
        }
        if (dif < 0) {
            return unscaled.longValue() * GoFloat.pow10AsInt64((int) -dif);
        }
        if (unscaled.compareTo(MAX_INT64) < 0 && dif < 19) {
            long divide = GoFloat.pow10AsInt64((int) dif);
            long u = unscaled.longValue();
            long result = u / divide;
            return u % divide != 0 ? result + 1 : result;
        }
        BigInteger divisor = BigInteger.TEN.pow((int) dif);
        BigInteger[] qr = unscaled.divideAndRemainder(divisor);
        BigInteger quotient = qr[0];
        if (qr[1].signum() < 0) {
            // Go's DivMod is Euclidean: make the remainder non-negative.
            quotient = quotient.subtract(BigInteger.ONE);
        }
        if (qr[1].signum() != 0) {
            quotient = quotient.add(BigInteger.ONE);
        }
        return quotient.longValue();
    }
}
