package io.dra4j.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Checks that {@code simulate --report FILE} can be written before the simulation runs, and words write errors. */
final class ReportFile {
    private ReportFile() {}

    /** Why the report could not be written there, or null when it can. */
    static String problem(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file)) {
            return "is a directory";
        }
        if (dir == null || !Files.exists(dir)) {
            return "directory " + dir + " does not exist";
        }
        if (!Files.isDirectory(dir)) {
            return dir + " is not a directory";
        }
        if (!Files.isWritable(dir) || Files.exists(file) && !Files.isWritable(file)) {
            return "permission denied";
        }
        return null;
    }

    /** An I/O error as one line, without the exception's class. */
    static String describe(IOException e) {
        if (e instanceof AccessDeniedException a) {
            return a.getFile() + ": permission denied";
        }
        if (e instanceof NoSuchFileException n) {
            return n.getFile() + ": no such file or directory";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getFile() + ": " + f.getReason();
        }
        return e.getMessage();
    }
}
