package io.dra4j.allocator.internal;

import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.Semver;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A device selector of a common shape, decided in plain Java where CEL's answer is certain: a conjunction
 * ({@code &&}) of driver equality, scalar attribute equality with a string, int or bool literal, a version
 * attribute's {@code major()}/{@code minor()}/{@code patch()} compared with an int, and a capacity compared with a
 * {@code quantity("...")} literal through {@code compareTo(...) OP n}, {@code isGreaterThan} or {@code isLessThan}.
 *
 * <p>{@link #decide} answers only when every term is decided: the attribute or capacity exists with the literal's
 * type, no list form, the literal quantity parses. Then CEL evaluates each term to a boolean without error and far
 * below the cost limit, so the conjunction's value is the answer and nothing else is observable. In every other case
 * it returns null and the caller evaluates the expression with the CEL interpreter, whose result, error text and cost
 * are then upstream's. The caller must have checked that the expression compiles and that the device's CEL view can
 * be built.
 */
final class FastSelector {
    private static final Set<String> RESERVED = Set.of(
            "in",
            "as",
            "break",
            "const",
            "continue",
            "else",
            "for",
            "function",
            "if",
            "import",
            "let",
            "loop",
            "package",
            "namespace",
            "return",
            "var",
            "void",
            "while",
            "true",
            "false",
            "null");

    private final List<Term> terms;

    private FastSelector(List<Term> terms) {
        this.terms = terms;
    }

    /** CEL's value of the expression on the device, or null when it is not certain without the interpreter. */
    Boolean decide(DeviceInfo d) {
        boolean all = true;
        for (Term t : terms) {
            Boolean b = t.decide(d);
            if (b == null) {
                return null;
            }
            all &= b;
        }
        return all;
    }

    /** One conjunct. */
    private sealed interface Term {
        Boolean decide(DeviceInfo d);
    }

    private record DriverEquals(String driver) implements Term {
        @Override
        public Boolean decide(DeviceInfo d) {
            return driver.equals(d.id.driver());
        }
    }

    /** {@code device.attributes["domain"].id == literal} (or {@code !=}) with a String, Long or Boolean literal. */
    private record AttributeEquals(String domain, String id, boolean negated, Object literal) implements Term {
        @Override
        public Boolean decide(DeviceInfo d) {
            Object value = scalar(attribute(d, domain, id));
            if (value == null || value.getClass() != literal.getClass()) {
                return null;
            }
            return value.equals(literal) != negated;
        }
    }

    /** {@code device.attributes["domain"].id.major() OP n} and minor/patch. */
    private record VersionPart(String domain, String id, String part, String op, long n) implements Term {
        @Override
        public Boolean decide(DeviceInfo d) {
            if (!(scalar(attribute(d, domain, id)) instanceof Semver v)) {
                return null;
            }
            long x = switch (part) {
                case "major" -> v.major();
                case "minor" -> v.minor();
                default -> v.patch();
            };
            return compare(Long.compare(x, n), op);
        }
    }

    /** {@code device.capacity["domain"].id.compareTo(quantity(q)) OP n}, {@code isGreaterThan}, {@code isLessThan}. */
    private record CapacityCompare(String domain, String id, String form, KubeQuantity literal, String op, long n)
            implements Term {
        @Override
        public Boolean decide(DeviceInfo d) {
            DeviceInfo.CapacityInfo cap = capacity(d, domain, id);
            if (cap == null || cap.value() == null) {
                return null;
            }
            int sign = Integer.signum(cap.value().compareTo(literal));
            return switch (form) {
                case "isGreaterThan" -> sign > 0;
                case "isLessThan" -> sign < 0;
                default -> compare(Long.compare(sign, n), op);
            };
        }
    }

    private static boolean compare(int c, String op) {
        return switch (op) {
            case "==" -> c == 0;
            case "!=" -> c != 0;
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            default -> c >= 0;
        };
    }

    /**
     * The attribute CEL finds under (domain, id): the fully qualified name wins over the short one, which belongs to
     * the driver's domain (as the device's CEL view files them).
     */
    private static DeviceAttribute attribute(DeviceInfo d, String domain, String id) {
        DeviceAttribute a = d.attributes.get(domain + "/" + id);
        if (a == null && domain.equals(d.id.driver())) {
            a = d.attributes.get(id);
        }
        return a;
    }

    private static DeviceInfo.CapacityInfo capacity(DeviceInfo d, String domain, String id) {
        DeviceInfo.CapacityInfo c = d.capacity.get(domain + "/" + id);
        if (c == null && domain.equals(d.id.driver())) {
            c = d.capacity.get(id);
        }
        return c;
    }

    /** The attribute's CEL value when it is a scalar (in the view's order of precedence), else null. */
    private static Object scalar(DeviceAttribute a) {
        if (a == null || set(a.getInts()) || set(a.getBools()) || set(a.getStrings()) || set(a.getVersions())) {
            return null;
        }
        if (a.getInt() != null) {
            return a.getInt();
        }
        if (a.getBool() != null) {
            return a.getBool();
        }
        if (a.getString() != null) {
            return a.getString();
        }
        if (a.getVersion() != null) {
            try {
                return Semver.parse(a.getVersion());
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return null;
    }

    private static boolean set(List<?> l) {
        return l != null && !l.isEmpty();
    }

    // Phase: parsing. A small recursive-descent reader over the exact shapes above; anything else (other operators,
    // escapes in strings, parentheses, index syntax for names, reserved words) is not a fast selector.

    /** The fast form of the expression, or null when it is not one of the shapes. */
    static FastSelector parse(String expression) {
        Reader r = new Reader(expression);
        List<Term> terms = new ArrayList<>();
        do {
            Term t = r.term();
            if (t == null) {
                return null;
            }
            terms.add(t);
        } while (r.eat("&&"));
        r.skipSpace();
        return r.atEnd() ? new FastSelector(List.copyOf(terms)) : null;
    }

    private static final class Reader {
        private final String s;
        private int i;

        Reader(String s) {
            this.s = s;
        }

        boolean atEnd() {
            return i == s.length();
        }

        void skipSpace() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        boolean eat(String token) {
            skipSpace();
            if (s.startsWith(token, i)) {
                i += token.length();
                return true;
            }
            return false;
        }

        /** A keyword or identifier as a whole word. */
        boolean eatWord(String word) {
            skipSpace();
            int save = i;
            String w = ident();
            if (word.equals(w)) {
                return true;
            }
            i = save;
            return false;
        }

        String ident() {
            skipSpace();
            int start = i;
            if (i < s.length() && (Character.isLetter(s.charAt(i)) || s.charAt(i) == '_') && s.charAt(i) < 128) {
                i++;
                while (i < s.length()
                        && s.charAt(i) < 128
                        && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                    i++;
                }
                return s.substring(start, i);
            }
            return null;
        }

        /** A double- or single-quoted string without escapes. */
        String string() {
            skipSpace();
            if (i >= s.length() || (s.charAt(i) != '"' && s.charAt(i) != '\'')) {
                return null;
            }
            char q = s.charAt(i);
            if (s.startsWith("" + q + q + q, i)) {
                return null;
            }
            int end = s.indexOf(q, i + 1);
            if (end < 0) {
                return null;
            }
            String v = s.substring(i + 1, end);
            if (v.indexOf('\\') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
                return null;
            }
            i = end + 1;
            return v;
        }

        /** A non-negative decimal int literal that fits in an int64. */
        Long integer() {
            skipSpace();
            int start = i;
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            if (start == i
                    || i - start > 18
                    || (i < s.length()
                            && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.' || s.charAt(i) == '_'))) {
                return null;
            }
            if (i - start > 1 && s.charAt(start) == '0') {
                return null;
            }
            return Long.parseLong(s.substring(start, i));
        }

        String comparison() {
            skipSpace();
            for (String op : List.of("==", "!=", "<=", ">=", "<", ">")) {
                if (s.startsWith(op, i)) {
                    i += op.length();
                    return op;
                }
            }
            return null;
        }

        /** {@code name} of {@code .name}, not a reserved word. */
        String field() {
            if (!eat(".")) {
                return null;
            }
            String id = ident();
            return id == null || RESERVED.contains(id) ? null : id;
        }

        /** {@code device.attributes["domain"]} or {@code device.capacity["domain"]}: the domain. */
        String domainIndex() {
            if (!eat("[")) {
                return null;
            }
            String domain = string();
            // A domain with a '/' never matches (names split at their first '/'); leave such lookups to CEL.
            return domain != null && !domain.isEmpty() && domain.indexOf('/') < 0 && eat("]") ? domain : null;
        }

        Term term() {
            String literalFirst = string();
            if (literalFirst != null) {
                return eat("==") && eatWord("device") && eat(".") && eatWord("driver")
                        ? new DriverEquals(literalFirst)
                        : null;
            }
            if (!eatWord("device") || !eat(".")) {
                return null;
            }
            String member = ident();
            if ("driver".equals(member)) {
                if (!eat("==")) {
                    return null;
                }
                String d = string();
                return d == null ? null : new DriverEquals(d);
            }
            if ("attributes".equals(member)) {
                return attributeTerm();
            }
            if ("capacity".equals(member)) {
                return capacityTerm();
            }
            return null;
        }

        private Term attributeTerm() {
            String domain = domainIndex();
            String id = domain == null ? null : field();
            if (id == null) {
                return null;
            }
            skipSpace();
            int save = i;
            if (eat(".")) {
                i = save;
                String part = field();
                if (!("major".equals(part) || "minor".equals(part) || "patch".equals(part)) || !eat("(") || !eat(")")) {
                    return null;
                }
                String op = comparison();
                Long n = op == null ? null : integer();
                return n == null ? null : new VersionPart(domain, id, part, op, n);
            }
            String op = comparison();
            if (!"==".equals(op) && !"!=".equals(op)) {
                return null;
            }
            Object literal = string();
            if (literal == null) {
                skipSpace();
                int at = i;
                if (eatWord("true")) {
                    literal = Boolean.TRUE;
                } else if (eatWord("false")) {
                    literal = Boolean.FALSE;
                } else {
                    i = at;
                    literal = integer();
                }
            }
            return literal == null ? null : new AttributeEquals(domain, id, op.equals("!="), literal);
        }

        private Term capacityTerm() {
            String domain = domainIndex();
            String id = domain == null ? null : field();
            String form = id == null ? null : field();
            if (!("compareTo".equals(form) || "isGreaterThan".equals(form) || "isLessThan".equals(form))
                    || !eat("(")
                    || !eatWord("quantity")
                    || !eat("(")) {
                return null;
            }
            String q = string();
            if (q == null || !eat(")") || !eat(")")) {
                return null;
            }
            KubeQuantity literal;
            try {
                literal = KubeQuantity.parse(q);
            } catch (IllegalArgumentException e) {
                return null;
            }
            if (!form.equals("compareTo")) {
                return new CapacityCompare(domain, id, form, literal, null, 0);
            }
            String op = comparison();
            Long n = op == null ? null : integer();
            return n == null ? null : new CapacityCompare(domain, id, form, literal, op, n);
        }
    }
}
