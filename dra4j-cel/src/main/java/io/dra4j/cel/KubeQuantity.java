package io.dra4j.cel;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A Kubernetes resource quantity with the observable behaviour of Go's {@code resource.Quantity}
 * (k8s.io/apimachinery v0.37.2): parsing, rounding to nano units, the BinarySI cap, canonical printing,
 * arithmetic and the integer/float accessors.
 *
 * <p>Go keeps a quantity either as a scaled int64 or as an arbitrary-precision decimal, and a few accessors
 * ({@link #asInt64()}, {@link #valueCeil()}, {@link #asApproximateFloat64()}) answer differently depending on
 * which form a value happens to be in (for example {@code quantity("1.5Gi").isInteger()} is false upstream).
 * This class records which form Go would use, so those accessors match upstream exactly. Unlike Go, instances are
 * immutable: Go's {@code Cmp} silently converts its receiver to the decimal form, which this class does not
 * imitate.
 *
 * <p>Equality and hashing are numeric ({@code 1k} equals {@code 1000}); {@link #identical} also compares the format.
 */
public final class KubeQuantity implements Comparable<KubeQuantity> {

    /** The three ways a quantity can be printed. */
    public enum Format {
        /** Plain decimal with an {@code e<exponent>} suffix, e.g. {@code 12e6}. */
        DECIMAL_EXPONENT,
        /** Powers of 1024: {@code Ki, Mi, Gi, Ti, Pi, Ei}. */
        BINARY_SI,
        /** Powers of 1000: {@code n, u, m, "", k, M, G, T, P, E}. */
        DECIMAL_SI
    }

    static final String SPLIT_RE = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
    /** Upstream ErrFormatWrong text. */
    public static final String ERR_FORMAT_WRONG = "quantities must match the regular expression '" + SPLIT_RE + "'";
    /** Upstream ErrNumeric text. */
    public static final String ERR_NUMERIC = "unable to parse numeric part of quantity";
    /** Upstream ErrSuffix text. */
    public static final String ERR_SUFFIX = "unable to parse quantity's suffix";

    private static final int MAX_INT64_FACTORS = 18;
    private static final int NANO_SCALE = 9;
    private static final BigDecimal MAX_ALLOWED = BigDecimal.valueOf(Long.MAX_VALUE);
    /** Values with more integer digits than this are refused instead of materialised (see roundUpToNano). */
    private static final int MAX_DECIMAL_SHIFT = 100_000;

    /** Unscaled value and scale mirror Go's representation (int64Amount or inf.Dec; Go scales are negated). */
    private final BigDecimal amount;
    /** True when Go would hold the value as an int64Amount, false for inf.Dec. */
    private final boolean int64Form;

    private final Format format;
    /** The parsed text when Go keeps it as the printed form; null when the canonical form is computed. */
    private final String text;

    /**
     * True for a result of the CEL library's {@code add} and {@code sub}, which upstream returns as a pointer
     * ({@code *cel.Quantity}); see {@link #asGoPointer()}.
     */
    private final boolean goPointer;

    private KubeQuantity(BigDecimal amount, boolean int64Form, Format format, String text) {
        this(amount, int64Form, format, text, false);
    }

    private KubeQuantity(BigDecimal amount, boolean int64Form, Format format, String text, boolean goPointer) {
        this.amount = amount;
        this.int64Form = int64Form;
        this.format = format;
        this.text = text;
        this.goPointer = goPointer;
    }

    /**
     * This value as upstream's CEL library returns it from {@code add} and {@code sub}: a pointer, which cel-go's
     * {@code ==} cannot compare as its right operand (the value type's {@code Equal} accepts only values: "no such
     * overload"). Numerically and in every other respect the same quantity.
     */
    public KubeQuantity asGoPointer() {
        return new KubeQuantity(amount, int64Form, format, text, true);
    }

    /** Whether this is a pointer in upstream's CEL library ({@link #asGoPointer()}). */
    public boolean isGoPointer() {
        return goPointer;
    }

    /**
     * Parses a quantity string as Go's {@code resource.ParseQuantity} does.
     *
     * @throws IllegalArgumentException with upstream's error text when the string is not a quantity
     */
    public static KubeQuantity parse(String str) {
        Objects.requireNonNull(str, "str");
        if (str.isEmpty()) {
            throw new IllegalArgumentException(ERR_FORMAT_WRONG);
        }
        if (str.equals("0")) {
            return new KubeQuantity(BigDecimal.ZERO, true, Format.DECIMAL_SI, "0");
        }
        Scanned s = Scanned.scan(str);
        Suffix suffix = Suffix.interpret(s.suffix);
        if (suffix == null) {
            throw new IllegalArgumentException(ERR_SUFFIX);
        }
        KubeQuantity fast = parseInt64(str, s, suffix);
        return fast != null ? fast : parseDecimal(s, suffix);
    }

    /** Go's int64 fast path; null when the value needs the arbitrary-precision path. */
    private static KubeQuantity parseInt64(String str, Scanned s, Suffix suffix) {
        int precision;
        int scale;
        long mantissa = 1;
        if (suffix.format == Format.BINARY_SI) {
            scale = 0;
            if (suffix.exponent >= 0 && s.denom.isEmpty()) {
                mantissa = 1L << suffix.exponent;
                precision = 15 - s.num.length() - (int) ((float) suffix.exponent * 3f / 10f) - 1;
            } else {
                precision = -1;
            }
        } else {
            scale = suffix.exponent;
            precision = MAX_INT64_FACTORS - (s.num.length() + s.denom.length());
        }
        if (precision < 0) {
            return null;
        }
        scale -= s.denom.length();
        if (scale < -NANO_SCALE) {
            return null;
        }
        String shifted = s.num + s.denom;
        long value;
        try {
            value = Long.parseLong(shifted);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ERR_NUMERIC);
        }
        long result;
        try {
            result = Math.multiplyExact(value, mantissa);
        } catch (ArithmeticException overflow) {
            return null;
        }
        if (!s.positive) {
            result = -result;
        }
        boolean keepText;
        if (suffix.format == Format.BINARY_SI) {
            keepText = suffix.exponent % 10 == 0 && (value & 0x07) != 0;
        } else {
            keepText = scale % 3 == 0 && !shifted.endsWith("000") && shifted.charAt(0) != '0';
        }
        return new KubeQuantity(BigDecimal.valueOf(result, -scale), true, suffix.format, keepText ? str : null);
    }

    /** Go's inf.Dec path: exact value, rounded up to nano units, BinarySI capped at 2^63-1. */
    private static KubeQuantity parseDecimal(Scanned s, Suffix suffix) {
        BigDecimal amount;
        try {
            amount = new BigDecimal(s.value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ERR_NUMERIC);
        }
        if (suffix.base == 10) {
            try {
                amount = amount.scaleByPowerOfTen(suffix.exponent);
            } catch (ArithmeticException scaleOverflow) {
                throw new IllegalArgumentException(ERR_NUMERIC);
            }
        } else {
            amount = new BigDecimal(amount.unscaledValue().shiftLeft(suffix.exponent), amount.scale());
        }
        int sign = amount.signum();
        amount = amount.abs();
        Format format = suffix.format;
        if (sign != 0) {
            amount = roundUpToNano(amount);
        }
        if (format == Format.BINARY_SI && amount.compareTo(MAX_ALLOWED) > 0) {
            amount = MAX_ALLOWED;
        }
        if (format == Format.BINARY_SI && sign != 0 && amount.compareTo(BigDecimal.ONE) < 0) {
            format = Format.DECIMAL_SI;
        }
        if (sign < 0) {
            amount = amount.negate();
        }
        return new KubeQuantity(amount, false, format, null);
    }

    /**
     * Rounds a positive value away from zero to nano units. Values below one nano unit become exactly one without
     * materialising their digits; values with absurd exponents are refused (a documented deviation: upstream would
     * try to build a number with that many digits and not finish).
     */
    private static BigDecimal roundUpToNano(BigDecimal positive) {
        if (positive.scale() < -MAX_DECIMAL_SHIFT) {
            throw new IllegalArgumentException(ERR_NUMERIC);
        }
        if ((long) positive.precision() - positive.scale() <= -NANO_SCALE) {
            return BigDecimal.valueOf(1, NANO_SCALE);
        }
        return positive.setScale(NANO_SCALE, RoundingMode.UP);
    }

    /**
     * A quantity holding {@code value} in the given format, like Go's {@code NewDecimalQuantity}
     * (arbitrary-precision form, no rounding).
     */
    public static KubeQuantity of(BigDecimal value, Format format) {
        return new KubeQuantity(
                Objects.requireNonNull(value, "value"), false, Objects.requireNonNull(format, "format"), null);
    }

    /** A quantity holding an integer, like Go's {@code NewQuantity(value, format)} (int64 form). */
    public static KubeQuantity ofInt64(long value, Format format) {
        return new KubeQuantity(BigDecimal.valueOf(value), true, Objects.requireNonNull(format, "format"), null);
    }

    /** A quantity of {@code value} thousandths, like Go's {@code NewMilliQuantity(value, format)} (int64 form). */
    public static KubeQuantity ofMilli(long value, Format format) {
        return new KubeQuantity(BigDecimal.valueOf(value, 3), true, Objects.requireNonNull(format, "format"), null);
    }

    /**
     * Converts a fabric8 quantity, which keeps the number and the suffix apart, by parsing their concatenation.
     *
     * @throws IllegalArgumentException with upstream's error text when the combined string is not a quantity
     */
    public static KubeQuantity fromFabric8(io.fabric8.kubernetes.api.model.Quantity quantity) {
        Objects.requireNonNull(quantity, "quantity");
        String amountText = quantity.getAmount() == null ? "" : quantity.getAmount();
        String formatText = quantity.getFormat() == null ? "" : quantity.getFormat();
        return parse(amountText + formatText);
    }

    /** The exact numeric value (its scale is an implementation detail). */
    public BigDecimal value() {
        return amount;
    }

    /** The format the quantity prints in. */
    public Format format() {
        return format;
    }

    /** Go's {@code Sign()}. */
    public int signum() {
        return amount.signum();
    }

    /** Go's {@code IsZero()}. */
    public boolean isZero() {
        return amount.signum() == 0;
    }

    @Override
    public int compareTo(KubeQuantity other) {
        return amount.compareTo(other.amount);
    }

    /** Go's {@code Add}: the result keeps this quantity's format unless this quantity is zero. */
    public KubeQuantity add(KubeQuantity y) {
        return combine(y, false);
    }

    /** Go's {@code Sub}: the result keeps this quantity's format unless this quantity is zero. */
    public KubeQuantity sub(KubeQuantity y) {
        return combine(y, true);
    }

    private KubeQuantity combine(KubeQuantity y, boolean subtract) {
        Format resultFormat = isZero() ? y.format : format;
        if (int64Form && y.int64Form) {
            long bValue = y.amount.unscaledValue().longValue();
            BigDecimal sum =
                    Int64Amount.add(amount, subtract ? BigDecimal.valueOf(-bValue, y.amount.scale()) : y.amount);
            if (sum != null) {
                return new KubeQuantity(sum, true, resultFormat, null);
            }
        }
        BigDecimal result = subtract ? amount.subtract(y.amount) : amount.add(y.amount);
        return new KubeQuantity(result, false, resultFormat, null);
    }

    /**
     * Go's {@code AsInt64()}: present only when Go holds the value as a scaled int64 with a non-negative scale
     * that fits an int64 (so {@code 1000m} and {@code 1.5Gi} are not integers here, as upstream).
     */
    public OptionalLong asInt64() {
        if (!int64Form) {
            return OptionalLong.empty();
        }
        int goScale = -amount.scale();
        long v = amount.unscaledValue().longValue();
        if (goScale == 0) {
            return OptionalLong.of(v);
        }
        if (goScale < 0) {
            return OptionalLong.empty();
        }
        Long scaled = Int64Amount.positiveScale(v, goScale);
        return scaled == null ? OptionalLong.empty() : OptionalLong.of(scaled);
    }

    /**
     * Go's {@code Value()}: the value rounded up to an integer. Positive values round toward +inf; for negative
     * values and for overflow the result follows upstream's representation-dependent behaviour.
     */
    public long valueCeil() {
        return scaledValue(0);
    }

    /** Go's {@code MilliValue()}: {@code ceil(q * 1000)} with upstream's rounding and overflow behaviour. */
    public long milliValueCeil() {
        return scaledValue(-3);
    }

    private long scaledValue(int goScale) {
        if (int64Form) {
            return Int64Amount.asScaledInt64(amount.unscaledValue().longValue(), -amount.scale(), goScale);
        }
        return DecimalAmount.scaledValue(amount.unscaledValue(), amount.scale(), -goScale);
    }

    /** Go's {@code AsApproximateFloat64()}. */
    public double asApproximateFloat64() {
        double base = amount.unscaledValue().doubleValue();
        int exponent = -amount.scale();
        if (exponent == 0) {
            return base;
        }
        return base * GoFloat.pow10(exponent);
    }

    /** Go's {@code String()}: the canonical form, or the parsed text when that already was canonical. */
    public String canonical() {
        if (text != null) {
            return text;
        }
        if (format == Format.BINARY_SI
                && int64Form
                && amount.scale() == 0
                && amount.unscaledValue().equals(BigInteger.valueOf(Long.MIN_VALUE))) {
            // Go cannot negate the most negative int64 while removing factors of 1024, so it prints it plainly.
            return amount.toPlainString();
        }
        return Canonical.format(amount, format);
    }

    /** Same as {@link #canonical()}. */
    @Override
    public String toString() {
        return canonical();
    }

    /** Numeric equality, like Go's {@code Equal}/{@code Cmp}. */
    @Override
    public boolean equals(Object o) {
        return o instanceof KubeQuantity other && amount.compareTo(other.amount) == 0;
    }

    @Override
    public int hashCode() {
        return amount.signum() == 0 ? 0 : amount.stripTrailingZeros().hashCode();
    }

    /** Same numeric value and same format (an approximation of Go struct equality). */
    public boolean identical(KubeQuantity other) {
        return other != null && equals(other) && format == other.format;
    }

    /** The result of scanning a quantity string into sign, number parts and suffix, as Go's scanner splits it. */
    private record Scanned(boolean positive, String value, String num, String denom, String suffix) {

        private static final String SUFFIX_CHARS = "eEinumkKMGTP";

        static Scanned scan(String str) {
            boolean positive = true;
            int pos = 0;
            int end = str.length();
            char first = str.charAt(0);
            if (first == '-') {
                positive = false;
                pos++;
            } else if (first == '+') {
                pos++;
            }
            while (pos < end && str.charAt(pos) == '0') {
                pos++;
            }
            if (pos >= end) {
                return new Scanned(positive, "0", "0", "", "");
            }
            int numStart = pos;
            while (pos < end && isDigit(str.charAt(pos))) {
                pos++;
            }
            if (pos >= end) {
                return new Scanned(positive, str, str.substring(numStart), "", "");
            }
            String num = pos == numStart ? "0" : str.substring(numStart, pos);
            String denom = "";
            if (str.charAt(pos) == '.') {
                pos++;
                int denomStart = pos;
                while (pos < end && isDigit(str.charAt(pos))) {
                    pos++;
                }
                denom = str.substring(denomStart, pos);
                if (pos >= end) {
                    return new Scanned(positive, str, num, denom, "");
                }
            }
            String value = str.substring(0, pos);
            int suffixStart = pos;
            while (pos < end && SUFFIX_CHARS.indexOf(str.charAt(pos)) >= 0) {
                pos++;
            }
            if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
                pos++;
            }
            while (pos < end && isDigit(str.charAt(pos))) {
                pos++;
            }
            if (pos < end) {
                throw new IllegalArgumentException(ERR_FORMAT_WRONG);
            }
            return new Scanned(positive, value, num, denom, str.substring(suffixStart));
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }

    /** A suffix's meaning: value = number * base^exponent, printed in format. */
    private record Suffix(int base, int exponent, Format format) {

        static Suffix interpret(String s) {
            switch (s) {
                case "":
                    return new Suffix(10, 0, Format.DECIMAL_SI);
                case "n":
                    return new Suffix(10, -9, Format.DECIMAL_SI);
                case "u":
                    return new Suffix(10, -6, Format.DECIMAL_SI);
                case "m":
                    return new Suffix(10, -3, Format.DECIMAL_SI);
                case "k":
                    return new Suffix(10, 3, Format.DECIMAL_SI);
                case "M":
                    return new Suffix(10, 6, Format.DECIMAL_SI);
                case "G":
                    return new Suffix(10, 9, Format.DECIMAL_SI);
                case "T":
                    return new Suffix(10, 12, Format.DECIMAL_SI);
                case "P":
                    return new Suffix(10, 15, Format.DECIMAL_SI);
                case "E":
                    return new Suffix(10, 18, Format.DECIMAL_SI);
                case "Ki":
                    return new Suffix(2, 10, Format.BINARY_SI);
                case "Mi":
                    return new Suffix(2, 20, Format.BINARY_SI);
                case "Gi":
                    return new Suffix(2, 30, Format.BINARY_SI);
                case "Ti":
                    return new Suffix(2, 40, Format.BINARY_SI);
                case "Pi":
                    return new Suffix(2, 50, Format.BINARY_SI);
                case "Ei":
                    return new Suffix(2, 60, Format.BINARY_SI);
                default:
                    break;
            }
            if (s.length() > 1 && (s.charAt(0) == 'E' || s.charAt(0) == 'e')) {
                Long parsed = GoFloat.parseInt64(s.substring(1));
                if (parsed == null) {
                    return null;
                }
                // Go narrows the parsed int64 to int32 without a range check.
                return new Suffix(10, (int) (long) parsed, Format.DECIMAL_EXPONENT);
            }
            return null;
        }
    }
}
