package io.dra4j.cel;

import java.math.BigDecimal;
import java.math.BigInteger;

/** Go's Quantity.CanonicalizeBytes: the printed form of a quantity value in a format. */
final class Canonical {

    private static final BigDecimal MINUS_1024 = BigDecimal.valueOf(-1024);
    private static final BigDecimal PLUS_1024 = BigDecimal.valueOf(1024);
    private static final BigInteger BIG_1024 = BigInteger.valueOf(1024);

    private Canonical() {}

    static String format(BigDecimal amount, KubeQuantity.Format format) {
        if (amount.signum() == 0) {
            return "0";
        }
        KubeQuantity.Format effective = format;
        if (effective == KubeQuantity.Format.BINARY_SI) {
            // Small or fractional binary values would lose precision in Ki/Mi/..., so upstream prints them decimal.
            boolean small = amount.compareTo(MINUS_1024) > 0 && amount.compareTo(PLUS_1024) < 0;
            if (small || amount.stripTrailingZeros().scale() > 0) {
                effective = KubeQuantity.Format.DECIMAL_SI;
            }
        }
        if (effective == KubeQuantity.Format.BINARY_SI) {
            return binary(amount.toBigIntegerExact());
        }
        return decimal(amount, effective);
    }

    /** Largest power-of-1024 suffix that keeps the mantissa an integer. */
    private static String binary(BigInteger value) {
        BigInteger mantissa = value;
        int times = 0;
        while (mantissa.signum() != 0) {
            BigInteger[] qr = mantissa.divideAndRemainder(BIG_1024);
            if (qr[1].signum() != 0) {
                break;
            }
            mantissa = qr[0];
            times++;
        }
        return mantissa + binarySuffix(times * 10);
    }

    /** Largest exponent that is a multiple of three and keeps the mantissa an integer. */
    private static String decimal(BigDecimal amount, KubeQuantity.Format format) {
        BigDecimal stripped = amount.stripTrailingZeros();
        BigInteger mantissa = stripped.unscaledValue();
        long exponent = -(long) stripped.scale();
        while (exponent % 3 != 0) {
            mantissa = mantissa.multiply(BigInteger.TEN);
            exponent--;
        }
        String suffix;
        if (format == KubeQuantity.Format.DECIMAL_EXPONENT) {
            suffix = exponent == 0 ? "" : "e" + (int) exponent;
        } else {
            suffix = decimalSuffix(exponent);
        }
        return mantissa + suffix;
    }

    /** Upstream prints no suffix at all when the exponent has no SI name (e.g. 1000E prints as "1"). */
    private static String decimalSuffix(long exponent) {
        switch ((int) exponent) {
            case -9:
                return "n";
            case -6:
                return "u";
            case -3:
                return "m";
            case 3:
                return "k";
            case 6:
                return "M";
            case 9:
                return "G";
            case 12:
                return "T";
            case 15:
                return "P";
            case 18:
                return "E";
            default:
                return "";
        }
    }

    private static String binarySuffix(int exponent) {
        switch (exponent) {
            case 10:
                return "Ki";
            case 20:
                return "Mi";
            case 30:
                return "Gi";
            case 40:
                return "Ti";
            case 50:
                return "Pi";
            case 60:
                return "Ei";
            default:
                return "";
        }
    }
}
