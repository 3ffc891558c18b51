package io.dra4j.cel.internal;

import dev.cel.common.exceptions.CelAttributeNotFoundException;
import dev.cel.common.exceptions.CelBadFormatException;
import dev.cel.common.exceptions.CelDivideByZeroException;
import dev.cel.common.exceptions.CelIndexOutOfBoundsException;
import dev.cel.common.exceptions.CelNumericOverflowException;
import dev.cel.common.exceptions.CelOverloadNotFoundException;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.Semver;
import java.time.DateTimeException;
import java.time.zone.ZoneRulesException;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns cel-java evaluation failures into the texts cel-go produces for the same failures. */
final class RuntimeErrors {

    /** Upstream's hint for missing keys (dynamic-resource-allocation cel/errors.go, 1.37). */
    static final String NO_SUCH_KEY_HINT =
            ". consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for"
                    + " optional fields";

    /** cel-go's errTimestampOverflow text. */
    static final String TIMESTAMP_OVERFLOW = "timestamp overflow";

    private static final Pattern MISSING_MAP_KEY =
            Pattern.compile("key '(.*)' is not present in map\\.", Pattern.DOTALL);
    private static final Pattern EVALUATION_PREFIX = Pattern.compile("^evaluation error(?: at [^:]*(?::\\d+)+)?: ");
    /** java.time's text for a zone ID it does not know; cel-go reports Go's time.LoadLocation error. */
    private static final String UNKNOWN_ZONE = "Unknown time-zone ID: ";

    private static final Pattern INVALID_ZONE =
            Pattern.compile("Invalid ID for (?:ZoneOffset|region-based ZoneId), invalid format: (.*)", Pattern.DOTALL);
    /** Integer.parseInt's text, on the hours or minutes of a zone offset. */
    private static final Pattern NOT_A_NUMBER = Pattern.compile("For input string: \"(.*)\"", Pattern.DOTALL);
    /** The timestamp accessors that take a time zone. */
    static final Set<String> ZONE_FUNCTIONS = Set.of(
            "getFullYear",
            "getMonth",
            "getDayOfYear",
            "getDayOfMonth",
            "getDate",
            "getDayOfWeek",
            "getHours",
            "getMinutes",
            "getSeconds",
            "getMilliseconds");

    private static final Set<String> CONVERSIONS = Set.of("int", "uint", "double", "bool");
    private static final Pattern INDEX_OUT_OF_RANGE = Pattern.compile("Out of range: (-?\\d+)");
    private static final Pattern ITERATION_RANGE =
            Pattern.compile("expected a list or a map for iteration range but got '(.*)'");

    private RuntimeErrors() {}

    /**
     * Go's time.LoadLocation error for a zone name it has no zone for: a name with {@code ..} or that starts with a
     * path separator is invalid, any other is unknown.
     */
    private static String goLocationError(String zone) {
        if (zone.contains("..") || zone.startsWith("/") || zone.startsWith("\\")) {
            return "time: invalid location name";
        }
        return "unknown time zone " + zone;
    }

    /** The cel-go text for a failure, with upstream's hint appended to "no such key" errors. */
    static String message(Throwable failure, FailureSites sites) {
        String text = translate(failure, sites);
        return text.contains("no such key:") ? text + NO_SUCH_KEY_HINT : text;
    }

