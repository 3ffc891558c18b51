package io.dra4j.scenario;

/**
 * A problem found while reading a scenario, located by a path inside the file. Internal: the reader turns it into
 * a {@link ScenarioException} that names the file. Carries no stack trace; it is never shown as one.
 */
final class BadInput extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String where;
    private final String position;

    BadInput(String where, String message) {
        this(where, message, "");
    }

    private BadInput(String where, String message, String position) {
        super(message, null, false, false);
        this.where = where;
        this.position = position;
    }

    /** Where in the file: a top-level key, an object label, a field path, joined by ": ". */
    String where() {
        return where;
    }

    /** The same problem, located inside {@code outer}. */
    BadInput within(String outer) {
        return new BadInput(where.isEmpty() ? outer : outer + ": " + where, getMessage(), position);
    }

    /** The same problem with where in the file it is ({@code line 3, column 5}), unless it already has one. */
    BadInput at(YamlDocuments.Position at) {
        return position.isEmpty() && at.line() > 0 ? new BadInput(where, getMessage(), at.toString()) : this;
    }

    /** "line 3, column 5: where: message", leaving out what is unknown. */
    String describe() {
        String at = where.isEmpty() ? getMessage() : where + ": " + getMessage();
        return position.isEmpty() ? at : position + ": " + at;
    }
}
