package io.dra4j.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/** Reading manifest files (or stdin) as UTF-8 text, and replacing a file atomically, for the rewriting commands. */
final class InputFiles {
    /** A file's text and where it came from. */
    record Input(String name, Path path, String text) {}

    private InputFiles() {}

    /** The text of {@code name} ({@code -} is stdin), or null after printing why it cannot be read. */
    static Input read(String name, PrintWriter err) {
        try {
            if (name.equals("-")) {
                return new Input(name, null, decode(System.in.readAllBytes()));
            }
            Path path = Path.of(name);
            if (Files.isDirectory(path)) {
                err.println(name + ": is a directory; give the files in it");
                return null;
            }
            try (InputStream in = Files.newInputStream(path)) {
                return new Input(name, path, decode(in.readAllBytes()));
            }
        } catch (CharacterCodingException e) {
            err.println(name + ": not UTF-8 text");
        } catch (java.nio.file.NoSuchFileException e) {
            err.println(name + ": no such file");
        } catch (IOException e) {
            err.println(name + ": cannot read: " + e.getMessage());
        }
        return null;
    }

    private static String decode(byte[] bytes) throws CharacterCodingException {
        String text = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(java.nio.ByteBuffer.wrap(bytes))
                .toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /**
     * Replaces the file's content: written to a temporary file in the same directory with the file's permissions,
     * then renamed over it, so that readers see the old or the new file, never a part. False after printing why not.
     */
    static boolean replace(Input input, String text, PrintWriter err) {
        Path target = input.path();
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(target);
                Files.setPosixFilePermissions(tmp, perms);
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the temporary file's permissions stay
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                err.println(input.name() + ": not rewritten: this file system cannot replace it atomically");
                Files.deleteIfExists(tmp);
                return false;
            }
            return true;
        } catch (IOException e) {
            err.println(input.name() + ": not rewritten: " + e.getMessage());
            try {
                if (tmp != null) {
                    Files.deleteIfExists(tmp);
                }
            } catch (IOException ignored) {
                // the temporary file stays behind; the original is untouched
            }
            return false;
        }
    }
}
