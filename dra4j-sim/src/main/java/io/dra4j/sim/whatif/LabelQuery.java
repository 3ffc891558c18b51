package io.dra4j.sim.whatif;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A label selector in kubectl's {@code -l} syntax: comma-separated requirements {@code key=value},
 * {@code key==value}, {@code key!=value}, {@code key}, {@code !key}, {@code key in (a,b)}, {@code key notin (a,b)};
 * all must hold.
 */
public record LabelQuery(String text, List<Predicate<Map<String, String>>> requirements)
        implements Predicate<Map<String, String>> {
    private static final Pattern SET = Pattern.compile("\\s*([^\\s!=(),]+)\\s+(in|notin)\\s+\\(([^)]*)\\)\\s*");
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?");

    public LabelQuery {
        requirements = List.copyOf(requirements);
    }

    /** @throws IllegalArgumentException naming the requirement that does not parse */
    public static LabelQuery parse(String text) {
        List<Predicate<Map<String, String>>> out = new ArrayList<>();
        for (String part : split(text)) {
            String r = part.trim();
            Matcher set = SET.matcher(r);
            if (set.matches()) {
                Set<String> values = Set.copyOf(
                        Arrays.stream(set.group(3).split(",")).map(String::trim).toList());
                String key = key(set.group(1), text);
                boolean in = set.group(2).equals("in");
                out.add(l -> l.containsKey(key) ? values.contains(l.get(key)) == in : !in);
            } else if (r.startsWith("!")) {
                String key = key(r.substring(1).trim(), text);
                out.add(l -> !l.containsKey(key));
            } else if (r.contains("!=")) {
                String key = key(r.substring(0, r.indexOf("!=")).trim(), text);
                String value = r.substring(r.indexOf("!=") + 2).trim();
                out.add(l -> !value.equals(l.get(key)));
            } else if (r.contains("=")) {
                int eq = r.indexOf('=');
                String key = key(r.substring(0, eq).trim(), text);
                String value =
                        r.substring(r.startsWith("==", eq) ? eq + 2 : eq + 1).trim();
                out.add(l -> value.equals(l.get(key)));
            } else {
                String key = key(r, text);
                out.add(l -> l.containsKey(key));
            }
        }
        return new LabelQuery(text, out);
    }

    @Override
    public boolean test(Map<String, String> labels) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        return requirements.stream().allMatch(r -> r.test(l));
    }

    private static String key(String key, String text) {
        if (!KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("label selector \"" + text + "\": invalid label key \"" + key + "\"");
        }
        return key;
    }

    /** Splits at commas outside parentheses. */
    private static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        out.add(text.substring(start));
        if (out.stream().anyMatch(s -> s.isBlank())) {
            throw new IllegalArgumentException("label selector \"" + text + "\": empty requirement");
        }
        return out;
    }
}
