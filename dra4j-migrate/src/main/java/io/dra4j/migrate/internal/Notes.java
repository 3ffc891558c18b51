package io.dra4j.migrate.internal;

import io.dra4j.migrate.Finding;
import java.util.ArrayList;
import java.util.List;

/** What one document's conversion or rewrite has to say, located by field path; turned into findings per file. */
public final class Notes {
    /** One note at a field path of the document. */
    public record Note(String path, Finding.Severity severity, String rule, String message) {}

    private final List<Note> notes = new ArrayList<>();

    /** An error; a second one at the same path is left out (the first is the more specific). */
    public void error(String path, String rule, String message) {
        if (notes.stream()
                .anyMatch(
                        n -> n.severity() == Finding.Severity.ERROR && n.path().equals(path))) {
            return;
        }
        notes.add(new Note(path, Finding.Severity.ERROR, rule, message));
    }

    public void warning(String path, String rule, String message) {
        notes.add(new Note(path, Finding.Severity.WARNING, rule, message));
    }

    public void info(String path, String rule, String message) {
        notes.add(new Note(path, Finding.Severity.INFO, rule, message));
    }

    public boolean hasErrors() {
        return notes.stream().anyMatch(n -> n.severity() == Finding.Severity.ERROR);
    }

    public List<Note> all() {
        return List.copyOf(notes);
    }
}
