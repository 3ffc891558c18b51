package io.dra4j.cel.internal;

/** Go's {@code %q} / strconv.Quote for the strings that appear in upstream error messages. */
public final class GoQuote {

    private GoQuote() {}

    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> appendRune(b, cp));
        return b.append('"').toString();
    }

    private static void appendRune(StringBuilder b, int cp) {
        switch (cp) {
            case '"' -> b.append("\\\"");
            case '\\' -> b.append("\\\\");
            case 0x07 -> b.append("\\a");
            case '\b' -> b.append("\\b");
            case '\f' -> b.append("\\f");
            case '\n' -> b.append("\\n");
            case '\r' -> b.append("\\r");
            case '\t' -> b.append("\\t");
            case 0x0B -> b.append("\\v");
            default -> {
                if (isPrintable(cp)) {
                    b.appendCodePoint(cp);
                } else if (cp < 0x80) {
                    b.append(String.format("\\x%02x", cp));
                } else if (cp <= 0xFFFF) {
                    b.append(String.format("\\u%04x", cp));
                } else {
                    b.append(String.format("\\U%08x", cp));
                }
            }
        }
    }

    /** Approximates Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    private static boolean isPrintable(int cp) {
        if (cp == ' ') {
            return true;
        }
        switch (Character.getType(cp)) {
            case Character.UNASSIGNED,
                    Character.CONTROL,
                    Character.FORMAT,
                    Character.PRIVATE_USE,
                    Character.SURROGATE,
                    Character.SPACE_SEPARATOR,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR -> {
                return false;
            }
            default -> {
                return true;
            }
        }
    }
}
