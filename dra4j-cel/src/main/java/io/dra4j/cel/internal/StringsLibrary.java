package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;

/**
 * cel-go's string extension at version 2 ({@code ext.Strings(ext.StringsVersion(2))}), as the Kubernetes base
 * environment declares it: same functions, overload ids, semantics and error texts. It replaces cel-java's
 * {@code CelExtensions.strings()}, whose results and errors differ (for example {@code indexOf} with an offset
 * past the end, or the error wording) and which adds {@code reverse}, absent upstream at this version. The
 * {@code format} function lives in {@link StringFormatLibrary}. Strings are indexed by code point, as upstream
 * indexes runes.
 */
public final class StringsLibrary extends LibrarySupport {

    public StringsLibrary() {
        super(
                "cel.lib.ext.strings",
                List.of(
                        Function.of(
                                newFunctionDeclaration(
                                        "charAt",
                                        newMemberOverload(
                                                "string_char_at_int",
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.INT)),
                                CelFunctionBinding.from(
                                        "string_char_at_int", String.class, Long.class, StringsLibrary::charAt)),
                        Function.of(
                                newFunctionDeclaration(
                                        "indexOf",
                                        newMemberOverload(
                                                "string_index_of_string",
                                                SimpleType.INT,
                                                SimpleType.STRING,
                                                SimpleType.STRING),
                                        newMemberOverload(
                                                "string_index_of_string_int",
                                                SimpleType.INT,
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.INT)),
                                CelFunctionBinding.from(
                                        "string_index_of_string",
                                        String.class,
                                        String.class,
                                        (s, sub) -> indexOf(s, sub, 0)),
                                CelFunctionBinding.from(
                                        "string_index_of_string_int",
                                        List.of(String.class, String.class, Long.class),
                                        a -> indexOf((String) a[0], (String) a[1], (Long) a[2]))),
                        Function.of(
                                newFunctionDeclaration(
                                        "lastIndexOf",
                                        newMemberOverload(
                                                "string_last_index_of_string",
                                                SimpleType.INT,
                                                SimpleType.STRING,
                                                SimpleType.STRING),
                                        newMemberOverload(
                                                "string_last_index_of_string_int",
                                                SimpleType.INT,
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.INT)),
                                CelFunctionBinding.from(
                                        "string_last_index_of_string",
                                        String.class,
                                        String.class,
                                        StringsLibrary::lastIndexOf),
                                CelFunctionBinding.from(
                                        "string_last_index_of_string_int",
                                        List.of(String.class, String.class, Long.class),
                                        a -> lastIndexOf((String) a[0], (String) a[1], (Long) a[2]))),
                        Function.of(
                                newFunctionDeclaration(
                                        "lowerAscii",
                                        newMemberOverload("string_lower_ascii", SimpleType.STRING, SimpleType.STRING)),
                                CelFunctionBinding.from("string_lower_ascii", String.class, s -> mapAscii(s, true))),
                        Function.of(
                                newFunctionDeclaration(
                                        "upperAscii",
                                        newMemberOverload("string_upper_ascii", SimpleType.STRING, SimpleType.STRING)),
                                CelFunctionBinding.from("string_upper_ascii", String.class, s -> mapAscii(s, false))),
                        Function.of(
                                newFunctionDeclaration(
                                        "replace",
                                        newMemberOverload(
                                                "string_replace_string_string",
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.STRING),
                                        newMemberOverload(
                                                "string_replace_string_string_int",
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.INT)),
                                CelFunctionBinding.from(
                                        "string_replace_string_string",
                                        List.of(String.class, String.class, String.class),
                                        a -> replace((String) a[0], (String) a[1], (String) a[2], -1)),
                                CelFunctionBinding.from(
                                        "string_replace_string_string_int",
                                        List.of(String.class, String.class, String.class, Long.class),
                                        a -> replace((String) a[0], (String) a[1], (String) a[2], (Long) a[3]))),
                        Function.of(
                                newFunctionDeclaration(
                                        "split",
                                        newMemberOverload(
                                                "string_split_string",
                                                ListType.create(SimpleType.STRING),
                                                SimpleType.STRING,
                                                SimpleType.STRING),
                                        newMemberOverload(
                                                "string_split_string_int",
                                                ListType.create(SimpleType.STRING),
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.INT)),
                                CelFunctionBinding.from(
                                        "string_split_string",
                                        String.class,
                                        String.class,
                                        (s, sep) -> split(s, sep, -1)),
                                CelFunctionBinding.from(
                                        "string_split_string_int",
                                        List.of(String.class, String.class, Long.class),
                                        a -> split((String) a[0], (String) a[1], (Long) a[2]))),
                        Function.of(
                                newFunctionDeclaration(
                                        "substring",
                                        newMemberOverload(
                                                "string_substring_int",
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.INT),
                                        newMemberOverload(
                                                "string_substring_int_int",
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.INT,
                                                SimpleType.INT)),
                                CelFunctionBinding.from(
                                        "string_substring_int", String.class, Long.class, StringsLibrary::substring),
                                CelFunctionBinding.from(
                                        "string_substring_int_int",
                                        List.of(String.class, Long.class, Long.class),
                                        a -> substring((String) a[0], (Long) a[1], (Long) a[2]))),
                        Function.of(
                                newFunctionDeclaration(
                                        "trim", newMemberOverload("string_trim", SimpleType.STRING, SimpleType.STRING)),
                                CelFunctionBinding.from("string_trim", String.class, StringsLibrary::trimSpace)),
                        Function.of(
                                newFunctionDeclaration(
                                        "strings.quote",
                                        newGlobalOverload("strings_quote", SimpleType.STRING, SimpleType.STRING)),
                                CelFunctionBinding.from("strings_quote", String.class, StringsLibrary::quote)),
                        Function.of(
                                newFunctionDeclaration(
                                        "join",
                                        newMemberOverload(
                                                "list_join", SimpleType.STRING, ListType.create(SimpleType.STRING)),
                                        newMemberOverload(
                                                "list_join_string",
                                                SimpleType.STRING,
                                                ListType.create(SimpleType.STRING),
                                                SimpleType.STRING)),
                                CelFunctionBinding.from("list_join", List.class, l -> join(l, "")),
                                CelFunctionBinding.from(
                                        "list_join_string", List.class, String.class, StringsLibrary::join))));
    }

