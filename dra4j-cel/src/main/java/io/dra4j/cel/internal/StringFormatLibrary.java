package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeType;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * cel-go's {@code string.format} as the Kubernetes base environment has it (ext.Strings version 2, en_US
 * locale), which cel-java's string extension lacks. Errors carry cel-go's texts. Upstream also checks literal
 * format calls when compiling; here every problem surfaces at evaluation.
 */
public final class StringFormatLibrary extends LibrarySupport {

    private static final int DEFAULT_PRECISION = 6;
    /** A guard against absurd precisions, which upstream would try to honour (a documented deviation). */
    private static final int MAX_PRECISION = 100_000;

    private static final String STRING_CLAUSE_ERROR = "string clause can only be used on strings, bools, bytes, ints,"
            + " doubles, maps, lists, types, durations, and timestamps, was given ";
    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

    public StringFormatLibrary() {
        super(
                "cel.lib.ext.strings.format",
                List.of(Function.of(
                        newFunctionDeclaration(
                                "format",
                                newMemberOverload(
                                        "string_format",
                                        SimpleType.STRING,
                                        SimpleType.STRING,
                                        ListType.create(SimpleType.DYN))),
                        CelFunctionBinding.from(
                                "string_format", String.class, List.class, StringFormatLibrary::format))));
    }

    /** A formatting failure with cel-go's message. */
    private static final class FormatException extends Exception {
        private static final long serialVersionUID = 1L;

        FormatException(String message) {
            super(message);
        }
    }

