package io.dra4j.scenario;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads scenario files (docs/scenario-format.md): YAML, one scenario per file, cluster objects in
 * {@code resource.k8s.io/v1} only, decoded strictly (unknown keys and fields, unknown feature gates and unparsable
 * quantities are errors).
 */
public final class ScenarioReader {
    private ScenarioReader() {}

    /**
     * @throws ScenarioException when the file cannot be read or is not a valid scenario; the message names the file,
     *                           the object and the field
     */
    public static Scenario read(Path file) throws ScenarioException {
        return read(file, false);
    }

    /**
     * Reads a scenario file; with {@code validate} every object to allocate with also gets kube-apiserver 1.37's
     * defaults and validation, so that what the API server would reject is rejected with its field path and message.
     * Without it, objects are taken as upstream's allocator tests hand them over (the conformance cases need that).
     *
     * @throws ScenarioException when the file cannot be read or is not a valid scenario; the message names the file,
     *                           the object and the field
     */
    public static Scenario read(Path file, boolean validate) throws ScenarioException {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw failure(file, null, "no such file");
        } catch (AccessDeniedException e) {
            throw failure(file, null, "permission denied");
        } catch (IOException e) {
            if (Files.isDirectory(file)) {
                throw failure(file, null, "is a directory, not a scenario file");
            }
            throw failure(file, null, "cannot read the file: " + e.getMessage());
        }
        return read(content, file, validate);
    }

    /**
     * Reads a scenario from its text, e.g. from standard input; {@code label} names it in messages.
     *
     * @throws ScenarioException as {@link #read(Path, boolean)}
     */
    public static Scenario read(byte[] content, Path label, boolean validate) throws ScenarioException {
        Path file = label;
        try {
            return ScenarioParser.parse(content, file, validate);
        } catch (BadInput e) {
            throw failure(file, content, e.describe());
        }
    }

    /**
     * Whether the text is a scenario file rather than Kubernetes manifests: its first YAML document is a mapping
     * with none of {@code apiVersion}, {@code kind} and {@code items}. Text that is not even YAML is not a scenario
     * (the manifest reader then says what is wrong with it).
     */
    public static boolean isScenario(byte[] content) {
        return ScenarioParser.looksLikeScenario(content);
    }

    /** Whether the text can be read as YAML (or JSON) at all. */
    public static boolean isYaml(byte[] content) {
        try {
            YamlDocuments.read(content, doc -> {});
            return true;
        } catch (YamlDocuments.YamlError e) {
            return false;
        }
    }

    /** The error for a file that cannot be read, with the reader's wording: {@code scenario file F: problem}. */
    public static ScenarioException unreadable(Path file, String problem) {
        return failure(file, null, problem);
    }

    private static ScenarioException failure(Path file, byte[] content, String problem) {
        String fileName = file.getFileName() == null
                ? file.toString()
                : file.getFileName().toString();
        String fallback = fileName.endsWith(".yaml") || fileName.endsWith(".yml")
                ? fileName.substring(0, fileName.lastIndexOf('.'))
                : fileName;
        String name =
                content == null ? fallback : ScenarioParser.nameOf(content).orElse(fallback);
        return new ScenarioException(file, name, "scenario file " + file + ": " + problem);
    }
}