    private static int[] runes(String s) {
        return s.codePoints().toArray();
    }

    private static String text(int[] runes, int from, int to) {
        return new String(runes, from, to - from);
    }

    private static String charAt(String str, long index) throws CelEvaluationException {
        int[] runes = runes(str);
        if (index < 0 || index > runes.length) {
            throw error("index out of range: " + index);
        }
        return index == runes.length ? "" : text(runes, (int) index, (int) index + 1);
    }

    private static long indexOf(String str, String sub, long offset) throws CelEvaluationException {
        if (offset < 0) {
            throw error("index out of range: " + offset);
        }
        int[] runes = runes(str);
        if (sub.isEmpty()) {
            return Math.min(offset, runes.length);
        }
        int[] subRunes = runes(sub);
        if (offset >= runes.length) {
            return -1;
        }
        for (int i = (int) offset; i < runes.length - (subRunes.length - 1); i++) {
            if (matchesAt(runes, subRunes, i)) {
                return i;
            }
        }
        return -1;
    }

    /** Without an offset upstream compares byte lengths first, then searches from the last rune. */
    private static long lastIndexOf(String str, String sub) throws CelEvaluationException {
        int[] runes = runes(str);
        if (sub.isEmpty()) {
            return runes.length;
        }
        if (utf8Length(str) < utf8Length(sub)) {
            return -1;
        }
        return lastIndexOf(str, sub, runes.length - 1L);
    }

