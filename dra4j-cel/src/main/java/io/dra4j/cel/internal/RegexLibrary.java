package io.dra4j.cel.internal;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Upstream's {@code kubernetes.regex} library: {@code find} and {@code findAll} with RE2 syntax (regex.go). */
public final class RegexLibrary extends LibrarySupport {

    public RegexLibrary() {
        super(
                "kubernetes.regex",
                List.of(
                        Function.of(
                                newFunctionDeclaration(
                                        "find",
                                        newMemberOverload(
                                                "string_find_string",
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.STRING)),
                                CelFunctionBinding.from(
                                        "string_find_string", String.class, String.class, RegexLibrary::find)),
                        Function.of(
                                newFunctionDeclaration(
                                        "findAll",
                                        newMemberOverload(
                                                "string_find_all_string",
                                                ListType.create(SimpleType.STRING),
                                                SimpleType.STRING,
                                                SimpleType.STRING),
                                        newMemberOverload(
                                                "string_find_all_string_int",
                                                ListType.create(SimpleType.STRING),
                                                SimpleType.STRING,
                                                SimpleType.STRING,
                                                SimpleType.INT)),
                                CelFunctionBinding.from(
                                        "string_find_all_string",
                                        String.class,
                                        String.class,
                                        (s, re) -> findAll(s, re, -1)),
                                CelFunctionBinding.from(
                                        "string_find_all_string_int",
                                        List.of(String.class, String.class, Long.class),
                                        args -> findAll((String) args[0], (String) args[1], (Long) args[2])))));
    }

    /**
     * Compiles with RE2 syntax; errors carry Go's wording ({@code error parsing regexp: <what>: `<where>`}). Not
     * cached: selector results are kept per device, so an expression runs (and compiles its patterns) once per device.
     */
    static Pattern compile(String regex) throws CelEvaluationException {
        try {
            return goCompile(regex);
        } catch (PatternSyntaxException e) {
            throw error("Illegal regex: " + goText(e));
        }
    }

    /** Go's regexp.Compile error text for a pattern it rejects, or empty where it compiles. */
    static Optional<String> goSyntaxError(String regex) {
        try {
            goCompile(regex);
            return Optional.empty();
        } catch (PatternSyntaxException e) {
            return Optional.of(goText(e));
        }
    }

    private static Pattern goCompile(String regex) {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            if (e.getDescription().startsWith("duplicate capture group name")) {
                // Go accepts repeated group names; only the whole match is used here, so drop the names.
                return Pattern.compile(withoutGroupNames(regex));
            }
            throw e;
        }
    }

    private static String goText(PatternSyntaxException e) {
        String where = e.getPattern() == null ? "" : e.getPattern();
        return "error parsing regexp: " + e.getDescription() + ": `" + where + "`";
    }

    /** Turns {@code (?P<name>} and {@code (?<name>} outside character classes into non-capturing groups. */
    private static String withoutGroupNames(String regex) {
        StringBuilder out = new StringBuilder(regex.length());
        boolean inClass = false;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                out.append(c).append(regex.charAt(++i));
                continue;
            }
            if (inClass) {
                inClass = c != ']';
                out.append(c);
                continue;
            }
            if (c == '[') {
                inClass = true;
                out.append(c);
                if (i + 1 < regex.length() && regex.charAt(i + 1) == '^') {
                    out.append(regex.charAt(++i));
                }
                if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
                    out.append(regex.charAt(++i));
                }
                continue;
            }
            int nameStart = regex.startsWith("(?P<", i) ? i + 4 : regex.startsWith("(?<", i) ? i + 3 : -1;
            int close = nameStart < 0 ? -1 : regex.indexOf('>', nameStart);
            if (close > 0) {
                out.append("(?:");
                i = close;
                continue;
            }
            out.append(c);
        }
        return out.toString();
    }

    private static String find(String str, String regex) throws CelEvaluationException {
        Matcher m = compile(regex).matcher(str);
        return m.find() ? m.group() : "";
    }

    /**
     * Go's FindAllString: successive non-overlapping matches, at most n (all when n is negative); an empty match
     * directly after the previous match is skipped, and after an empty match the search moves on one character.
     */
    private static List<String> findAll(String str, String regex, long n) throws CelEvaluationException {
        Pattern pattern = compile(regex);
        long limit = n < 0 ? (long) str.length() + 1 : n;
        List<String> out = new ArrayList<>();
        Matcher m = pattern.matcher(str);
        int pos = 0;
        int prevMatchEnd = -1;
        while (out.size() < limit && pos <= str.length()) {
            if (!m.find(pos)) {
                break;
            }
            boolean accept = true;
            if (m.end() == pos) {
                if (m.start() == prevMatchEnd) {
                    accept = false;
                }
                pos += pos < str.length() ? Character.charCount(str.codePointAt(pos)) : 1;
            } else {
                pos = m.end();
            }
            prevMatchEnd = m.end();
            if (accept) {
                out.add(m.group());
            }
        }
        return out;
    }
}
