package io.dra4j.migrate;

import java.util.Objects;

/**
 * Something a migration tool reports about an input, located by file, line and column (1-based; 0 when unknown).
 *
 * @param source   the file name as given, or {@code -} for stdin
 * @param line     1-based line in the source
 * @param column   1-based column in the source
 * @param severity how bad it is
 * @param rule     a short stable name for the kind of finding, e.g. {@code no-v1-form}
 * @param message  what is wrong, naming the object and field
 */
public record Finding(String source, int line, int column, Severity severity, String rule, String message) {
    /** How bad a finding is; {@link #ERROR} means the object was not converted or rewritten. */
    public enum Severity {
        ERROR,
        WARNING,
        INFO;

        /** The lower-case word used in {@code file:line:col: severity: ...} lines. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public Finding {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
    }

    /** {@code file:line:col: severity: rule: message}, the form compilers and editors understand. */
    public String format() {
        return source + ":" + line + ":" + column + ": " + severity.word() + ": " + rule + ": " + message;
    }
}