    private static long lastIndexOf(String str, String sub, long offset) throws CelEvaluationException {
        if (offset < 0) {
            throw error("index out of range: " + offset);
        }
        int[] runes = runes(str);
        if (sub.isEmpty()) {
            return Math.min(offset, runes.length);
        }
        int[] subRunes = runes(sub);
        if (offset >= runes.length) {
            return -1;
        }
        long start = Math.min(offset, (long) runes.length - subRunes.length);
        for (long i = start; i >= 0; i--) {
            if (matchesAt(runes, subRunes, (int) i)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean matchesAt(int[] runes, int[] sub, int at) {
        for (int j = 0; j < sub.length; j++) {
            if (runes[at + j] != sub[j]) {
                return false;
            }
        }
        return true;
    }

    private static int utf8Length(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    private static String mapAscii(String s, boolean lower) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            if (lower && cp >= 'A' && cp <= 'Z') {
                b.append((char) (cp + 32));
            } else if (!lower && cp >= 'a' && cp <= 'z') {
                b.append((char) (cp - 32));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }

    /** Go's strings.Replace: at most n replacements (all when n is negative); "" matches between runes. */
    private static String replace(String s, String old, String replacement, long n) {
        if (n == 0 || old.equals(replacement)) {
            return s;
        }
        StringBuilder b = new StringBuilder();
        long done = 0;
        if (old.isEmpty()) {
            int[] runes = runes(s);
            for (int i = 0; i <= runes.length; i++) {
                if (n < 0 || done < n) {
                    b.append(replacement);
                    done++;
                }
                if (i < runes.length) {
                    b.appendCodePoint(runes[i]);
                }
            }
            return b.toString();
        }
        int from = 0;
        while (n < 0 || done < n) {
            int at = s.indexOf(old, from);
            if (at < 0) {
                break;
            }
            b.append(s, from, at).append(replacement);
            from = at + old.length();
            done++;
        }
        return b.append(s.substring(from)).toString();
    }

    /** Go's strings.SplitN: n == 0 gives no parts, n < 0 all parts; "" splits into runes. */
    private static List<String> split(String s, String sep, long n) {
        List<String> out = new ArrayList<>();
        if (n == 0) {
            return out;
        }
        if (sep.isEmpty()) {
            int[] runes = runes(s);
            long limit = n < 0 || n > runes.length ? runes.length : n;
            for (int i = 0; i < limit - 1; i++) {
                out.add(text(runes, i, i + 1));
            }
            if (limit > 0) {
                out.add(text(runes, (int) limit - 1, runes.length));
            }
            return out;
        }
        int from = 0;
        while (n < 0 || out.size() < n - 1) {
            int at = s.indexOf(sep, from);
            if (at < 0) {
                break;
            }
            out.add(s.substring(from, at));
            from = at + sep.length();
        }
        out.add(s.substring(from));
        return out;
    }

    private static String substring(String str, long start) throws CelEvaluationException {
        int[] runes = runes(str);
        if (start < 0 || start > runes.length) {
            throw error("index out of range: " + start);
        }
        return text(runes, (int) start, runes.length);
    }

    private static String substring(String str, long start, long end) throws CelEvaluationException {
        int[] runes = runes(str);
        if (start > end) {
            throw error("invalid substring range. start: " + start + ", end: " + end);
        }
        if (start < 0 || start > runes.length) {
            throw error("index out of range: " + start);
        }
        if (end < 0 || end > runes.length) {
            throw error("index out of range: " + end);
        }
        return text(runes, (int) start, (int) end);
    }

    /** Go's strings.TrimSpace: Unicode White_Space at both ends. */
    private static String trimSpace(String s) {
        int[] runes = runes(s);
        int start = 0;
        int end = runes.length;
        while (start < end && isGoSpace(runes[start])) {
            start++;
        }
        while (end > start && isGoSpace(runes[end - 1])) {
            end--;
        }
        return text(runes, start, end);
    }

    private static boolean isGoSpace(int r) {
        switch (r) {
            case '\t', '\n', 0x0B, '\f', '\r', ' ', 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
                return true;
            default:
                return r >= 0x2000 && r <= 0x200A;
        }
    }

    /** Upstream's strings.quote: escapes only the C escapes, backslash and double quote. */
    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (cp) {
                case 0x07 -> b.append("\\a");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case 0x0B -> b.append("\\v");
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                default -> b.appendCodePoint(Character.isSurrogate((char) cp) ? 0xFFFD : cp);
            }
        }
        return b.append('"').toString();
    }

    private static String join(List<?> list, String separator) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < list.size(); i++) {
            if (i > 0) {
                b.append(separator);
            }
            b.append((String) list.get(i));
        }
        return b.toString();
    }
}
