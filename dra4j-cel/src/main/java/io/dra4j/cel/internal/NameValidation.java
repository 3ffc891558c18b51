package io.dra4j.cel.internal;

import com.google.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The string validators behind the Kubernetes CEL named formats, with upstream's messages
 * (k8s.io/apimachinery util/validation and api/validate/content, kube-openapi strfmt). Each returns the list of
 * problems, empty when the value is valid.
 */
final class NameValidation {

    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String LABEL_VALUE_FMT = "(" + LABEL_KEY_FMT + ")?";

    private static final Pattern DNS1123_LABEL = anchored(DNS1123_LABEL_FMT);
    private static final Pattern DNS1123_SUBDOMAIN = anchored(DNS1123_SUBDOMAIN_FMT);
    private static final Pattern DNS1035_LABEL = anchored(DNS1035_LABEL_FMT);
    private static final Pattern LABEL_KEY = anchored(LABEL_KEY_FMT);
    private static final Pattern LABEL_VALUE = anchored(LABEL_VALUE_FMT);
    static final String UUID_PATTERN = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$";
    private static final Pattern UUID = Pattern.compile(UUID_PATTERN);
    private static final Pattern BASE64 =
            Pattern.compile("^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$");
    static final String DATE_TIME_PATTERN = "^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$";
    private static final Pattern DATE_TIME = Pattern.compile(DATE_TIME_PATTERN);
    private static final DateTimeFormatter FULL_DATE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd", Locale.ROOT).withResolverStyle(ResolverStyle.STRICT);

    private NameValidation() {}

    private static Pattern anchored(String fmt) {
        return Pattern.compile("^" + fmt + "$");
    }

    private static int byteLength(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static String regexError(String msg, String fmt, String... examples) {
        StringBuilder b = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                b.append(" or ");
            }
            b.append('\'').append(examples[i]).append("', ");
        }
        return b.append("regex used for validation is '")
                .append(fmt)
                .append("')")
                .toString();
    }

    /** A generated-name prefix may end in '-': upstream replaces the last two characters by "a" before checking. */
    static String maskTrailingDash(String name) {
        if (name.length() > 1 && name.endsWith("-")) {
            return name.substring(0, name.length() - 2) + "a";
        }
        return name;
    }

    static List<String> dns1123Label(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > 63) {
            errs.add("must be no more than 63 characters");
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            if (DNS1123_SUBDOMAIN.matcher(value).matches()) {
                errs.add("must not contain dots");
            } else {
                errs.add(regexError(
                        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters"
                                + " or '-', and must start and end with an alphanumeric character",
                        DNS1123_LABEL_FMT,
                        "my-name",
                        "123-abc"));
            }
        }
        return errs;
    }

    static List<String> dns1123Subdomain(String value) {
        return dns1123Subdomain(value, "characters");
    }

    private static List<String> dns1123Subdomain(String value, String unit) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > 253) {
            errs.add("must be no more than 253 " + unit);
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errs.add(regexError(
                    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
                            + " '-' or '.', and must start and end with an alphanumeric character",
                    DNS1123_SUBDOMAIN_FMT,
                    "example.com"));
        }
        return errs;
    }

    static List<String> dns1035Label(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > 63) {
            errs.add("must be no more than 63 characters");
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            errs.add(regexError(
                    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start"
                            + " with an alphabetic character, and end with an alphanumeric character",
                    DNS1035_LABEL_FMT,
                    "my-name",
                    "abc-123"));
        }
        return errs;
    }

    /** A label key / qualified name: optional DNS subdomain prefix and '/', then a name of at most 63 bytes. */
    static List<String> qualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String labelKeyMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with"
                + " an alphanumeric character";
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errs.add("prefix part must be non-empty");
                } else {
                    for (String m : dns1123Subdomain(prefix, "bytes")) {
                        errs.add("prefix part " + m);
                    }
                }
            }
            default -> {
                errs.add("a valid label key " + regexError(labelKeyMsg, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return errs;
            }
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (byteLength(name) > 63) {
            errs.add("name part must be no more than 63 bytes");
        }
        if (!LABEL_KEY.matcher(name).matches()) {
            errs.add("name part " + regexError(labelKeyMsg, LABEL_KEY_FMT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }

    static List<String> labelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > 63) {
            errs.add("must be no more than 63 bytes");
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add(regexError(
                    "a valid label must be an empty string or consist of alphanumeric characters, '-',"
                            + " '_' or '.', and must start and end with an alphanumeric character",
                    LABEL_VALUE_FMT,
                    "MyValue",
                    "my_value",
                    "12345"));
        }
        return errs;
    }

    static List<String> uri(String value) {
        try {
            GoUrl.parseRequestUri(value);
            return List.of();
        } catch (GoUrl.UrlException e) {
            return List.of(e.getMessage());
        }
    }

    static List<String> uuid(String value) {
        return UUID.matcher(value).find() ? List.of() : List.of("does not match the UUID format");
    }

    static List<String> base64(String value) {
        return BASE64.matcher(value).find() ? List.of() : List.of("invalid base64");
    }

    static List<String> date(String value) {
        return isDate(value) ? List.of() : List.of("invalid date");
    }

    static List<String> dateTime(String value) {
        return isDateTime(value) ? List.of() : List.of("invalid datetime");
    }

    /** Go's time.Parse("2006-01-02", s): four-digit year, two-digit month and day, real calendar date. */
    private static boolean isDate(String s) {
        if (!s.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}")) {
            return false;
        }
        try {
            LocalDate.parse(s, FULL_DATE);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    /** kube-openapi's IsDateTime: a date, 't', then a time matched by DateTimePattern within range. */
    private static boolean isDateTime(String str) {
        if (byteLength(str) < 4) {
            return false;
        }
        String[] s = str.toLowerCase(Locale.ROOT).split("t", -1);
        if (s.length < 2 || !isDate(s[0])) {
            return false;
        }
        com.google.re2j.Matcher m = DATE_TIME.matcher(s[1]);
        if (!m.find()) {
            return false;
        }
        return m.group(1).compareTo("23") <= 0
                && m.group(2).compareTo("59") <= 0
                && m.group(3).compareTo("59") <= 0;
    }
}
