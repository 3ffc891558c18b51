package io.dra4j.bench.diff;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Brings error messages of both engines into one form before they are compared.
 *
 * <p>dra4j keeps upstream's wording everywhere but one place: a CEL runtime error. Upstream writes
 * {@code <owner>: selector #i on device D: CEL runtime error: <msg>}, dra4j writes
 * {@code <owner>: selector #i: CEL runtime error: <msg> (on device D)}. Both are rewritten to upstream's form. Any
 * other text is compared as it is, apart from surrounding whitespace.
 */
public final class ErrorMessages {
    // <msg> may itself contain parentheses, so the device is taken from the last "(on device ...)" at the very end.
    private static final Pattern DRA4J_CEL = Pattern.compile(
            "(.*?): selector #(\\d+): CEL runtime error: (.*) \\(on device ([^()\\s]+)\\)", Pattern.DOTALL);

    private ErrorMessages() {
    }

    public static String normalise(String message) {
        if (message == null) {
            return "";
        }
        String trimmed = message.strip();
        Matcher m = DRA4J_CEL.matcher(trimmed);
        if (m.matches()) {
            return m.group(1) + ": selector #" + m.group(2) + " on device " + m.group(4)
                    + ": CEL runtime error: " + m.group(3);
        }
        return trimmed;
    }
}
