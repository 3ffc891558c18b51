package io.dra4j.scenario;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import java.util.Map;

/**
 * Renders scenario outcomes. {@link Format#JSON} is the CLI contract of docs/scenario-format.md, one line per scenario,
 * identical to what the Go oracle prints; {@link Format#YAML} is the same structure as one YAML document per
 * scenario; {@link Format#TEXT} is for people.
 */
public final class OutcomeWriter {
    /** The output formats of {@code dra4j allocate --output}. */
    public enum Format {
        TEXT,
        YAML,
        JSON
    }

    private OutcomeWriter() {}

    /** One outcome in the given format, ending with a newline. */
    public static String render(ScenarioOutcome outcome, Format format) {
        return switch (format) {
            case JSON -> json(outcome) + "\n";
            case YAML -> yaml(outcome);
            case TEXT -> text(outcome);
        };
    }

    /**
     * The JSON line, without its newline: {@code {"scenario","outcome","error"?,"allocations"?}}, quantities in
     * canonical form, {@code nodeSelector} null when usable on every node, {@code config} left out when empty.
     */
    public static String json(ScenarioOutcome outcome) {
        return JsonText.write(OutcomeView.of(outcome));
    }

    /**
     * An allocation result in the shape of one entry of {@link #json}'s {@code allocations}, without the claim's
     * name: {@code {"results","nodeSelector","config"?}}.
     */
    public static Map<String, Object> allocationView(AllocationResult result) {
        Map<String, Object> view = OutcomeView.allocation("", result);
        view.remove("claim");
        return view;
    }

    /**
     * A JSON line, without its newline, of plain values (maps in their iteration order, lists, strings, numbers,
     * booleans, null), written as {@link #json} writes.
     */
    public static String jsonLine(Map<String, Object> fields) {
        return JsonText.write(fields);
    }

    /** The same structure as {@link #json} as a YAML document, starting with {@code ---}. */
    public static String yaml(ScenarioOutcome outcome) {
        return Mappers.WRITER.writeValueAsString(OutcomeView.of(outcome));
    }

    /** Plain values as a YAML document, starting with {@code ---}; see {@link #jsonLine}. */
    public static String yamlDocument(Map<String, Object> fields) {
        return Mappers.WRITER.writeValueAsString(fields);
    }

    /** A block for people: the outcome, then per claim its node selector and devices, or the error message. */
    public static String text(ScenarioOutcome outcome) {
        Map<String, Object> view = OutcomeView.of(outcome);
        return TextRenderer.render(view);
    }
}
