package io.dra4j.cel.internal;

import java.util.Map;

/**
 * Go's {@code time.ParseDuration}, which cel-go's {@code duration(string)} calls: a signed sequence of decimal
 * numbers, each with an optional fraction and a unit ({@code ns}, {@code us}, {@code µs}, {@code μs}, {@code ms},
 * {@code s}, {@code m}, {@code h}), whose sum must fit Go's int64 nanoseconds. {@code "9223372036.854776s"} (what
 * {@code string(duration)} prints for the longest duration) is out of range there, where java.time accepts it.
 */
final class GoDuration {

    private static final long LIMIT = Long.MIN_VALUE; // 1 << 63, compared unsigned
    private static final Map<String, Long> UNITS = Map.of(
            "ns",
            1L,
            "us",
            1_000L,
            "µs",
            1_000L,
            "μs",
            1_000L,
            "ms",
            1_000_000L,
            "s",
            1_000_000_000L,
            "m",
            60_000_000_000L,
            "h",
            3_600_000_000_000L);

    private GoDuration() {}

    /** The duration in nanoseconds; a NumberFormatException where Go returns an error. */
    static long parseNanos(String text) {
        String s = text;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return 0;
        }
        if (s.isEmpty()) {
            throw invalid(text);
        }
        long total = 0; // unsigned, at most 1 << 63
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (!(c == '.' || isDigit(c))) {
                throw invalid(text);
            }
            // Consume [0-9]*: leadingInt, which fails beyond 1 << 63.
            int start = i;
            long whole = 0;
            for (; i < s.length() && isDigit(s.charAt(i)); i++) {
                if (Long.compareUnsigned(whole, Long.divideUnsigned(LIMIT, 10)) > 0) {
                    throw invalid(text);
                }
                whole = whole * 10 + (s.charAt(i) - '0');
                if (Long.compareUnsigned(whole, LIMIT) > 0) {
                    throw invalid(text);
                }
            }
            boolean pre = i != start;
            // Consume (\.[0-9]*)?: leadingFraction, which stops counting digits once they would overflow.
            long fraction = 0;
            double scale = 1;
            boolean post = false;
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                int fractionStart = i;
                boolean overflow = false;
                for (; i < s.length() && isDigit(s.charAt(i)); i++) {
                    if (overflow) {
                        continue;
                    }
                    if (fraction > Long.MAX_VALUE / 10) {
                        overflow = true;
                        continue;
                    }
                    long next = fraction * 10 + (s.charAt(i) - '0');
                    if (Long.compareUnsigned(next, LIMIT) > 0) {
                        overflow = true;
                        continue;
                    }
                    fraction = next;
                    scale *= 10;
                }
                post = i != fractionStart;
            }
            if (!pre && !post) {
                throw invalid(text);
            }
            // Consume the unit: everything up to the next number.
            int unitStart = i;
            while (i < s.length() && !(s.charAt(i) == '.' || isDigit(s.charAt(i)))) {
                i++;
            }
            if (i == unitStart) {
                throw new NumberFormatException("time: missing unit in duration \"" + text + "\"");
            }
            Long unit = UNITS.get(s.substring(unitStart, i));
            if (unit == null) {
                throw new NumberFormatException("time: unknown unit in duration \"" + text + "\"");
            }
            if (Long.compareUnsigned(whole, Long.divideUnsigned(LIMIT, unit)) > 0) {
                throw invalid(text);
            }
            long value = whole * unit;
            if (fraction > 0) {
                // Go: v += uint64(float64(f) * (float64(unit) / scale)), at most 3.6e12.
                value += (long) ((double) fraction * ((double) unit / scale));
                if (Long.compareUnsigned(value, LIMIT) > 0) {
                    throw invalid(text);
                }
            }
            total += value;
            if (Long.compareUnsigned(total, LIMIT) > 0) {
                throw invalid(text);
            }
        }
        if (negative) {
            return -total;
        }
        if (total < 0) {
            throw invalid(text);
        }
        return total;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static NumberFormatException invalid(String text) {
        return new NumberFormatException("time: invalid duration \"" + text + "\"");
    }
}
