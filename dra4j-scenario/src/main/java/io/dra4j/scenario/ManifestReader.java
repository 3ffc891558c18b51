package io.dra4j.scenario;

import io.dra4j.allocator.FeatureGates;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads Kubernetes manifests as users have them: multi-document YAML, JSON, {@code kind: List} (what
 * {@code kubectl get ... -o yaml} prints, {@code managedFields} and {@code status} included), directories (their
 * {@code .yaml}, {@code .yml} and {@code .json} files, recursively, in path order) and {@code -} for standard input.
 *
 * <p>Objects of the kinds in {@link Manifests} are decoded strictly into fabric8 model objects (unknown fields and
 * unparsable quantities are problems, and {@code resource.k8s.io} objects must be v1); objects of other kinds are
 * listed as skipped. A problem names the source, the document, the object and the field, and the other documents
 * and objects are still read.
 */
public final class ManifestReader {
    /** The source name used for {@code -}. */
    public static final String STDIN = "<stdin>";

    private ManifestReader() {}

    /** Reads files, directories and {@code -} (from {@code stdin}), in the order given. */
    public static Manifests read(List<String> sources, InputStream stdin) {
        return read(sources, stdin, false);
    }

    /**
     * Like {@link #read(List, InputStream)}; with {@code validate}, {@code resource.k8s.io} objects also get
     * kube-apiserver 1.37's defaults and validation, as with {@link #parse(List, boolean)}.
     */
    public static Manifests read(List<String> sources, InputStream stdin, boolean validate) {
        return read(sources, stdin, validate, FeatureGates.defaults());
    }

    /**
     * Like {@link #read(List, InputStream, boolean)}, validating as an API server with {@code gates} does (see
     * {@link #parse(List, boolean, FeatureGates)}).
     */
    public static Manifests read(List<String> sources, InputStream stdin, boolean validate, FeatureGates gates) {
        ManifestParser parser = new ManifestParser(validate, java.util.Objects.requireNonNull(gates, "gates"));
        for (String source : sources) {
            if (source.equals("-")) {
                try {
                    parser.parse(stdin.readAllBytes(), STDIN);
                } catch (IOException e) {
                    parser.problem(new ManifestOrigin(STDIN, 0, -1), "", "", "cannot read: " + e.getMessage());
                }
            } else {
                readPath(parser, Path.of(source));
            }
        }
        return parser.result();
    }

    /** Reads files and directories. */
    public static Manifests read(Path... paths) {
        ManifestParser parser = new ManifestParser();
        for (Path p : paths) {
            readPath(parser, p);
        }
        return parser.result();
    }

    /** The text of one source and its name in problems. */
    public record Source(String name, byte[] content) {
        public Source {
            java.util.Objects.requireNonNull(name, "name");
            java.util.Objects.requireNonNull(content, "content");
        }
    }

    /**
     * Reads several sources as one set of objects, as {@code kubectl apply -f a -f b} would see them (an object
     * twice is a problem); with {@code validate}, {@code resource.k8s.io} objects also get kube-apiserver 1.37's
     * defaults and validation, and an object it would reject is a problem with its field path and message.
     */
    public static Manifests parse(List<Source> sources, boolean validate) {
        return parse(sources, validate, FeatureGates.defaults());
    }

    /**
     * Like {@link #parse(List, boolean)}, validating as an API server with {@code gates} does (its strategies drop
     * the fields of disabled features before validating, and new CEL expressions compile with its features).
     */
    public static Manifests parse(List<Source> sources, boolean validate, FeatureGates gates) {
        ManifestParser parser = new ManifestParser(validate, java.util.Objects.requireNonNull(gates, "gates"));
        for (Source s : sources) {
            parser.parse(s.content(), s.name());
        }
        return parser.result();
    }

    /** Reads the text of one source, named {@code source} in problems. */
    public static Manifests parse(byte[] content, String source) {
        ManifestParser parser = new ManifestParser();
        parser.parse(content, source);
        return parser.result();
    }

    private static void readPath(ManifestParser parser, Path path) {
        if (Files.isDirectory(path)) {
            for (Path file : manifestFiles(parser, path)) {
                readFile(parser, file);
            }
        } else {
            readFile(parser, path);
        }
    }

    private static List<Path> manifestFiles(ManifestParser parser, Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(ManifestReader::isManifestName)
                    .sorted()
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            parser.problem(
                    new ManifestOrigin(dir.toString(), 0, -1), "", "", "cannot list the directory: " + e.getMessage());
            return List.of();
        }
    }

    /** Whether a file in a directory is read: {@code .yaml}, {@code .yml} and {@code .json}, as kubectl reads them. */
    public static boolean isManifestName(Path p) {
        String name = p.getFileName().toString();
        return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
    }

    private static void readFile(ManifestParser parser, Path file) {
        try {
            parser.parse(Files.readAllBytes(file), file.toString());
        } catch (NoSuchFileException e) {
            parser.problem(new ManifestOrigin(file.toString(), 0, -1), "", "", "no such file or directory");
        } catch (IOException e) {
            parser.problem(new ManifestOrigin(file.toString(), 0, -1), "", "", "cannot read: " + e.getMessage());
        }
    }
}
