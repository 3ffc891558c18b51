package io.dra4j.kubelet.internal;

import io.dra4j.kubelet.dra.ClaimRef;
import io.dra4j.kubelet.dra.PreparedDevice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The prepared claims of a driver on its node, in one JSON file. Written crash-safe: a temporary file in the same
 * directory is written and fsynced, renamed over the old file and the directory fsynced, so that after a crash the
 * file holds either the old or the new state, never a mix. A failed write (disk full) leaves the old file as it
 * was. Unknown fields are ignored so that an older build reads a newer checkpoint of the same version; an
 * unreadable file is never overwritten: it is reported with its path and left for the operator.
 *
 * <p>Each claim goes through {@code PrepareStarted} (recorded before the driver touches devices) and
 * {@code PrepareCompleted}, so that a prepare interrupted by a crash is rolled back before it is retried.
 */
public final class Checkpoint {
    public static final int VERSION = 1;

    public enum State {
        PrepareStarted,
        PrepareCompleted
    }

    public record Entry(ClaimRef claim, State state, List<PreparedDevice> devices) {
        public Entry {
            devices = devices == null ? List.of() : List.copyOf(devices);
        }
    }

    public record Data(int version, List<Entry> claims) {
        public Data {
            claims = claims == null ? List.of() : List.copyOf(claims);
        }

        public Optional<Entry> find(String uid) {
            return claims.stream().filter(e -> e.claim().uid().equals(uid)).findFirst();
        }

        public Data with(Entry entry) {
            List<Entry> next = new ArrayList<>(claims.size() + 1);
            claims.stream()
                    .filter(e -> !e.claim().uid().equals(entry.claim().uid()))
                    .forEach(next::add);
            next.add(entry);
            return new Data(VERSION, next);
        }

        public Data without(String uid) {
            return new Data(
                    VERSION,
                    claims.stream().filter(e -> !e.claim().uid().equals(uid)).toList());
        }
    }

    /** A checkpoint that cannot be read; the file is left unchanged. */
    public static final class CorruptCheckpointException extends IOException {
        private static final long serialVersionUID = 1L;

        public CorruptCheckpointException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Path file;
    private final JsonMapper json = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    public Checkpoint(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** The stored state; empty when there is no file yet. */
    public Data load() throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new Data(VERSION, List.of());
        }
        Data data;
        try {
            data = json.readValue(bytes, Data.class);
        } catch (JacksonException e) {
            throw new CorruptCheckpointException(
                    "checkpoint " + file + " is corrupt (" + bytes.length + " bytes): " + e.getOriginalMessage()
                            + "; it is left unchanged: move it away to start with no prepared claims",
                    e);
        } catch (IllegalArgumentException e) {
            throw new CorruptCheckpointException(
                    "checkpoint " + file + " has an invalid entry: " + e.getMessage() + "; it is left unchanged", e);
        }
        if (data == null) {
            throw new CorruptCheckpointException("checkpoint " + file + " is empty; it is left unchanged", null);
        }
        if (data.version() != VERSION) {
            throw new CorruptCheckpointException(
                    "checkpoint " + file + " has version " + data.version() + ", this driver reads version " + VERSION
                            + "; it is left unchanged",
                    null);
        }
        for (Entry e : data.claims()) {
            if (e.claim() == null || e.claim().uid() == null || e.state() == null) {
                throw new CorruptCheckpointException(
                        "checkpoint " + file + " has an entry without claim, uid or state;" + " it is left unchanged",
                        null);
            }
        }
        return data;
    }

    /** Replaces the stored state; on failure the previous file is kept and the error names the file. */
    public void store(Data data) throws IOException {
        byte[] bytes = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(data);
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, ".checkpoint-", ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            syncDirectory(dir);
        } catch (IOException e) {
            throw new IOException(
                    "cannot write checkpoint " + file + ": " + e.getMessage() + "; the previous checkpoint is kept", e);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException ignored) {
            // some file systems cannot fsync a directory; the rename itself is still atomic there
        }
    }
}
