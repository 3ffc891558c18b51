package io.dra4j.cel.internal;

import dev.cel.common.CelOptions;
import dev.cel.common.exceptions.CelNumericOverflowException;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import dev.cel.runtime.CelInternalRuntimeLibrary;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.standard.AddOperator;
import dev.cel.runtime.standard.BoolFunction;
import dev.cel.runtime.standard.CelStandardOverload;
import dev.cel.runtime.standard.DoubleFunction;
import dev.cel.runtime.standard.DurationFunction;
import dev.cel.runtime.standard.GetHoursFunction;
import dev.cel.runtime.standard.GetMillisecondsFunction;
import dev.cel.runtime.standard.GetMinutesFunction;
import dev.cel.runtime.standard.GetSecondsFunction;
import dev.cel.runtime.standard.StringFunction;
import dev.cel.runtime.standard.SubtractOperator;
import dev.cel.runtime.standard.TimestampFunction;
import java.util.Set;

/**
 * The conversions between double and string with cel-go's semantics, replacing cel-java's standard bindings:
 * {@code string(double)} is Go's {@code strconv.FormatFloat(d, 'g', -1, 64)} ({@code 1.610612736e+09}, {@code +Inf})
 * and {@code double(string)} accepts exactly what Go's {@code strconv.ParseFloat(s, 64)} accepts (case-insensitive
 * {@code inf}, {@code infinity} and {@code nan}, underscores between digits, hexadecimal mantissas with a {@code p}
 * exponent; no spaces, no Java suffixes) and fails where it reports a syntax or range error; {@code string(duration)}
 * is Go's float seconds ({@link #durationString}) and {@code duration(string)} Go's {@code time.ParseDuration}
 * ({@link GoDuration}).
 */
final class GoConversions implements CelInternalRuntimeLibrary {

    /** cel-go's {@code int(duration)} overload, which {@link SelectorCompiler} declares. */
    static final String DURATION_TO_INT = "duration_to_int64";

    /** The standard bindings this library replaces. */
    static final Set<CelStandardOverload> REPLACED = Set.of(
            StringFunction.StringOverload.DOUBLE_TO_STRING,
            DoubleFunction.DoubleOverload.STRING_TO_DOUBLE,
            StringFunction.StringOverload.DURATION_TO_STRING,
            StringFunction.StringOverload.TIMESTAMP_TO_STRING,
            BoolFunction.BoolOverload.STRING_TO_BOOL,
            AddOperator.AddOverload.ADD_DURATION_DURATION,
            SubtractOperator.SubtractOverload.SUBTRACT_DURATION_DURATION,
            SubtractOperator.SubtractOverload.SUBTRACT_TIMESTAMP_TIMESTAMP,
            SubtractOperator.SubtractOverload.SUBTRACT_TIMESTAMP_DURATION,
            GetHoursFunction.GetHoursOverload.DURATION_TO_HOURS,
            GetMinutesFunction.GetMinutesOverload.DURATION_TO_MINUTES,
            GetSecondsFunction.GetSecondsOverload.DURATION_TO_SECONDS,
            GetMillisecondsFunction.GetMillisecondsOverload.DURATION_TO_MILLISECONDS,
            DurationFunction.DurationOverload.STRING_TO_DURATION,
            TimestampFunction.TimestampOverload.INT64_TO_TIMESTAMP);

    /** cel-go's minUnixTime and maxUnixTime: 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds. */
    private static final long MIN_UNIX_TIME = -62135596800L;