    static String format(String formatString, List<?> args) throws CelEvaluationException {
        // Go walks the format string byte by byte: work on a one-char-per-UTF-8-byte view.
        String b = new String(formatString.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        StringBuilder out = new StringBuilder();
        int i = 0;
        int argIndex = 0;
        while (i < b.length()) {
            char c = b.charAt(i);
            if (c != '%') {
                out.append(c);
                i++;
                continue;
            }
            if (i + 1 < b.length() && b.charAt(i + 1) == '%') {
                out.append('%');
                i += 2;
                continue;
            }
            if (argIndex >= args.size()) {
                throw error("index " + argIndex + " out of range");
            }
            if (i + 1 >= b.length()) {
                throw error("unexpected end of string");
            }
            int j = i + 1;
            Integer precision = null;
            if (b.charAt(j) == '.') {
                j++;
                int start = j;
                while (true) {
                    if (j >= b.length()) {
                        throw error("could not parse formatting clause: error while parsing precision: could not find"
                                + " end of precision specifier");
                    }
                    if (b.charAt(j) < '0' || b.charAt(j) > '9') {
                        break;
                    }
                    j++;
                }
                precision = parsePrecision(b.substring(start, j));
            }
            char clause = b.charAt(j);
            j++;
            String value;
            try {
                value = formatClause(clause, precision, args.get(argIndex));
            } catch (FormatException e) {
                throw error("error during formatting: " + e.getMessage());
            }
            out.append(new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
            i = j;
            argIndex++;
        }
        return new String(out.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private static int parsePrecision(String digits) throws CelEvaluationException {
        String prefix = "could not parse formatting clause: error while parsing precision: error while converting"
                + " precision to integer: strconv.Atoi: parsing " + GoQuote.quote(digits) + ": ";
        if (digits.isEmpty()) {
            throw error(prefix + "invalid syntax");
        }
        long p;
        try {
            p = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw error(prefix + "value out of range");
        }
        if (p > MAX_PRECISION) {
            throw error("could not parse formatting clause: error while parsing precision: precision " + p
                    + " exceeds maximum allowed precision " + MAX_PRECISION);
        }
        return (int) p;
    }

    private static String formatClause(char clause, Integer precision, Object arg)
            throws FormatException, CelEvaluationException {
        switch (clause) {
            case 's':
                return formatString(arg);
            case 'd':
                if (arg instanceof Long || arg instanceof UnsignedLong) {
                    return arg.toString();
                }
                throw new FormatException(
                        "decimal clause can only be used on integers, was given " + CelValueTypes.name(arg));
            case 'f': {
                Double d = doubleArg(arg);
                if (d == null) {
                    throw new FormatException(
                            "fixed-point clause can only be used on doubles, was given " + CelValueTypes.name(arg));
                }
                return GoNumberFormat.localizedFixed(d, precision == null ? DEFAULT_PRECISION : precision);
            }
            case 'e': {
                Double d = doubleArg(arg);
                if (d == null) {
                    throw new FormatException(
                            "scientific clause can only be used on doubles, was given " + CelValueTypes.name(arg));
                }
                return GoNumberFormat.localizedScientific(d, precision == null ? DEFAULT_PRECISION : precision);
            }
            case 'b':
                if (arg instanceof Boolean bool) {
                    return bool ? "1" : "0";
                }
                if (arg instanceof Long || arg instanceof UnsignedLong) {
                    return integer(arg).toString(2);
                }
                throw new FormatException(
                        "only integers and bools can be formatted as binary, was given " + CelValueTypes.name(arg));
            case 'x':
            case 'X': {
                String hex;
                if (arg instanceof String s) {
                    hex = hex(s.getBytes(StandardCharsets.UTF_8));
                } else if (arg instanceof CelByteString bytes) {
                    hex = hex(bytes.toByteArray());
                } else if (arg instanceof Long || arg instanceof UnsignedLong) {
                    hex = integer(arg).toString(16);
                } else {
                    throw new FormatException("only integers, byte buffers, and strings can be formatted as hex,"
                            + " was given " + CelValueTypes.name(arg));
                }
                return clause == 'X' ? hex.toUpperCase(Locale.ROOT) : hex;
            }
            case 'o':
                if (arg instanceof Long || arg instanceof UnsignedLong) {
                    return integer(arg).toString(8);
                }
                throw new FormatException(
                        "octal clause can only be used on integers, was given " + CelValueTypes.name(arg));
            default:
                throw error("could not parse formatting clause: unrecognized formatting clause \"" + clause + "\"");
        }
    }

    /** A double, or one of the strings "NaN", "Infinity", "-Infinity" that upstream also accepts. */
    private static Double doubleArg(Object arg) {
        if (arg instanceof Double d) {
            return d;
        }
        if (arg instanceof String s && (s.equals("NaN") || s.equals("Infinity") || s.equals("-Infinity"))) {
            return Double.parseDouble(s);
        }
        return null;
    }

    private static BigInteger integer(Object arg) {
        return arg instanceof UnsignedLong u ? u.bigIntegerValue() : BigInteger.valueOf((Long) arg);
    }

    private static String hex(byte[] bytes) {
        StringBuilder b = new StringBuilder(bytes.length * 2);
        for (byte x : bytes) {
            b.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return b.toString();
    }

    /** The {@code %s} clause (cel-go's FormatString). */
    private static String formatString(Object v) throws FormatException {
        if (v instanceof List<?> list) {
            return formatList(list);
        }
        if (v instanceof Map<?, ?> map) {
            return formatMap(map);
        }
        if (v instanceof NullValue) {
            return "null";
        }
        String s = asString(v);
        if (s == null) {
            throw new FormatException(STRING_CLAUSE_ERROR + CelValueTypes.name(v));
        }
        return s;
    }

    /** cel-go's conversion of a scalar to string; null when the value has none. */
    private static String asString(Object v) throws FormatException {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Long || v instanceof UnsignedLong) {
            return v.toString();
        }
        if (v instanceof Double d) {
            return GoNumberFormat.formatG(d);
        }
        if (v instanceof Boolean bool) {
            return bool.toString();
        }
        if (v instanceof CelByteString bytes) {
            try {
                return StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes.toByteArray()))
                        .toString();
            } catch (CharacterCodingException e) {
                throw new FormatException("could not convert argument "
                        + GoQuote.quote("invalid UTF-8 in bytes, cannot convert to string") + " to string");
            }
        }
        if (v instanceof Instant t) {
            return rfc3339Nano(t);
        }
        if (v instanceof Duration d) {
            long nanos = d.toNanos();
            double seconds = (double) (nanos / 1_000_000_000L) + (double) (nanos % 1_000_000_000L) / 1e9;
            return GoNumberFormat.formatShortestFixed(seconds) + "s";
        }
        if (v instanceof TypeType t) {
            return typeValueName(t);
        }
        return null;
    }

    private static String typeValueName(TypeType t) {
        String name = t.type().name();
        return name.equals("dyn") ? "type" : name;
    }

    private static String rfc3339Nano(Instant t) {
        StringBuilder b = new StringBuilder(SECONDS.format(t));
        if (t.getNano() != 0) {
            String frac = String.format("%09d", t.getNano());
            b.append('.').append(frac.replaceFirst("0+$", ""));
        }
        return b.append('Z').toString();
    }

    /** A list element or map value (cel-go's clauseForType), quoted as a CEL literal where needed. */
    private static String formatMember(Object v) throws FormatException {
        String text;
        if (v instanceof Long || v instanceof UnsignedLong) {
            text = v.toString();
        } else if (v instanceof String
                || v instanceof CelByteString
                || v instanceof Boolean
                || v instanceof NullValue
                || v instanceof TypeType) {
            text = formatString(v);
        } else if (v instanceof Instant || v instanceof Duration) {
            text = (v instanceof Instant ? "timestamp(" : "duration(") + GoQuote.quote(asString(v)) + ")";
        } else if (v instanceof List<?> list) {
            text = formatList(list);
        } else if (v instanceof Map<?, ?> map) {
            text = formatMap(map);
        } else if (v instanceof Double d) {
            text = GoNumberFormat.formatFixed(d, DEFAULT_PRECISION);
        } else {
            throw new FormatException("no formatting function for " + CelValueTypes.name(v));
        }
        return quoteForCel(v, text);
    }

    private static String quoteForCel(Object v, String text) {
        if (v instanceof String) {
            return GoQuote.quote(text);
        }
        if (v instanceof CelByteString) {
            return "b" + GoQuote.quote(text);
        }
        if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
            return GoQuote.quote(text);
        }
        return text;
    }

    private static String formatList(List<?> list) throws FormatException {
        List<String> parts = new ArrayList<>();
        for (Object member : list) {
            parts.add(formatMember(member));
        }
        return "[" + String.join(", ", parts) + "]";
    }

    private static String formatMap(Map<?, ?> map) throws FormatException {
        List<String[]> pairs = new ArrayList<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object key = e.getKey();
            String keyText;
            if (key instanceof String || key instanceof Boolean) {
                keyText = formatString(key);
            } else if (key instanceof Long || key instanceof UnsignedLong) {
                keyText = key.toString();
            } else {
                throw new FormatException("no formatting function for map key of type " + CelValueTypes.name(key));
            }
            pairs.add(new String[] {quoteForCel(key, keyText), formatMember(e.getValue())});
        }
        pairs.sort((x, y) -> CelValues.compareCodePoints(x[0], y[0]));
        List<String> parts = new ArrayList<>();
        for (String[] p : pairs) {
            parts.add(p[0] + ":" + p[1]);
        }
        return "{" + String.join(", ", parts) + "}";
    }
}