    /** The cel-go text of a failure, without the hint. */
    static String translate(Throwable failure, FailureSites sites) {
        Optional<String> function = sites.failingFunction(failure);
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        if (function.isPresent() && CONVERSIONS.contains(function.get())) {
            if (root instanceof NumberFormatException || root instanceof CelBadFormatException) {
                return "type conversion error from 'string' to '" + function.get() + "'";
            }
            if (root instanceof CelNumericOverflowException) {
                // cel-go: errUintOverflow converting to uint, errIntOverflow converting to int (also from a uint).
                if (function.get().equals("uint")) {
                    return "unsigned integer overflow";
                }
                if (function.get().equals("int")) {
                    return "integer overflow";
                }
            }
        }
        if (function.filter("timestamp"::equals).isPresent()
                && (message.startsWith("Timestamp is not valid") || message.equals(TIMESTAMP_OVERFLOW))) {
            return TIMESTAMP_OVERFLOW;
        }
        if (function.isPresent()
                && (function.get().equals("duration") || function.get().equals("timestamp"))
                && !(root instanceof CelAttributeNotFoundException)) {
            // Go's time.ParseDuration or time.Parse(RFC3339) failed: cel-go names the protobuf type.
            return "type conversion error from 'string' to 'google.protobuf."
                    + (function.get().equals("duration") ? "Duration" : "Timestamp") + "'";
        }
        if (message.startsWith("Timestamp is not valid")) {
            return TIMESTAMP_OVERFLOW;
        }
        if (root instanceof CelAttributeNotFoundException) {
            Matcher missing = MISSING_MAP_KEY.matcher(message);
            if (missing.matches()) {
                return "no such key: " + missing.group(1);
            }
            if (message.startsWith("No such attribute") || message.startsWith("Error resolving field")) {
                return message;
            }
            return "no such key: " + message;
        }
        if (root instanceof CelDivideByZeroException || message.endsWith("/ by zero")) {
            // cel-java reports both as "/ by zero".
            return function.filter("_%_"::equals).isPresent() ? "modulus by zero" : "division by zero";
        }
        if (root instanceof CelIndexOutOfBoundsException) {
            return message.replace("Index out of bounds", "index out of bounds");
        }
        Matcher outOfRange = INDEX_OUT_OF_RANGE.matcher(message);
        if (outOfRange.matches()) {
            // cel-java rejects a list index beyond Java's int range before looking; cel-go reports it as out of bounds.
            return "index out of bounds: " + outOfRange.group(1);
        }
        if (root instanceof CelNumericOverflowException || root instanceof ArithmeticException) {
            return message.contains("unsigned") ? "unsigned integer overflow" : "integer overflow";
        }
        if (root instanceof ZoneRulesException && message.startsWith(UNKNOWN_ZONE)) {
            return goLocationError(message.substring(UNKNOWN_ZONE.length()));
        }
        Matcher badZone = INVALID_ZONE.matcher(message);
        if (root instanceof DateTimeException
                && badZone.matches()
                && !badZone.group(1).contains(":")) {
            // java.time reads a zone that starts with a digit or sign as an offset and rejects other characters in a
            // region name; Go's time.LoadLocation fails on both, and cel-go tries an offset only for a zone with a
            // colon.
            return goLocationError(badZone.group(1));
        }
        Matcher badNumber = NOT_A_NUMBER.matcher(message);
        if (root instanceof NumberFormatException
                && badNumber.matches()
                && function.filter(ZONE_FUNCTIONS::contains).isPresent()
                && !badNumber.group(1).matches("[+-]?[0-9]+")) {
            // A zone with a colon is an offset: cel-go reads its hours and minutes with strconv.Atoi.
            return "strconv.Atoi: parsing " + GoQuote.quote(badNumber.group(1)) + ": invalid syntax";
        }
        if (root instanceof NoSuchElementException && "No value present".equals(message)) {
            // cel-java's optional value() on an empty optional; cel-go's Optional.GetValue error.
            return "optional.none() dereference";
        }
        if (root instanceof CelOverloadNotFoundException) {
            return "no such overload";
        }
        String stripped = EVALUATION_PREFIX.matcher(message).replaceFirst("");
        Matcher range = ITERATION_RANGE.matcher(stripped);
        if (range.matches()) {
            return "got '" + goTypeName(range.group(1)) + "', expected iterable type";
        }
        if (stripped.startsWith("No matching overload") || stripped.startsWith("expected boolean value, found")) {
            // Also a non-bool condition of a conditional at run time: cel-go finds no overload for it.
            return "no such overload";
        }
        return stripped;
    }

    /** cel-go's {@code %T} for the Java class cel-java names in its iteration-range error. */
    private static String goTypeName(String javaSimpleName) {
        switch (javaSimpleName) {
            case "Long":
                return "types.Int";
            case "UnsignedLong":
                return "types.Uint";
            case "Double":
                return "types.Double";
            case "Boolean":
                return "types.Bool";
            case "String":
                return "types.String";
            case "ByteString":
            case "CelByteString":
                return "types.Bytes";
            case "NullValue":
                return "types.Null";
            case "Optional":
                return "*types.Optional";
            default:
                if (javaSimpleName.equals(Semver.class.getSimpleName())) {
                    return "cel.Semver";
                }
                if (javaSimpleName.equals(KubeQuantity.class.getSimpleName())) {
                    return "cel.Quantity";
                }
                return javaSimpleName;
        }
    }
}
