package io.dra4j.cel.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Go's float formatting as cel-go's string.format uses it: strconv's shortest representation ({@code %g},
 * {@code 'f', -1}), exact fixed-point ({@code %.Nf}), and the en_US rendering of golang.org/x/text/message for the
 * {@code %f} and {@code %e} clauses (digit grouping, {@code ×10ⁿ} exponents, {@code ∞}).
 */
final class GoNumberFormat {

    private static final String SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹";

    private GoNumberFormat() {}

    /** Shortest decimal digits that read back as {@code d} (finite, non-zero), and the exponent of the point. */
    private record Digits(String digits, int pointExponent) {}

    private static Digits shortest(double d) {
        BigDecimal exact = new BigDecimal(Math.abs(d));
        for (int p = 1; p <= 17; p++) {
            BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (r.doubleValue() == Math.abs(d)) {
                return digitsOf(r);
            }
        }
        return digitsOf(exact.round(new MathContext(17, RoundingMode.HALF_EVEN)));
    }

    private static Digits digitsOf(BigDecimal positive) {
        BigDecimal stripped = positive.stripTrailingZeros();
        String digits = stripped.unscaledValue().toString();
        return new Digits(digits, digits.length() - stripped.scale());
    }

    private static boolean negative(double d) {
        return Double.doubleToRawLongBits(d) < 0;
    }

    /** Go's {@code %g} (strconv 'g', shortest): exponent form below 1e-4 and from 1e6 on. */
    static String formatG(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        String sign = negative(d) ? "-" : "";
        if (d == 0) {
            return sign + "0";
        }
        Digits s = shortest(d);
        int exp = s.pointExponent() - 1;
        if (exp < -4 || exp >= 6) {
            String mantissa = s.digits().length() > 1
                    ? s.digits().charAt(0) + "." + s.digits().substring(1)
                    : s.digits();
            String e = Integer.toString(Math.abs(exp));
            return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        return sign + placeDigits(s);
    }

    /** Go's strconv.FormatFloat(d, 'f', -1, 64): shortest digits, never an exponent. */
    static String formatShortestFixed(double d) {
        String sign = negative(d) ? "-" : "";
        if (d == 0) {
            return sign + "0";
        }
        return sign + placeDigits(shortest(d));
    }

    private static String placeDigits(Digits s) {
        String digits = s.digits();
        int dp = s.pointExponent();
        if (dp >= digits.length()) {
            return digits + "0".repeat(dp - digits.length());
        }
        if (dp <= 0) {
            return "0." + "0".repeat(-dp) + digits;
        }
        return digits.substring(0, dp) + "." + digits.substring(dp);
    }

    /** Go's {@code fmt.Sprintf("%.<p>f", d)}: exact value rounded half-even. */
    static String formatFixed(double d, int precision) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        String plain =
                new BigDecimal(d).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        return negative(d) && !plain.startsWith("-") ? "-" + plain : plain;
    }

    /**
     * x/text's en_US {@code %.<p>f}: grouped integer digits, no sign on negative zero. x/text keeps the minimum
     * number of fraction digits in a byte, so above 255 it prints the exact digits (at most p) but pads with zeros
     * only to {@code p mod 256}.
     */
    static String localizedFixed(double d, int precision) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "∞" : "-∞";
        }
        String plain = new BigDecimal(Math.abs(d))
                .setScale(precision, RoundingMode.HALF_EVEN)
                .toPlainString();
        int dot = plain.indexOf('.');
        String intPart = dot < 0 ? plain : plain.substring(0, dot);
        String frac = dot < 0 ? "" : plain.substring(dot);
        int minDigits = precision & 0xFF;
        int end = frac.length();
        while (end > 1 + minDigits && frac.charAt(end - 1) == '0') {
            end--;
        }
        frac = end == 1 ? "" : frac.substring(0, end);
        StringBuilder grouped = new StringBuilder();
        for (int i = 0; i < intPart.length(); i++) {
            if (i > 0 && (intPart.length() - i) % 3 == 0) {
                grouped.append(',');
            }
            grouped.append(intPart.charAt(i));
        }
        return (d < 0 ? "-" : "") + grouped + frac;
    }

    /**
     * x/text's en_US rendering of cel-go's {@code %<width>e} (cel-go passes the clause precision as the width):
     * six decimals, {@code ×10} and a superscript exponent of at least two digits, left-padded to the width.
     */
    static String localizedScientific(double d, int width) {
        String text;
        if (Double.isNaN(d)) {
            text = "NaN";
        } else if (Double.isInfinite(d)) {
            text = d > 0 ? "∞" : "-∞";
        } else if (d == 0) {
            text = "0.000000×10" + superscript(0);
        } else {
            BigDecimal r = new BigDecimal(Math.abs(d)).round(new MathContext(7, RoundingMode.HALF_EVEN));
            String digits = r.unscaledValue().toString();
            int exponent = digits.length() - 1 - r.scale();
            digits = (digits + "000000").substring(0, 7);
            text = (d < 0 ? "-" : "") + digits.charAt(0) + "." + digits.substring(1) + "×10" + superscript(exponent);
        }
        int runes = text.codePointCount(0, text.length());
        return runes < width ? " ".repeat(width - runes) + text : text;
    }

    private static String superscript(int exponent) {
        String digits = Integer.toString(Math.abs(exponent));
        if (digits.length() < 2) {
            digits = "0" + digits;
        }
        StringBuilder b = new StringBuilder(exponent < 0 ? "⁻" : "");
        for (int i = 0; i < digits.length(); i++) {
            b.append(SUPERSCRIPT_DIGITS.charAt(digits.charAt(i) - '0'));
        }
        return b.toString();
    }
}