    private static final long MAX_UNIX_TIME = 253402300799L;

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder, RuntimeEquality equality, CelOptions options) {
        builder.addFunctionBindings(
                CelFunctionBinding.from(
                        StringFunction.StringOverload.DOUBLE_TO_STRING
                                .newFunctionBinding(options, equality)
                                .getOverloadId(),
                        Double.class,
                        GoNumberFormat::formatG),
                CelFunctionBinding.from(
                        DoubleFunction.DoubleOverload.STRING_TO_DOUBLE
                                .newFunctionBinding(options, equality)
                                .getOverloadId(),
                        String.class,
                        GoConversions::parseFloat),
                options.evaluateCanonicalTypesToNativeValues()
                        ? CelFunctionBinding.from(
                                "duration_to_string",
                                java.time.Duration.class,
                                d -> durationString(d.getSeconds(), d.getNano()))
                        : CelFunctionBinding.from(
                                "duration_to_string",
                                com.google.protobuf.Duration.class,
                                d -> durationString(d.getSeconds(), d.getNanos())),
                options.evaluateCanonicalTypesToNativeValues()
                        ? CelFunctionBinding.from(
                                "timestamp_to_string",
                                java.time.Instant.class,
                                t -> timestampString(t.getEpochSecond(), t.getNano()))
                        : CelFunctionBinding.from(
                                "timestamp_to_string",
                                com.google.protobuf.Timestamp.class,
                                t -> timestampString(t.getSeconds(), t.getNanos())),
                CelFunctionBinding.from("string_to_bool", String.class, GoConversions::parseBool));
        if (options.evaluateCanonicalTypesToNativeValues()) {
            CelFunctionOverload subtractDuration = SubtractOperator.SubtractOverload.SUBTRACT_TIMESTAMP_DURATION
                    .newFunctionBinding(options, equality)
                    .getDefinition();
            // cel-go's durations are Go's int64 nanoseconds: addDurationChecked, subtractDurationChecked and
            // subtractTimeChecked.
            builder.addFunctionBindings(
                    CelFunctionBinding.from(
                            "add_duration_duration",
                            java.time.Duration.class,
                            java.time.Duration.class,
                            (a, b) -> java.time.Duration.ofNanos(Math.addExact(a.toNanos(), b.toNanos()))),
                    CelFunctionBinding.from(
                            "subtract_duration_duration",
                            java.time.Duration.class,
                            java.time.Duration.class,
                            (a, b) -> java.time.Duration.ofNanos(Math.subtractExact(a.toNanos(), b.toNanos()))),
                    CelFunctionBinding.from(
                            "subtract_timestamp_timestamp",
                            java.time.Instant.class,
                            java.time.Instant.class,
                            GoConversions::timestampDifference),
                    // cel-go's subtractTimeDurationChecked negates the duration first: the most negative one
                    // overflows, where cel-java subtracts it.
                    CelFunctionBinding.from(
                            "subtract_timestamp_duration",
                            java.time.Instant.class,
                            java.time.Duration.class,
                            (t, d) -> {
                                if (d.toNanos() == Long.MIN_VALUE) {
                                    throw new CelNumericOverflowException("most negative duration negated");
                                }
                                return subtractDuration.apply(new Object[] {t, d});
                            }),
                    CelFunctionBinding.from(DURATION_TO_INT, java.time.Duration.class, java.time.Duration::toNanos),
                    // cel-go's Int.ConvertToType(TimestampType): seconds outside years 1 to 9999 overflow.
                    CelFunctionBinding.from("int64_to_timestamp", Long.class, GoConversions::timestampOfSeconds),
                    CelFunctionBinding.from(
                            "string_to_duration",
                            String.class,
                            s -> java.time.Duration.ofNanos(GoDuration.parseNanos(s))),
                    // cel-go's getHours(), getMinutes(), getSeconds() and getMilliseconds() on a duration are Go's
                    // int(d.Hours()), int(d.Minutes()), int(d.Seconds()) and d.Milliseconds(): the whole duration,
                    // truncated toward zero (java.time's toHours() and getSeconds() floor a negative duration with a
                    // fraction: -3599.999999999s is 0 hours in Go, -1 in java.time).
                    CelFunctionBinding.from(
                            "duration_to_hours", java.time.Duration.class, d -> d.toNanos() / 3_600_000_000_000L),
                    CelFunctionBinding.from(
                            "duration_to_minutes", java.time.Duration.class, d -> d.toNanos() / 60_000_000_000L),
                    CelFunctionBinding.from(
                            "duration_to_seconds", java.time.Duration.class, d -> d.toNanos() / 1_000_000_000L),
                    CelFunctionBinding.from(
                            "duration_to_milliseconds", java.time.Duration.class, d -> d.toNanos() / 1_000_000L));
        }
    }

    /**
     * cel-go's subtractTimeChecked: the difference of the seconds, scaled to nanoseconds, plus the difference of the
     * nanoseconds, each step checked for int64 overflow (an "integer overflow": a difference beyond about 292 years
     * is no Go duration, where java.time's Duration holds it).
     */
    private static java.time.Duration timestampDifference(java.time.Instant x, java.time.Instant y) {
        long seconds = Math.subtractExact(x.getEpochSecond(), y.getEpochSecond());
        long nanos = Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), (long) x.getNano() - y.getNano());
        return java.time.Duration.ofNanos(nanos);
    }

    private static java.time.Instant timestampOfSeconds(long seconds) throws CelEvaluationException {
        if (seconds < MIN_UNIX_TIME || seconds > MAX_UNIX_TIME) {
            throw LibrarySupport.error(RuntimeErrors.TIMESTAMP_OVERFLOW);
        }
        return java.time.Instant.ofEpochSecond(seconds);
    }

    /** Go's strconv.ParseBool; a NumberFormatException where Go returns an error. */
    static boolean parseBool(String s) {
        switch (s) {
            case "1":
            case "t":
            case "T":
            case "TRUE":
            case "true":
            case "True":
                return true;
            case "0":
            case "f":
            case "F":
            case "FALSE":
            case "false":
            case "False":
                return false;
            default:
                throw new NumberFormatException("invalid syntax: " + s);
        }
    }

    /**
     * cel-go's {@code string(timestamp)}: Go's {@code Format(time.RFC3339Nano)}, trailing zeros of the fraction
     * dropped. Written in UTC: cel-java keeps no offset of the parsed text (cel-go does, see the README's known
     * differences).
     */
    static String timestampString(long epochSecond, int nanos) {
        java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(epochSecond, nanos, java.time.ZoneOffset.UTC);
        StringBuilder out = new StringBuilder(String.format(
                java.util.Locale.ROOT,
                "%04d-%02d-%02dT%02d:%02d:%02d",
                t.getYear(),
                t.getMonthValue(),
                t.getDayOfMonth(),
                t.getHour(),
                t.getMinute(),
                t.getSecond()));
        if (nanos != 0) {
            String fraction =
                    String.format(java.util.Locale.ROOT, "%09d", nanos).replaceFirst("0+$", "");
            out.append('.').append(fraction);
        }
        return out.append('Z').toString();
    }

    /**
     * cel-go's {@code string(duration)}: {@code strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"}, where Go's
     * {@code Duration.Seconds()} is {@code float64(d / Second) + float64(d % Second) / 1e9} (so long durations lose
     * their last nanosecond digits, as upstream's text does).
     */
    static String durationString(long seconds, long nanos) {
        long total = seconds * 1_000_000_000L + nanos;
        long sec = total / 1_000_000_000L;
        long nsec = total % 1_000_000_000L;
        return GoNumberFormat.formatShortestFixed((double) sec + (double) nsec / 1e9) + "s";
    }

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        throw new UnsupportedOperationException("needs the runtime equality");
    }

    /** Go's strconv.ParseFloat(s, 64); a NumberFormatException where Go returns an error. */
    static double parseFloat(String s) {
        Double special = special(s);
        if (special != null) {
            return special;
        }
        int end = floatPrefix(s);
        if (end != s.length() || s.indexOf('_') >= 0 && !underscoreOk(s)) {
            throw new NumberFormatException("invalid syntax: " + s);
        }
        double d = Double.parseDouble(s.replace("_", ""));
        if (Double.isInfinite(d)) {
            throw new NumberFormatException("value out of range: " + s);
        }
        return d;
    }

    /** strconv's special(): an optional sign and inf or infinity, or nan without a sign, as the whole string. */
    private static Double special(String s) {
        if (s.isEmpty()) {
            return null;
        }
        char first = s.charAt(0);
        if (first == '+' || first == '-') {
            String rest = s.substring(1);
            if (rest.equalsIgnoreCase("inf") || rest.equalsIgnoreCase("infinity")) {
                return first == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            return null;
        }
        if (s.equalsIgnoreCase("inf") || s.equalsIgnoreCase("infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        return s.equalsIgnoreCase("nan") ? Double.NaN : null;
    }

    /**
     * strconv's readFloat: the length of the longest number syntax at the start of {@code s}, or -1. Decimal
     * mantissas take an optional {@code e} exponent, hexadecimal ones ({@code 0x}) need a {@code p} exponent; both
     * allow underscores, which {@link #underscoreOk} checks.
     */
    private static int floatPrefix(String s) {
        int i = 0;
        int n = s.length();
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        boolean hex = false;
        if (i + 2 < n && s.charAt(i) == '0' && Character.toLowerCase(s.charAt(i + 1)) == 'x') {
            hex = true;
            i += 2;
        }
        boolean sawDot = false;
        boolean sawDigits = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c == '_') {
                continue;
            }
            if (c == '.') {
                if (sawDot) {
                    break;
                }
                sawDot = true;
                continue;
            }
            if (c >= '0' && c <= '9' || hex && Character.toLowerCase(c) >= 'a' && Character.toLowerCase(c) <= 'f') {
                sawDigits = true;
                continue;
            }
            break;
        }
        if (!sawDigits) {
            return -1;
        }
        if (i < n && Character.toLowerCase(s.charAt(i)) == (hex ? 'p' : 'e')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            if (i >= n || s.charAt(i) < '0' || s.charAt(i) > '9') {
                return -1;
            }
            while (i < n && (s.charAt(i) >= '0' && s.charAt(i) <= '9' || s.charAt(i) == '_')) {
                i++;
            }
        } else if (hex) {
            return -1;
        }
        return i;
    }

    /** strconv's underscoreOK: every underscore sits between digits (a base prefix counts as a digit). */
    private static boolean underscoreOk(String s) {
        char saw = '^';
        int i = 0;
        if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
            s = s.substring(1);
        }
        boolean hex = false;
        if (s.length() >= 2 && s.charAt(0) == '0' && "box".indexOf(Character.toLowerCase(s.charAt(1))) >= 0) {
            i = 2;
            saw = '0';
            hex = Character.toLowerCase(s.charAt(1)) == 'x';
        }
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            char lower = Character.toLowerCase(c);
            if (c >= '0' && c <= '9' || hex && lower >= 'a' && lower <= 'f') {
                saw = '0';
                continue;
            }
            if (c == '_') {
                if (saw != '0') {
                    return false;
                }
                saw = '_';
                continue;
            }
            if (saw == '_') {
                return false;
            }
            saw = '!';
        }
        return saw != '_';
    }
}
