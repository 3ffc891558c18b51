package io.dra4j.scenario;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A scenario file that cannot be read. The message names the file, the object (by list and index, kind and name)
 * and the field, and says what is wrong; it is meant to be shown to people as it is.
 */
public final class ScenarioException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String scenarioName;

    ScenarioException(Path file, String scenarioName, String message) {
        super(message, null, false, false);
        this.file = Objects.requireNonNull(file, "file");
        this.scenarioName = Objects.requireNonNull(scenarioName, "scenarioName");
    }

    /** The file that could not be read. */
    public Path file() {
        return file;
    }

    /**
     * The scenario's {@code name} when the file got far enough to have one, otherwise the file name without its
     * extension; used to label the error in output.
     */
    public String scenarioName() {
        return scenarioName;
    }
}
