package io.dra4j.testkit.diff;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads Kubernetes quantity strings as exact numbers, so that outcomes compare quantities by value ({@code "4Gi"}
 * equals {@code "4294967296"}). Only what the comparison needs: no canonical formatting, no rounding.
 */
final class Quantities {
    private static final Pattern FORM = Pattern.compile("([+-]?(?:\\d+\\.?\\d*|\\.\\d+))([eE][+-]?\\d+|[a-zA-Z]*)");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("", BigDecimal.ONE),
            Map.entry("n", new BigDecimal("1e-9")),
            Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
            Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

    private Quantities() {}

    /**
     * The value of a quantity as a plain decimal string without trailing zeros, or the input itself in brackets
     * when it is not a quantity (so that a malformed value still compares, and shows, as what it was).
     */
    static String canonicalValue(String quantity) {
        Matcher m = FORM.matcher(quantity.trim());
        if (!m.matches()) {
            return "[" + quantity + "]";
        }
        BigDecimal number = new BigDecimal(m.group(1));
        String suffix = m.group(2);
        BigDecimal value;
        if (suffix.startsWith("e") || suffix.startsWith("E")) {
            value = number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        } else {
            BigDecimal factor = SUFFIXES.get(suffix);
            if (factor == null) {
                return "[" + quantity + "]";
            }
            value = number.multiply(factor);
        }
        return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
    }
}
