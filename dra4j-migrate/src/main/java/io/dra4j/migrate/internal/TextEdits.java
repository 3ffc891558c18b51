package io.dra4j.migrate.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Edits to one document's text, spliced in at the positions the YAML parser reported, so that everything not edited
 * stays byte for byte (comments, key order, quoting, indentation). Positions are char offsets into the document
 * text; the parser's marks count code points and are converted here.
 */
public final class TextEdits {
    private record Edit(int start, int end, String text, int order) {}

    private final String text;
    private final List<Edit> edits = new ArrayList<>();

    public TextEdits(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    public boolean isEmpty() {
        return edits.isEmpty();
    }

    /** Char offset of a node's start. */
    public int start(Node node) {
        return offset(node.getStartMark().orElseThrow().getIndex());
    }

    /** Char offset of a node's end. */
    public int end(Node node) {
        return offset(node.getEndMark().orElseThrow().getIndex());
    }

    private int offset(int codePoints) {
        return text.offsetByCodePoints(0, Math.min(codePoints, text.codePointCount(0, text.length())));
    }

    /** Offset of the start of the line holding {@code offset}. */
    public int lineStart(int offset) {
        return text.lastIndexOf('\n', offset - 1) + 1;
    }

    /** Offset just after the newline ending the line that holds {@code offset} (or the text's end). */
    public int nextLine(int offset) {
        int nl = text.indexOf('\n', offset);
        return nl < 0 ? text.length() : nl + 1;
    }

    /**
     * Where a block node's text really ends: the parser puts the end of a block collection at the next token, so
     * when only indentation precedes it on its line the node ended with the line before; a scalar ends mid-line and
     * takes the rest of its line (a trailing comment) with it.
     */
    public int blockEnd(Node node) {
        int end = end(node);
        int ls = lineStart(end);
        if (text.substring(ls, end).isBlank()) {
            return ls;
        }
        return nextLine(end);
    }

    /** The column (0-based) where a node starts. */
    public int column(Node node) {
        return node.getStartMark().orElseThrow().getColumn();
    }

    public void replace(int start, int end, String replacement) {
        edits.add(new Edit(start, end, replacement, edits.size()));
    }

    public void insert(int at, String insertion) {
        replace(at, at, insertion);
    }

    /** The text with every edit applied; edits must not overlap. */
    public String apply() {
        List<Edit> sorted = new ArrayList<>(edits);
        sorted.sort(
                Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end).thenComparingInt(Edit::order));
        StringBuilder sb = new StringBuilder();
        int at = 0;
        for (Edit e : sorted) {
            if (e.start() < at) {
                throw new IllegalStateException("overlapping edits at " + e.start());
            }
            sb.append(text, at, e.start()).append(e.text());
            at = e.end();
        }
        sb.append(text, at, text.length());
        return sb.toString();
    }
}
