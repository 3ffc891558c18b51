package io.dra4j.cel;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * A grammar of typed CEL expressions over the DRA device-selector environment, for the generated differential test
 * against cel-go ({@link CelDifferential}). Every production is typed: an expression of a requested type is built
 * from the productions of that type (Kubernetes library functions, string extension, lists and sets extensions,
 * macros and two-variable comprehensions, optionals, conversions, arithmetic at its edges, the device's attributes
 * and capacity), so most expressions compile and reach evaluation; a small share is deliberately ill-typed to
 * compare compile errors. Not thread-safe: one generator per thread.
 *
 * <p>The selector is either a generated bool expression, or a value probe: an expression of any type rendered into
 * a string and passed to {@code ip("%" + ...)}, which fails with an error that quotes the string, so that the value
 * itself is compared (through both sides' error text) and not only a bool derived from it.
 */
final class CelExpressionGenerator {

    /** A CEL type the grammar knows; {@code elem} is the element (list, optional) or value (map) type. */
    record Type(String name, Type elem) {
        static final Type BOOL = new Type("bool", null);
        static final Type INT = new Type("int", null);
        static final Type UINT = new Type("uint", null);
        static final Type DOUBLE = new Type("double", null);
        static final Type STRING = new Type("string", null);
        static final Type BYTES = new Type("bytes", null);
        static final Type DURATION = new Type("duration", null);
        static final Type TIMESTAMP = new Type("timestamp", null);
        static final Type QUANTITY = new Type("quantity", null);
        static final Type SEMVER = new Type("semver", null);
        static final Type IP = new Type("ip", null);
        static final Type CIDR = new Type("cidr", null);
        static final Type URL = new Type("url", null);

        static Type list(Type elem) {
            return new Type("list", elem);
        }

        static Type map(Type value) {
            return new Type("map", value);
        }

        static Type optional(Type elem) {
            return new Type("optional", elem);
        }

        boolean isList() {
            return name.equals("list");
        }
    }

    /** An expression tree: {@code template} with {@code $0..$9} standing for the children (leaves have none). */
    record Node(Type type, String template, List<Node> kids) {
        String render() {
            if (kids.isEmpty()) {
                return template;
            }
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < template.length(); i++) {
                char c = template.charAt(i);
                if (c == '$' && i + 1 < template.length() && Character.isDigit(template.charAt(i + 1))) {
                    out.append(kids.get(template.charAt(++i) - '0').render());
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }

        int size() {
            return 1 + kids.stream().mapToInt(Node::size).sum();
        }
    }

    /** An attribute the generated device has (or, when {@code present} is false, a name it lacks). */
    record Attr(String domain, String name, Type type, boolean present) {}

    private static final Type[] SCALARS = {
        Type.BOOL,
        Type.INT,
        Type.UINT,
        Type.DOUBLE,
        Type.STRING,
        Type.BYTES,
        Type.DURATION,
        Type.TIMESTAMP,
        Type.QUANTITY,
        Type.SEMVER,
        Type.IP,
        Type.CIDR,
        Type.URL
    };
    private static final Type[] ELEMENTS = {
        Type.INT, Type.STRING, Type.DOUBLE, Type.BOOL, Type.UINT, Type.SEMVER, Type.DURATION, Type.QUANTITY
    };
    private static final Type[] ORDERED = {
        Type.INT, Type.UINT, Type.DOUBLE, Type.STRING, Type.BYTES, Type.DURATION, Type.TIMESTAMP, Type.BOOL
    };

    private static final String[] INTS = {
        "0",
        "1",
        "2",
        "3",
        "-1",
        "5",
        "10",
        "42",
        "100",
        "1000",
        "-7",
        "9223372036854775807",
        "-9223372036854775808",
        "-9223372036854775807",
        "4611686018427387904",
        "2147483648"
    };
    private static final String[] UINTS = {"0u", "1u", "2u", "10u", "18446744073709551615u", "9223372036854775808u"};
    private static final String[] DOUBLES = {
        "0.0",
        "1.0",
        "1.5",
        "-2.5",
        "0.1",
        "3.14",
        "1e10",
        "1e300",
        "1e-300",
        "2.0",
        "-0.0",
        "100.0",
        "1.7976931348623157e308",
        "5e-324",
        "double(\"NaN\")",
        "double(\"Inf\")",
        "double(\"-inf\")",
        "123456789.125",
        "1e21",
        "1e20",
        "0.000001",
        "1e-7",
        "9.223372036854775807e18",
        "-9.223372036854775808e18",
        "1.8446744073709551615e19",
        "0.5",
        "2.5",
        "-1.5"
    };
    private static final String[] STRINGS = {
        "",
        "a",
        "abc",
        "Hello World",
        "héllo",
        "😀",
        "a,b,c",
        " padded ",
        "1.2.3",
        "v1.0.0",
        "10Gi",
        "192.168.0.1",
        "::1",
        "10.0.0.0/8",
        "https://example.com:8080/p?q=1",
        "dns-label",
        "%",
        "x%sy",
        "a\\tb",
        "quote\\\"d",
        "ABC",
        "aBc",
        "abcabc",
        "0",
        "1",
        "-5",
        "true",
        "1.5",
        "Inf",
        "NaN",
        "1e400",
        "1_000",
        "gpu-0",
        "MiXeD-Case.Name",
        "ünïcödé",
        "a😀b😀",
        "123",
        "   ",
        "a.b.c",
        "a/b",
        "foo_bar",
        "2023-01-01T00:00:00Z",
        "1h30m",
        "\\u00e9t\\u00e9"
    };
    private static final String[] NUMBER_STRINGS = {
        "1.5",
        "Inf",
        "-inf",
        "NaN",
        "1e400",
        "1_000",
        "0x1p-2",
        "  1",
        "+1.5",
        "infinity",
        ".5",
        "1e-400",
        "42",
        "-0",
        "9223372036854775808",
        "18446744073709551615",
        "0x10",
        "1e3",
        "-9223372036854775808",
        "abc",
        "",
        "1.",
        "+Inf",
        "nan",
        "01",
        "1e308"
    };
    private static final String[] BOOL_STRINGS = {"true", "false", "1", "0", "t", "F", "TRUE", "yes", "True", "fAlse"};
    private static final String[] DURATIONS = {
        "1h",
        "30m",
        "-1.5s",
        "0s",
        "100ms",
        "1h30m45s",
        "1us",
        "1ns",
        "-2h",
        "2562047h47m16.854775807s",
        "1.5h",
        "90s",
        "3600s",
        "0.001s",
        "2h45m"
    };
    private static final String[] TIMESTAMPS = {
        "2023-01-01T00:00:00Z",
        "2023-06-15T12:30:45.123456789+02:00",
        "1970-01-01T00:00:00Z",
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "2024-02-29T23:59:59-08:00",
        "2000-12-31T23:00:00+05:30",
        "2021-03-14T01:59:26.535Z"
    };
    private static final String[] ZONES = {
        "UTC",
        "America/New_York",
        "+02:00",
        "-07:30",
        "Europe/Berlin",
        "Invalid/Zone",
        "Asia/Kolkata",
        "Z",
        "",
        "local",
        "+25:00",
        "Australia/Lord_Howe"
    };
    private static final String[] QUANTITIES = {
        "1Gi",
        "500m",
        "1.5",
        "1e3",
        "100Ki",
        "0",
        "-1",
        "2",
        "1E",
        "0.1",
        "9223372036854775807",
        "1Ei",
        "123456789012345678901234567890",
        "1n",
        "10G",
        "1.5Gi",
        "-500m",
        "8Ei",
        "0.000001",
        "1e-9",
        "12e6",
        "1k",
        "abc",
        "1.5.5",
        "9.999999999999999999e18",
        "80Gi",
        "4"
    };
    private static final String[] SEMVERS = {
        "1.2.3",
        "0.0.1",
        "1.0.0-alpha.1",
        "1.0.0+build",
        "10.20.30",
        "1.2.3-rc.1",
        "2.0.0",
        "1.0.0-alpha",
        "1.0.0-beta.2",
        "01.2.3",
        "1.2",
        "v1.2.3",
        "1.2.3.4",
        "0.0.0",
        "1.0.0-0",
        "1.0.0-alpha.beta",
        "18446744073709551616.0.0"
    };
    private static final String[] IPS = {
        "192.168.0.1",
        "::1",
        "fe80::1",
        "127.0.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "2001:db8::1",
        "8.8.8.8",
        "ff02::1",
        "::",
        "::ffff:1.2.3.4",
        "fe80::1%eth0",
        "1.2.3",
        "01.2.3.4",
        "2001:DB8::1",
        "169.254.1.1",
        "255.255.255.255"
    };
    private static final String[] CIDRS = {
        "10.0.0.0/8",
        "192.168.1.0/24",
        "::1/128",
        "2001:db8::/32",
        "10.1.2.3/8",
        "0.0.0.0/0",
        "fe80::/10",
        "192.168.0.1/32",
        "10.0.0.0/33",
        "::/0",
        "1.2.3.4",
        "2001:db8::1/64"
    };
    private static final String[] URLS = {
        "https://example.com:8080/a%20b?x=1&y=2",
        "http://[::1]:80/",
        "/relative/path",
        "https://user@host.example.com/",
        "http://example.com",
        "https://example.com/p?q=%zz",
        "ftp://ftp.example.com/file.txt",
        "https://example.com/a b",
        "not a url",
        "https://[fe80::1%25eth0]:8443/x",
        "http://example.com:/",
        "HTTPS://EXAMPLE.COM/UP"
    };
    private static final String[] REGEXES = {
        "^a",
        "b$",
        "[0-9]+",
        "^[a-z]+$",
        "(a|b)c",
        ".*",
        "\\\\d",
        "^$",
        "é",
        "[",
        "a{2,}",
        "(?i)abc",
        "x*",
        "\\\\w+@\\\\w+",
        "^gpu-[0-9]$"
    };
    private static final String[] FORMATS = {
        "dns1123Label",
        "dns1123Subdomain",
        "dns1035Label",
        "qualifiedName",
        "dns1123LabelPrefix",
        "dns1123SubdomainPrefix",
        "dns1035LabelPrefix",
        "labelValue",
        "uri",
        "uuid",
        "byte",
        "date",
        "datetime",
        "nope"
    };
    private static final String[] DRIVERS = {"dra.example.com", "gpu.example.com"};
    private static final String OTHER_DOMAIN = "other.example.com";

    private final Random random;
    private final List<String[]> scope = new ArrayList<>();
    private List<Attr> attrs = List.of();
    private String driver = DRIVERS[0];
    private int budget;
    private int variables;

    CelExpressionGenerator(Random random) {
        this.random = random;
    }

    /** The attributes (with their CEL types) of the device the next expressions refer to. */
    void device(String driver, List<Attr> attrs) {
        this.driver = driver;
        this.attrs = List.copyOf(attrs);
    }

    String[] drivers() {
        return DRIVERS.clone();
    }

    String otherDomain() {
        return OTHER_DOMAIN;
    }

    /** A selector: a bool expression or a value probe. */
    Node selector() {
        scope.clear();
        variables = 0;
        budget = 12 + random.nextInt(40);
        int depth = 1 + random.nextInt(4);
        if (random.nextInt(100) < 4) {
            return illTyped(depth);
        }
        if (random.nextBoolean()) {
            return gen(Type.BOOL, depth);
        }
        Type type = anyType(2);
        return n(Type.BOOL, "ip(\"%\" + $0) == ip(\"::1\")", render(gen(type, depth)));
    }

    /** A node of {@code type} with the same meaning as {@code node}, rendered into a string (the value probe). */
    Node render(Node node) {
        Type t = node.type();
        switch (t.name()) {
            case "string":
                return node;
            case "quantity":
                return n(
                        Type.STRING,
                        "cel.bind(q, $0, string(q.asApproximateFloat()) + \"/\" + string(q.sign()) + \"/\""
                                + " + string(q.isInteger()) + (q.isInteger() ? \"/\" + string(q.asInteger()) : \"\"))",
                        node);
            case "semver":
                return n(
                        Type.STRING,
                        "cel.bind(s, $0, string(s.major()) + \".\" + string(s.minor()) + \".\""
                                + " + string(s.patch()))",
                        node);
            case "url":
                return n(
                        Type.STRING,
                        "cel.bind(u, $0, u.getScheme() + \"|\" + u.getHost() + \"|\" + u.getHostname()"
                                + " + \"|\" + u.getPort() + \"|\" + u.getEscapedPath() + \"|\" + string(u.getQuery()))",
                        node);
            case "list": {
                String v = fresh();
                return n(Type.STRING, "$0.map(" + v + ", " + renderVar(v, t.elem()) + ").join(\",\")", node);
            }
            case "map": {
                String k = fresh();
                String inner = renderVar(k + "v", t.elem());
                return n(
                        Type.STRING,
                        "cel.bind(" + k + "m, $0, " + k + "m.map(" + k + ", cel.bind(" + k + "v, " + k + "m[" + k
                                + "], " + k + " + \"=\" + " + inner + ")).sort().join(\",\"))",
                        node);
            }
            case "optional": {
                String o = fresh();
                return n(
                        Type.STRING,
                        "cel.bind(" + o + ", $0, " + o + ".hasValue() ? \"some:\" + "
                                + renderVar(o + ".value()", t.elem()) + " : \"none\")",
                        node);
            }
            default:
                return n(Type.STRING, "string($0)", node);
        }
    }

    /** The probe rendering of a variable reference (for comprehensions in {@link #render}). */
    private String renderVar(String var, Type type) {
        return render(leaf(type, var)).render();
    }

    private Node illTyped(int depth) {
        Type a = anyType(1);
        Type b = anyType(1);
        String[] shapes = {
            "$0 + $1",
            "$0 == $1",
            "$0 < $1",
            "$0 && $1",
            "$0.size() == $1",
            "$0[$1]",
            "$0 in $1",
            "$0.startsWith($1)",
            "$0.contains($1)",
            "$0 ? $1 : $0",
            "int($0) == $1",
            "$0.isLessThan($1)"
        };
        return n(Type.BOOL, pick(shapes), gen(a, depth - 1), gen(b, depth - 1));
    }

    Type anyType(int nesting) {
        int r = random.nextInt(100);
        if (nesting > 0 && r < 14) {
            return Type.list(nesting > 1 && random.nextInt(6) == 0 ? Type.list(pick(ELEMENTS)) : pick(ELEMENTS));
        }
        if (nesting > 0 && r < 18) {
            return Type.map(random.nextBoolean() ? Type.INT : Type.STRING);
        }
        if (nesting > 0 && r < 24) {
            return Type.optional(pick(new Type[] {Type.INT, Type.STRING, Type.BOOL, Type.DOUBLE}));
        }
        return pick(SCALARS);
    }

    /** An expression of {@code type}, at most {@code depth} productions deep. */
    Node gen(Type type, int depth) {
        budget--;
        if (depth <= 0 || budget <= 0) {
            return leaf(type);
        }
        for (int attempt = 0; attempt < 8; attempt++) {
            Node node = production(type, depth - 1);
            if (node != null) {
                return node;
            }
        }
        return leaf(type);
    }

    /** The smallest expression of a type: a literal. */
    Node literal(Type type) {
        switch (type.name()) {
            case "bool":
                return leaf(type, random.nextBoolean() ? "true" : "false");
            case "int":
                return leaf(type, pick(INTS));
            case "uint":
                return leaf(type, pick(UINTS));
            case "double":
                return leaf(type, pick(DOUBLES));
            case "string":
                return leaf(type, quote(pick(STRINGS)));
            case "bytes":
                return leaf(type, pick(new String[] {"b\"abc\"", "b\"\"", "b\"\\xff\\x00\"", "b\"héllo\""}));
            case "duration":
                return leaf(type, "duration(" + quote(pick(DURATIONS)) + ")");
            case "timestamp":
                return leaf(type, "timestamp(" + quote(pick(TIMESTAMPS)) + ")");
            case "quantity":
                return leaf(type, "quantity(" + quote(pick(QUANTITIES)) + ")");
            case "semver":
                return leaf(type, "semver(" + quote(pick(SEMVERS)) + ")");
            case "ip":
                return leaf(type, "ip(" + quote(pick(IPS)) + ")");
            case "cidr":
                return leaf(type, "cidr(" + quote(pick(CIDRS)) + ")");
            case "url":
                return leaf(type, "url(" + quote(pick(URLS)) + ")");
            case "list":
                return leaf(type, "[]");
            case "map":
                return leaf(type, "{}");
            case "optional":
                return leaf(type, "optional.none()");
            default:
                throw new IllegalArgumentException(type.name());
        }
    }

    /** The simplest literal of a type, for shrinking. */
    static Node minimal(Type type) {
        String text = switch (type.name()) {
            case "bool" -> "true";
            case "int" -> "0";
            case "uint" -> "0u";
            case "double" -> "0.0";
            case "string" -> "\"\"";
            case "bytes" -> "b\"\"";
            case "duration" -> "duration(\"0s\")";
            case "timestamp" -> "timestamp(\"1970-01-01T00:00:00Z\")";
            case "quantity" -> "quantity(\"0\")";
            case "semver" -> "semver(\"0.0.0\")";
            case "ip" -> "ip(\"::1\")";
            case "cidr" -> "cidr(\"::1/128\")";
            case "url" -> "url(\"/\")";
            case "list" -> "[]";
            case "map" -> "{}";
            default -> "optional.none()";
        };
        return leaf(type, text);
    }

    private Node leaf(Type type) {
        int r = random.nextInt(100);
        if (r < 20) {
            List<String> vars = new ArrayList<>();
            for (String[] v : scope) {
                if (v[1].equals(describe(type))) {
                    vars.add(v[0]);
                }
            }
            if (!vars.isEmpty()) {
                return leaf(type, vars.get(random.nextInt(vars.size())));
            }
        }
        if (r < 45) {
            Node attr = attribute(type);
            if (attr != null) {
                return attr;
            }
        }
        if (type.isList() && r < 75) {
            List<Node> elems = new ArrayList<>();
            int count = random.nextInt(4);
            for (int i = 0; i < count; i++) {
                elems.add(literal(type.elem()));
            }
            return listOf(type, elems);
        }
        if (type.name().equals("map") && r < 75) {
            return mapLiteral(type, 0);
        }
        return literal(type);
    }

    /** A reference to one of the device's attributes or capacities of this type (or, rarely, a missing one). */
    private Node attribute(Type type) {
        if (type.equals(Type.QUANTITY)) {
            String name = pick(new String[] {"memory", "cores", "memory", OTHER_DOMAIN + "/bandwidth", "missing"});
            String domain = driver;
            if (name.startsWith(OTHER_DOMAIN)) {
                domain = OTHER_DOMAIN;
                name = name.substring(OTHER_DOMAIN.length() + 1);
            }
            return leaf(type, "device.capacity[" + quote(domain) + "]." + name);
        }
        if (type.equals(Type.STRING) && random.nextInt(4) == 0) {
            return leaf(type, "device.driver");
        }
        if (type.equals(Type.BOOL) && random.nextInt(4) == 0) {
            return leaf(type, "device.allowMultipleAllocations");
        }
        List<Attr> matching = new ArrayList<>();
        for (Attr a : attrs) {
            if (a.type().equals(type) || (a.type().equals(Type.SEMVER) && type.equals(Type.SEMVER))) {
                matching.add(a);
            }
        }
        if (matching.isEmpty()) {
            return null;
        }
        Attr a = matching.get(random.nextInt(matching.size()));
        String domain = quote(a.domain());
        switch (random.nextInt(6)) {
            case 0:
                return leaf(type, "device.attributes[" + domain + "][" + quote(a.name()) + "]");
            case 1:
                return leaf(
                        type,
                        "device.attributes[" + domain + "][?" + quote(a.name()) + "].orValue("
                                + literal(type).render() + ")");
            default:
                return leaf(type, "device.attributes[" + domain + "]." + a.name());
        }
    }

    private Node production(Type type, int d) {
        Supplier<Node> common = () -> commonProduction(type, d);
        switch (type.name()) {
            case "bool":
                return random.nextInt(8) == 0 ? common.get() : boolProduction(d);
            case "int":
                return random.nextInt(8) == 0 ? common.get() : intProduction(d);
            case "uint":
                return pick(
                        () -> n(type, "uint($0)", gen(Type.INT, d)),
                        () -> n(type, "uint($0)", gen(Type.DOUBLE, d)),
                        () -> n(type, "uint($0)", numberString(d)),
                        () -> n(
                                type,
                                "$0 " + pick(new String[] {"+", "-", "*", "/", "%"}) + " $1",
                                gen(type, d),
                                gen(type, d)),
                        common);
            case "double":
                return pick(
                        () -> n(type, "double($0)", gen(Type.INT, d)),
                        () -> n(type, "double($0)", gen(Type.UINT, d)),
                        () -> n(type, "double($0)", numberString(d)),
                        () -> n(
                                type,
                                "$0 " + pick(new String[] {"+", "-", "*", "/"}) + " $1",
                                gen(type, d),
                                gen(type, d)),
                        () -> n(type, "-$0", gen(type, d)),
                        () -> n(type, "$0.asApproximateFloat()", gen(Type.QUANTITY, d)),
                        () -> n(type, "$0." + pick(new String[] {"sum()", "min()", "max()"}), gen(Type.list(type), d)),
                        common);
            case "string":
                return random.nextInt(10) == 0 ? common.get() : stringProduction(d);
            case "bytes":
                return pick(
                        () -> n(type, "bytes($0)", gen(Type.STRING, d)),
                        () -> n(type, "$0 + $1", gen(type, d), gen(type, d)),
                        common);
            case "duration":
                return pick(
                        () -> n(type, "duration($0)", stringFrom(DURATIONS, d)),
                        () -> n(type, "$0 " + pick(new String[] {"+", "-"}) + " $1", gen(type, d), gen(type, d)),
                        () -> n(type, "$0 - $1", gen(Type.TIMESTAMP, d), gen(Type.TIMESTAMP, d)),
                        () -> n(type, "-$0", gen(type, d)),
                        () -> n(type, "duration(string($0))", gen(Type.DURATION, d)),
                        common);
            case "timestamp":
                return pick(
                        () -> n(type, "timestamp($0)", stringFrom(TIMESTAMPS, d)),
                        () -> n(type, "timestamp($0)", gen(Type.INT, d)),
                        () -> n(type, "$0 + $1", gen(type, d), gen(Type.DURATION, d)),
                        () -> n(type, "$0 + $1", gen(Type.DURATION, d), gen(type, d)),
                        () -> n(type, "$0 - $1", gen(type, d), gen(Type.DURATION, d)),
                        () -> n(type, "timestamp(string($0))", gen(Type.TIMESTAMP, d)),
                        common);
            case "quantity":
                return pick(
                        () -> n(type, "quantity($0)", stringFrom(QUANTITIES, d)),
                        () -> n(type, "$0." + pick(new String[] {"add", "sub"}) + "($1)", gen(type, d), gen(type, d)),
                        () -> n(
                                type,
                                "$0." + pick(new String[] {"add", "sub"}) + "($1)",
                                gen(type, d),
                                gen(Type.INT, d)),
                        common);
            case "semver":
                return pick(
                        () -> n(type, "semver($0)", stringFrom(SEMVERS, d)),
                        () -> n(type, "semver($0, $1)", stringFrom(SEMVERS, d), gen(Type.BOOL, d)),
                        common);
            case "ip":
                return pick(
                        () -> n(type, "ip($0)", stringFrom(IPS, d)),
                        () -> n(type, "$0.ip()", gen(Type.CIDR, d)),
                        common);
            case "cidr":
                return pick(
                        () -> n(type, "cidr($0)", stringFrom(CIDRS, d)),
                        () -> n(type, "$0.masked()", gen(type, d)),
                        common);
            case "url":
                return pick(() -> n(type, "url($0)", stringFrom(URLS, d)), common);
            case "list":
                return listProduction(type, d);
            case "map":
                return pick(() -> mapLiteral(type, d), common);
            case "optional":
                return optionalProduction(type, d);
            default:
                throw new IllegalArgumentException(type.name());
        }
    }

    /** Productions for any type: conditionals, bindings, indexing, optionals unwrapped, comprehension results. */
    private Node commonProduction(Type type, int d) {
        switch (random.nextInt(7)) {
            case 0:
                return n(type, "($0 ? $1 : $2)", gen(Type.BOOL, d), gen(type, d), gen(type, d));
            case 1: {
                Type bound = anyType(1);
                String v = fresh();
                Node value = gen(bound, d);
                scope.add(new String[] {v, describe(bound)});
                Node body = gen(type, d);
                scope.remove(scope.size() - 1);
                return n(type, "cel.bind(" + v + ", $0, $1)", value, body);
            }
            case 2:
                return n(type, "$0[$1]", gen(Type.list(type), d), gen(Type.INT, d));
            case 3:
                return n(type, "$0[$1]", gen(Type.map(type), d), stringFrom(new String[] {"a", "b", "c"}, d));
            case 4:
                return n(
                        type,
                        "$0." + pick(new String[] {"orValue($1)", "value()"}),
                        gen(Type.optional(type), d),
                        gen(type, d));
            case 5:
                return n(type, "dyn($0)", gen(type, d));
            default:
                return n(type, "$0[0]", gen(Type.list(type), d));
        }
    }

    private Node boolProduction(int d) {
        Type b = Type.BOOL;
        switch (random.nextInt(30)) {
            case 0:
            case 1: {
                Type t = pick(ORDERED);
                return n(
                        b, "$0 " + pick(new String[] {"<", "<=", ">", ">=", "==", "!="}) + " $1", gen(t, d), gen(t, d));
            }
            case 2: {
                Type[] nums = {Type.INT, Type.UINT, Type.DOUBLE};
                return n(
                        b,
                        "$0 " + pick(new String[] {"<", "<=", ">", ">=", "==", "!="}) + " $1",
                        gen(pick(nums), d),
                        gen(pick(nums), d));
            }
            case 3: {
                Type t = anyType(2);
                return n(b, "$0 " + pick(new String[] {"==", "!="}) + " $1", gen(t, d), gen(t, d));
            }
            case 4:
                return n(b, "$0 " + pick(new String[] {"&&", "||"}) + " $1", gen(b, d), gen(b, d));
            case 5:
                return n(b, "!$0", gen(b, d));
            case 6: {
                Type t = pick(ELEMENTS);
                return n(b, "$0 in $1", gen(t, d), gen(Type.list(t), d));
            }
            case 7:
                return n(
                        b, "$0 in $1", gen(Type.STRING, d), gen(Type.map(pick(new Type[] {Type.INT, Type.STRING})), d));
            case 8:
                return n(
                        b,
                        "$0." + pick(new String[] {"startsWith", "endsWith", "contains"}) + "($1)",
                        gen(Type.STRING, d),
                        gen(Type.STRING, d));
            case 9:
                return n(
                        b,
                        "$0.matches($1)",
                        gen(Type.STRING, d),
                        random.nextInt(4) == 0 ? gen(Type.STRING, d) : leaf(Type.STRING, quote(pick(REGEXES))));
            case 10:
            case 11:
                return comprehension(b, d);
            case 12: {
                Attr a = attrs.isEmpty() ? null : attrs.get(random.nextInt(attrs.size()));
                String domain = a == null ? driver : a.domain();
                String name = a == null || random.nextInt(5) == 0 ? "nothere" : a.name();
                return random.nextBoolean()
                        ? leaf(b, "has(device.attributes[" + quote(domain) + "]." + name + ")")
                        : leaf(b, quote(name) + " in device.attributes[" + quote(domain) + "]");
            }
            case 13:
                return n(
                        b,
                        "$0.isSorted()",
                        gen(Type.list(pick(new Type[] {Type.INT, Type.STRING, Type.DOUBLE, Type.BOOL})), d));
            case 14:
                return n(
                        b,
                        "$0." + pick(new String[] {"isLessThan", "isGreaterThan"}) + "($1)",
                        gen(Type.SEMVER, d),
                        gen(Type.SEMVER, d));
            case 15:
                return random.nextBoolean()
                        ? n(
                                b,
                                "$0." + pick(new String[] {"isLessThan", "isGreaterThan"}) + "($1)",
                                gen(Type.QUANTITY, d),
                                gen(Type.QUANTITY, d))
                        : n(b, "$0.isInteger()", gen(Type.QUANTITY, d));
            case 16:
                return n(
                        b,
                        "$0."
                                + pick(new String[] {
                                    "isLoopback()",
                                    "isUnspecified()",
                                    "isLinkLocalMulticast()",
                                    "isLinkLocalUnicast()",
                                    "isGlobalUnicast()"
                                }),
                        gen(Type.IP, d));
            case 17:
                return random.nextBoolean()
                        ? n(
                                b,
                                "$0.containsIP($1)",
                                gen(Type.CIDR, d),
                                random.nextBoolean() ? gen(Type.IP, d) : stringFrom(IPS, d))
                        : n(
                                b,
                                "$0.containsCIDR($1)",
                                gen(Type.CIDR, d),
                                random.nextBoolean() ? gen(Type.CIDR, d) : stringFrom(CIDRS, d));
            case 18: {
                String[] fns = {"isIP", "isCIDR", "isURL", "isQuantity", "isSemver", "ip.isCanonical"};
                String[][] pools = {IPS, CIDRS, URLS, QUANTITIES, SEMVERS, IPS};
                int i = random.nextInt(fns.length);
                return n(b, fns[i] + "($0)", stringFrom(pools[i], d));
            }
            case 19: {
                Type t = pick(ELEMENTS);
                return n(
                        b,
                        "sets." + pick(new String[] {"contains", "equivalent", "intersects"}) + "($0, $1)",
                        gen(Type.list(t), d),
                        gen(Type.list(t), d));
            }
            case 20:
                return n(b, "$0.hasValue()", gen(Type.optional(pick(ELEMENTS)), d));
            case 21:
                return n(b, "bool($0)", stringFrom(BOOL_STRINGS, d));
            case 22:
                return n(
                        b,
                        "format." + pick(FORMATS) + "().validate($0)."
                                + pick(new String[] {"hasValue()", "orValue([]).size() == 0"}),
                        gen(Type.STRING, d));
            case 23:
                return n(
                        b,
                        "format.named($0)." + pick(new String[] {"hasValue()", "value().validate(\"a-b\").hasValue()"}),
                        stringFrom(FORMATS, d));
            case 24: {
                Type t = pick(ELEMENTS);
                return n(b, "$0.includes($1)", gen(Type.list(t), d), gen(t, d));
            }
            case 25:
                return n(b, "semver($0, true).isLessThan(semver($1))", stringFrom(SEMVERS, d), stringFrom(SEMVERS, d));
            case 26:
                return random.nextInt(4) == 0 ? costly(b, d) : n(b, "$0 > $1", gen(Type.INT, d), gen(Type.INT, d));
            case 27:
                return n(b, "$0.exists(x, x == $1)", gen(Type.list(Type.STRING), d), gen(Type.STRING, d));
            default:
                return n(b, "$0 == $1", gen(Type.STRING, d), gen(Type.STRING, d));
        }
    }

    private Node intProduction(int d) {
        Type i = Type.INT;
        switch (random.nextInt(26)) {
            case 0:
            case 1:
                return n(i, "$0 " + pick(new String[] {"+", "-", "*", "/", "%"}) + " $1", gen(i, d), gen(i, d));
            case 2:
                return n(i, "-$0", gen(i, d));
            case 3:
                return n(
                        i,
                        "size($0)",
                        gen(pick(new Type[] {Type.STRING, Type.BYTES, Type.list(Type.INT), Type.map(Type.INT)}), d));
            case 4:
                return n(i, "$0.size()", gen(pick(new Type[] {Type.STRING, Type.list(Type.STRING)}), d));
            case 5:
                return n(
                        i,
                        "$0." + pick(new String[] {"indexOf", "lastIndexOf"}) + "($1)",
                        gen(Type.STRING, d),
                        gen(Type.STRING, d));
            case 6:
                return n(
                        i,
                        "$0." + pick(new String[] {"indexOf", "lastIndexOf"}) + "($1, $2)",
                        gen(Type.STRING, d),
                        gen(Type.STRING, d),
                        gen(i, d));
            case 7: {
                Type t = pick(ELEMENTS);
                return n(
                        i,
                        "$0." + pick(new String[] {"indexOf", "lastIndexOf"}) + "($1)",
                        gen(Type.list(t), d),
                        gen(t, d));
            }
            case 8:
                return n(i, "$0." + pick(new String[] {"sum()", "min()", "max()"}), gen(Type.list(i), d));
            case 9:
                return n(
                        i, "int($0)", gen(pick(new Type[] {Type.DOUBLE, Type.UINT, Type.TIMESTAMP, Type.DURATION}), d));
            case 10:
                return n(i, "int($0)", numberString(d));
            case 11:
                return n(i, "$0." + pick(new String[] {"asInteger()", "sign()"}), gen(Type.QUANTITY, d));
            case 12:
                return random.nextBoolean()
                        ? n(i, "$0.compareTo($1)", gen(Type.QUANTITY, d), gen(Type.QUANTITY, d))
                        : n(i, "$0.compareTo($1)", gen(Type.SEMVER, d), gen(Type.SEMVER, d));
            case 13:
                return n(i, "$0." + pick(new String[] {"major()", "minor()", "patch()"}), gen(Type.SEMVER, d));
            case 14:
                return random.nextBoolean()
                        ? n(i, "$0.prefixLength()", gen(Type.CIDR, d))
                        : n(i, "$0.family()", gen(Type.IP, d));
            case 15:
                return n(
                        i,
                        "$0." + pick(new String[] {"getHours()", "getMinutes()", "getSeconds()", "getMilliseconds()"}),
                        gen(Type.DURATION, d));
            case 16:
            case 17: {
                String fn = pick(new String[] {
                    "getFullYear",
                    "getMonth",
                    "getDayOfMonth",
                    "getDate",
                    "getDayOfWeek",
                    "getDayOfYear",
                    "getHours",
                    "getMinutes",
                    "getSeconds",
                    "getMilliseconds"
                });
                return random.nextBoolean()
                        ? n(i, "$0." + fn + "()", gen(Type.TIMESTAMP, d))
                        : n(i, "$0." + fn + "($1)", gen(Type.TIMESTAMP, d), stringFrom(ZONES, d));
            }
            case 18:
                return comprehension(i, d);
            case 19:
                return random.nextInt(4) == 0 ? costly(i, d) : n(i, "$0 + $1", gen(i, d), gen(i, d));
            case 20:
                return n(i, "$0.size()", gen(Type.list(pick(ELEMENTS)), d));
            case 21:
                return n(i, "int($0)", gen(Type.INT, d));
            case 22:
                return n(i, "$0.charAt(0).size()", gen(Type.STRING, d));
            default:
                return n(i, "$0 " + pick(new String[] {"+", "-", "*"}) + " $1", gen(i, d), leaf(i, pick(INTS)));
        }
    }

    private Node stringProduction(int d) {
        Type s = Type.STRING;
        switch (random.nextInt(26)) {
            case 0:
            case 1:
                return n(s, "$0 + $1", gen(s, d), gen(s, d));
            case 2:
                return n(
                        s,
                        "string($0)",
                        gen(
                                pick(new Type[] {
                                    Type.INT,
                                    Type.UINT,
                                    Type.DOUBLE,
                                    Type.BOOL,
                                    Type.BYTES,
                                    Type.DURATION,
                                    Type.TIMESTAMP,
                                    Type.IP,
                                    Type.CIDR
                                }),
                                d));
            case 3:
                return n(s, "string($0)", gen(Type.DOUBLE, d));
            case 4:
                return n(s, "$0.substring($1)", gen(s, d), gen(Type.INT, d));
            case 5:
                return n(s, "$0.substring($1, $2)", gen(s, d), gen(Type.INT, d), gen(Type.INT, d));
            case 6:
                return n(s, "$0.charAt($1)", gen(s, d), gen(Type.INT, d));
            case 7:
                return n(s, "$0." + pick(new String[] {"lowerAscii()", "upperAscii()", "trim()"}), gen(s, d));
            case 8:
                return random.nextBoolean()
                        ? n(s, "$0.replace($1, $2)", gen(s, d), gen(s, d), gen(s, d))
                        : n(s, "$0.replace($1, $2, $3)", gen(s, d), gen(s, d), gen(s, d), gen(Type.INT, d));
            case 9:
                return random.nextBoolean()
                        ? n(s, "$0.join()", gen(Type.list(s), d))
                        : n(s, "$0.join($1)", gen(Type.list(s), d), gen(s, d));
            case 10:
                return n(s, "strings.quote($0)", gen(s, d));
            case 11:
            case 12:
                return format(d);
            case 13:
                return n(
                        s,
                        "$0."
                                + pick(new String[] {
                                    "getScheme()", "getHost()", "getHostname()", "getPort()", "getEscapedPath()"
                                }),
                        gen(Type.URL, d));
            case 14:
                return n(s, "$0.find($1)", gen(s, d), leaf(s, quote(pick(REGEXES))));
            case 15:
                return n(s, "$0.split($1)[$2]", gen(s, d), gen(s, d), leaf(Type.INT, pick(new String[] {"0", "1"})));
            case 16:
                return n(s, "string($0)", gen(Type.list(Type.INT), d));
            case 17:
                return n(s, "$0.reverse()", gen(s, d));
            case 18:
                return n(s, "string(type($0))", gen(anyType(1), d));
            case 19:
                return n(
                        s,
                        "$0.format($1)",
                        stringFrom(new String[] {"%s", "%d", "%v"}, d),
                        n(Type.list(Type.STRING), "[$0]", gen(anyType(1), d)));
            case 20:
                return n(s, "$0[?$1].orValue($2)", gen(Type.map(s), d), gen(s, d), gen(s, d));
            case 21:
                return n(s, "string($0)", gen(Type.STRING, d));
            default:
                return n(s, "$0 + $1", gen(s, d), leaf(s, quote(pick(STRINGS))));
        }
    }

    /** {@code "<fmt>".format([args])} with arguments that fit the verbs or deliberately do not. */
    private Node format(int d) {
        String[][] verbs = {
            {"%s", ""},
            {"%d", "int"},
            {"%f", "double"},
            {"%.2f", "double"},
            {"%e", "double"},
            {"%x", "int"},
            {"%X", "string"},
            {"%o", "int"},
            {"%b", "int"},
            {"%.3e", "double"},
            {"%x", "bytes"},
            {"%s", "list"},
            {"%d", "uint"},
            {"%.0f", "int"},
            {"%s", "double"}
        };
        int count = 1 + random.nextInt(2);
        StringBuilder fmt = new StringBuilder();
        List<Node> args = new ArrayList<>();
        StringBuilder tmpl = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            String[] v = pick(verbs);
            fmt.append(i == 0 ? "" : pick(new String[] {" ", "-", "%%"})).append(v[0]);
            Type t = switch (random.nextInt(10) == 0 ? "any" : v[1]) {
                case "int" -> Type.INT;
                case "uint" -> Type.UINT;
                case "double" -> Type.DOUBLE;
                case "string" -> Type.STRING;
                case "bytes" -> Type.BYTES;
                case "list" -> Type.list(Type.INT);
                default -> anyType(1);
            };
            tmpl.append(i == 0 ? "" : ", ").append('$').append(i + 1);
            args.add(gen(t, d));
        }
        tmpl.append("]");
        List<Node> kids = new ArrayList<>();
        kids.add(leaf(Type.STRING, quote(fmt.toString())));
        kids.addAll(args);
        return new Node(Type.STRING, "$0.format(" + tmpl + ")", kids);
    }

    private Node listProduction(Type type, int d) {
        Type e = type.elem();
        switch (random.nextInt(18)) {
            case 0:
            case 1: {
                List<Node> elems = new ArrayList<>();
                int count = random.nextInt(4);
                for (int i = 0; i < count; i++) {
                    elems.add(gen(e, d));
                }
                return listOf(type, elems);
            }
            case 2:
                return n(type, "$0 + $1", gen(type, d), gen(type, d));
            case 3:
            case 4: {
                Type from = pick(ELEMENTS);
                String v = fresh();
                Node source = gen(Type.list(from), d);
                scope.add(new String[] {v, describe(from)});
                Node body = gen(e, d);
                Node node = random.nextBoolean()
                        ? n(type, "$0.map(" + v + ", $1)", source, body)
                        : n(type, "$0.map(" + v + ", $1, $2)", source, gen(Type.BOOL, d), body);
                scope.remove(scope.size() - 1);
                return node;
            }
            case 5: {
                String v = fresh();
                Node source = gen(type, d);
                scope.add(new String[] {v, describe(e)});
                Node node = n(type, "$0.filter(" + v + ", $1)", source, gen(Type.BOOL, d));
                scope.remove(scope.size() - 1);
                return node;
            }
            case 6:
                return e.equals(Type.INT) ? n(type, "lists.range($0)", gen(Type.INT, d)) : null;
            case 7:
                return n(type, "$0.slice($1, $2)", gen(type, d), gen(Type.INT, d), gen(Type.INT, d));
            case 8:
                return n(type, "$0.flatten()", gen(Type.list(type), d));
            case 9:
                return n(type, "$0." + pick(new String[] {"distinct()", "reverse()", "sort()"}), gen(type, d));
            case 10: {
                String v = fresh();
                Node source = gen(type, d);
                scope.add(new String[] {v, describe(e)});
                Node node = n(type, "$0.sortBy(" + v + ", $1)", source, gen(pick(ORDERED), d));
                scope.remove(scope.size() - 1);
                return node;
            }
            case 11:
                return e.equals(Type.STRING)
                        ? (random.nextBoolean()
                                ? n(type, "$0.split($1)", gen(e, d), gen(e, d))
                                : n(type, "$0.split($1, $2)", gen(e, d), gen(e, d), gen(Type.INT, d)))
                        : null;
            case 12:
                return e.equals(Type.STRING)
                        ? (random.nextBoolean()
                                ? n(type, "$0.findAll($1)", gen(e, d), leaf(e, quote(pick(REGEXES))))
                                : n(
                                        type,
                                        "$0.findAll($1, $2)",
                                        gen(e, d),
                                        leaf(e, quote(pick(REGEXES))),
                                        gen(Type.INT, d)))
                        : null;
            case 13: {
                Type from = pick(ELEMENTS);
                String i = fresh();
                String v = fresh();
                Node source = gen(Type.list(from), d);
                scope.add(new String[] {i, describe(Type.INT)});
                scope.add(new String[] {v, describe(from)});
                Node node = random.nextBoolean()
                        ? n(type, "$0.transformList(" + i + ", " + v + ", $1)", source, gen(e, d))
                        : n(
                                type,
                                "$0.transformList(" + i + ", " + v + ", $1, $2)",
                                source,
                                gen(Type.BOOL, d),
                                gen(e, d));
                scope.remove(scope.size() - 1);
                scope.remove(scope.size() - 1);
                return node;
            }
            case 14:
                return e.equals(Type.STRING)
                        ? n(type, "format." + pick(FORMATS) + "().validate($0).orValue([])", gen(Type.STRING, d))
                        : null;
            case 15:
                return e.equals(Type.STRING) ? n(type, "$0.map(k, k)", gen(Type.map(Type.INT), d)) : null;
            default:
                return commonProduction(type, d);
        }
    }

    private Node optionalProduction(Type type, int d) {
        Type e = type.elem();
        switch (random.nextInt(10)) {
            case 0:
                return n(type, "optional.of($0)", gen(e, d));
            case 1:
                return leaf(type, "optional.none()");
            case 2:
                return n(type, "optional.ofNonZeroValue($0)", gen(e, d));
            case 3:
                return n(type, "$0[?$1]", gen(Type.map(e), d), stringFrom(new String[] {"a", "b", "z"}, d));
            case 4:
                return n(type, "$0[?$1]", gen(Type.list(e), d), gen(Type.INT, d));
            case 5:
                return n(type, "$0." + pick(new String[] {"first()", "last()"}), gen(Type.list(e), d));
            case 6:
                return n(type, "$0.or($1)", gen(type, d), gen(type, d));
            case 7: {
                String v = fresh();
                Node source = gen(type, d);
                scope.add(new String[] {v, describe(e)});
                Node node = n(type, "$0.optMap(" + v + ", $1)", source, gen(e, d));
                scope.remove(scope.size() - 1);
                return node;
            }
            case 8: {
                Attr a = attrs.stream()
                        .filter(x -> x.type().equals(e))
                        .findFirst()
                        .orElse(null);
                return a == null
                        ? null
                        : leaf(type, "device.attributes[" + quote(a.domain()) + "][?" + quote(a.name()) + "]");
            }
            default:
                return commonProduction(type, d);
        }
    }

    /** Macros and two-variable comprehensions with a bool or int result. */
    private Node comprehension(Type result, int d) {
        Type e = pick(ELEMENTS);
        String v = fresh();
        boolean overMap = random.nextInt(4) == 0;
        Node source = overMap ? gen(Type.map(Type.INT), d) : gen(Type.list(e), d);
        Type varType = overMap ? Type.STRING : e;
        if (result.equals(Type.INT)) {
            scope.add(new String[] {v, describe(varType)});
            Node node = n(result, "$0.filter(" + v + ", $1).size()", source, gen(Type.BOOL, d));
            scope.remove(scope.size() - 1);
            return node;
        }
        if (random.nextInt(3) == 0) {
            String i = fresh();
            scope.add(new String[] {i, describe(overMap ? Type.STRING : Type.INT)});
            scope.add(new String[] {v, describe(overMap ? Type.INT : e)});
            String macro = pick(new String[] {"all", "exists", "existsOne"});
            Node node = n(result, "$0." + macro + "(" + i + ", " + v + ", $1)", source, gen(Type.BOOL, d));
            scope.remove(scope.size() - 1);
            scope.remove(scope.size() - 1);
            return node;
        }
        scope.add(new String[] {v, describe(varType)});
        String macro = pick(new String[] {"all", "exists", "exists_one"});
        Node node = n(result, "$0." + macro + "(" + v + ", $1)", source, gen(Type.BOOL, d));
        scope.remove(scope.size() - 1);
        return node;
    }

    /** Comprehensions whose cost approaches or passes the selector cost limit (1,000,000). */
    private Node costly(Type result, int d) {
        String n = pick(new String[] {"10", "30", "100", "300", "1000", "1001"});
        String m = pick(new String[] {"10", "30", "100", "300", "1000"});
        String body = pick(new String[] {
            "lists.range(" + n + ").map(x, lists.range(" + m + ").filter(y, y < x).size()).sum()",
            "lists.range(" + n + ").filter(x, lists.range(" + m + ").exists(y, y == x * 2)).size()",
            "lists.range(" + n + ").map(x, string(x)).join(\",\").size()",
            "lists.range(" + n + ").all(x, lists.range(" + m + ").all(y, x + y >= 0)) ? 1 : 0",
            "lists.range(" + n + ").map(x, \"ab\").join(\"\").replace(\"a\", \"xyz\").size()",
            "lists.range(" + n + ").sortBy(x, -x)[0]",
            "lists.range(" + n + ").map(x, [x, x]).flatten().distinct().size()"
        });
        Node value = leaf(Type.INT, body);
        if (result.equals(Type.INT)) {
            return value;
        }
        return n(result, "$0 > $1", value, gen(Type.INT, d));
    }

    private Node mapLiteral(Type type, int d) {
        int count = random.nextInt(4);
        List<Node> kids = new ArrayList<>();
        StringBuilder tmpl = new StringBuilder("{");
        String[] keys = {"a", "b", "c", "a"};
        for (int i = 0; i < count; i++) {
            String key = random.nextInt(8) == 0 ? keys[3] : keys[i];
            tmpl.append(i == 0 ? "" : ", ").append(quote(key)).append(": $").append(i);
            kids.add(d <= 0 ? literal(type.elem()) : gen(type.elem(), d));
        }
        tmpl.append("}");
        return kids.isEmpty() ? leaf(type, "{}") : new Node(type, tmpl.toString(), kids);
    }

    private Node listOf(Type type, List<Node> elems) {
        if (elems.isEmpty()) {
            return leaf(type, "[]");
        }
        StringBuilder tmpl = new StringBuilder("[");
        for (int i = 0; i < elems.size(); i++) {
            tmpl.append(i == 0 ? "" : ", ").append('$').append(i);
        }
        return new Node(type, tmpl.append("]").toString(), elems);
    }

    private Node numberString(int d) {
        return stringFrom(NUMBER_STRINGS, d);
    }

    /** A string from a pool of interesting literals, or sometimes a generated one. */
    private Node stringFrom(String[] pool, int d) {
        if (d > 0 && random.nextInt(6) == 0) {
            return gen(Type.STRING, d);
        }
        return leaf(Type.STRING, quote(pick(pool)));
    }

    private String fresh() {
        return "v" + (variables++);
    }

    private static String describe(Type type) {
        return type.elem() == null ? type.name() : type.name() + "(" + describe(type.elem()) + ")";
    }

    /** A CEL string literal; the pools are written with CEL escapes already, so only quotes are added. */
    static String quote(String s) {
        return "\"" + s + "\"";
    }

    private static Node leaf(Type type, String text) {
        return new Node(type, text, List.of());
    }

    private static Node n(Type type, String template, Node... kids) {
        return new Node(type, template, List.of(kids));
    }

    private <T> T pick(T[] values) {
        return values[random.nextInt(values.length)];
    }

    @SafeVarargs
    private Node pick(Supplier<Node>... productions) {
        return productions[random.nextInt(productions.length)].get();
    }
}
