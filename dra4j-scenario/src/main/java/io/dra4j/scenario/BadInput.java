package io.dra4j.scenario;

/**
 * A problem found while reading a scenario, located by a path inside the file. Internal: the reader turns it into
 * a {@link ScenarioException} that names the file. Carries no stack trace; it is never shown as one.
 */
final class BadInput extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String where;

    BadInput(String where, String message) {
        super(message, null, false, false);
        this.where = where;
    }

    /** Where in the file: a top-level key, an object label, a field path, joined by ": ". */
    String where() {
        return where;
    }

    /** The same problem, located inside {@code outer}. */
    BadInput within(String outer) {
        return new BadInput(where.isEmpty() ? outer : outer + ": " + where, getMessage());
    }

    /** "where: message", or only the message when the location is unknown. */
    String describe() {
        return where.isEmpty() ? getMessage() : where + ": " + getMessage();
    }
}
