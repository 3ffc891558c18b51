package io.dra4j.scenario;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Label keys and values as k8s.io/apimachinery pkg/api/validate/content checks them (IsLabelKey, IsLabelValue): the
 * messages of each failed rule, empty when the value is valid.
 */
final class LabelSyntax {
    private static final String KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String KEY_MSG =
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and "
                    + "end with an alphanumeric character";
    private static final String VALUE_FMT = "(" + KEY_FMT + ")?";
    private static final String VALUE_MSG =
            "a valid label must be an empty string or consist of alphanumeric characters, "
                    + "'-', '_' or '.', and must start and end with an alphanumeric character";
    private static final Pattern KEY = Pattern.compile(KEY_FMT);
    private static final Pattern VALUE = Pattern.compile(VALUE_FMT);
    private static final Pattern SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final String SUBDOMAIN_MSG =
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                    + "characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final int MAX = 63;

    private LabelSyntax() {}

    /** IsLabelKey: an optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
    static List<String> key(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            String prefix = parts[0];
            name = parts[1];
            if (prefix.isEmpty()) {
                errs.add("prefix part must be non-empty");
            } else {
                if (bytes(prefix) > 253) {
                    errs.add("prefix part must be no more than 253 bytes");
                }
                if (!SUBDOMAIN.matcher(prefix).matches()) {
                    errs.add("prefix part " + regex(SUBDOMAIN_MSG, SUBDOMAIN.pattern(), "example.com"));
                }
            }
        } else {
            errs.add("a valid label key " + regex(KEY_MSG, KEY_FMT, "MyName", "my.name", "123-abc")
                    + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errs;
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (bytes(name) > MAX) {
            errs.add("name part must be no more than " + MAX + " bytes");
        }
        if (!KEY.matcher(name).matches()) {
            errs.add("name part " + regex(KEY_MSG, KEY_FMT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }

    /** IsLabelValue: empty, or at most 63 characters of a label key's name syntax. */
    static List<String> value(String value) {
        List<String> errs = new ArrayList<>();
        if (bytes(value) > MAX) {
            errs.add("must be no more than " + MAX + " bytes");
        }
        if (!VALUE.matcher(value).matches()) {
            errs.add(regex(VALUE_MSG, VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errs;
    }

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** content.RegexError. */
    private static String regex(String msg, String re, String... examples) {
        StringBuilder b = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            b.append(i > 0 ? " or " : "").append('\'').append(examples[i]).append("', ");
        }
        return b.append("regex used for validation is '")
                .append(re)
                .append("')")
                .toString();
    }
}
