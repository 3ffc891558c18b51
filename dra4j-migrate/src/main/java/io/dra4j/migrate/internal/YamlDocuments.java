package io.dra4j.migrate.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Splits a multi-document YAML text into its documents and composes each one into a node tree that keeps the
 * position of every node. Documents are split on {@code ---} lines first (as kubectl's YAML reader does), so that a
 * broken document does not stop the others from being read.
 */
public final class YamlDocuments {
    private static final Pattern SEPARATOR = Pattern.compile("^---(?:[ \\t].*)?$");
    private static final Pattern END = Pattern.compile("^\\.\\.\\.[ \\t]*$");
    /** Aliases allowed per document: enough for hand-written anchors, far below an alias bomb. */
    private static final int MAX_ALIASES = 100;
    /** Code points per document, as the scenario reader allows. */
    private static final int MAX_CODE_POINTS = 8 * 1024 * 1024;

    private YamlDocuments() {}

    /**
     * One document of a file.
     *
     * @param index     0-based among the file's non-empty documents; -1 for a chunk of only comments or blank lines
     * @param startLine 1-based line in the file where the document's text starts
     * @param start     char offset in the file where the document's text starts
     * @param text      the document's text, from after its {@code ---} line to before the next one
     * @param root      the composed tree, or null when the document is empty or could not be parsed
     * @param error     why it could not be parsed, with its 1-based line and column in the file; or null
     */
    public record Document(int index, int startLine, int start, String text, Node root, ParseError error) {
        /** A chunk with nothing but comments and blank lines, kept so that writing the file back loses nothing. */
        public boolean blank() {
            return index < 0;
        }
    }

    /** A YAML syntax error at a 1-based line and column of the file. */
    public record ParseError(int line, int column, String message) {}

    /**
     * The documents of {@code text}, in order, with the comment-only chunks between them ({@link Document#blank});
     * whitespace-only chunks are left out.
     */
    public static List<Document> read(String text) {
        List<Document> documents = new ArrayList<>();
        int lineNo = 0;
        int chunkStart = 0;
        int chunkStartLine = 1;
        int offset = 0;
        while (offset <= text.length()) {
            int nl = text.indexOf('\n', offset);
            int lineEnd = nl < 0 ? text.length() : nl;
            String line = text.substring(offset, lineEnd);
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            lineNo++;
            boolean separator = SEPARATOR.matcher(line).matches();
            boolean end = END.matcher(line).matches();
            if (separator || end) {
                add(documents, text.substring(chunkStart, offset), chunkStart, chunkStartLine);
                chunkStart = nl < 0 ? text.length() : nl + 1;
                chunkStartLine = lineNo + 1;
                if (separator && line.length() > 3 && !line.substring(3).isBlank()) {
                    // "--- {inline: document}" keeps its content on the marker line
                    chunkStart = offset + 3;
                    chunkStartLine = lineNo;
                }
            }
            if (nl < 0) {
                break;
            }
            offset = nl + 1;
        }
        add(documents, text.substring(Math.min(chunkStart, text.length())), chunkStart, chunkStartLine);
        return documents;
    }

    private static void add(List<Document> documents, String chunk, int start, int startLine) {
        if (chunk.isBlank()) {
            return;
        }
        if (isBlank(chunk)) {
            documents.add(new Document(-1, startLine, start, chunk, null, null));
            return;
        }
        int index = (int) documents.stream().filter(d -> !d.blank()).count();
        LoadSettings settings = LoadSettings.builder()
                .setMaxAliasesForCollections(MAX_ALIASES)
                .setCodePointLimit(MAX_CODE_POINTS)
                .setAllowDuplicateKeys(true)
                .setUseMarks(true)
                .build();
        try {
            Optional<Node> root = new Compose(settings).composeString(chunk);
            documents.add(new Document(index, startLine, start, chunk, root.orElse(null), null));
        } catch (MarkedYamlEngineException e) {
            Optional<Mark> mark = e.getProblemMark().or(e::getContextMark);
            int line = mark.map(m -> m.getLine() + startLine).orElse(startLine);
            int column = mark.map(m -> m.getColumn() + 1).orElse(1);
            String problem = e.getProblem() == null ? "" : e.getProblem();
            String context = e.getContext() == null
                    ? ""
                    : e.getContext()
                            + e.getContextMark()
                                    .map(m -> " (from line " + (m.getLine() + startLine) + ")")
                                    .orElse("") + ": ";
            documents.add(new Document(
                    index,
                    startLine,
                    start,
                    chunk,
                    null,
                    new ParseError(line, column, "invalid YAML: " + context + problem)));
        } catch (YamlEngineException e) {
            documents.add(new Document(
                    index,
                    startLine,
                    start,
                    chunk,
                    null,
                    new ParseError(startLine, 1, "invalid YAML: " + e.getMessage())));
        }
    }

    /** True when the text holds nothing but whitespace and comments. */
    static boolean isBlank(String chunk) {
        for (String line : chunk.split("\n", -1)) {
            String t = line.strip();
            if (!t.isEmpty() && !t.startsWith("#")) {
                return false;
            }
        }
        return true;
    }
}
