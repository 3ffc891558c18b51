package io.dra4j.cel.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A URL parsed with the rules of Go's {@code net/url} ({@code Parse} and {@code ParseRequestURI}), the value
 * behind the Kubernetes CEL {@code kubernetes.URL} type. Go works on bytes; internally every string here is a
 * byte string (one char per UTF-8 byte), converted back to UTF-8 at the accessors. Immutable.
 */
public final class GoUrl {

    private enum Mode {
        PATH,
        PATH_SEGMENT,
        HOST,
        ZONE,
        USER_PASSWORD,
        QUERY_COMPONENT,
        FRAGMENT
    }

    private final String scheme;
    private final String opaque;
    private final String username;
    private final String password;
    private final boolean passwordSet;
    private final String host;
    private final String path;
    private final String rawPath;
    private final String fragment;
    private final String rawFragment;
    private final String rawQuery;
    private final boolean forceQuery;
    private final boolean omitHost;

    private GoUrl(Parts p) {
        this.scheme = p.scheme;
        this.opaque = p.opaque;
        this.username = p.username;
        this.password = p.password;
        this.passwordSet = p.passwordSet;
        this.host = p.host;
        this.path = p.path;
        this.rawPath = p.rawPath;
        this.fragment = p.fragment;
        this.rawFragment = p.rawFragment;
        this.rawQuery = p.rawQuery;
        this.forceQuery = p.forceQuery;
        this.omitHost = p.omitHost;
    }

    /** A parse failure with Go's error text. */
    static final class UrlException extends Exception {
        private static final long serialVersionUID = 1L;

        UrlException(String message) {
            super(message);
        }
    }

    /** Go's {@code url.ParseRequestURI}. */
    public static GoUrl parseRequestUri(String raw) throws UrlException {
        String b = bytes(raw);
        try {
            return new GoUrl(parse(b, true));
        } catch (UrlException e) {
            throw new UrlException("parse " + quote(b) + ": " + e.getMessage());
        }
    }

    /** Go's {@code url.Parse}. */
    public static GoUrl parse(String raw) throws UrlException {
        String b = bytes(raw);
        int hash = b.indexOf('#');
        String u = hash < 0 ? b : b.substring(0, hash);
        String frag = hash < 0 ? "" : b.substring(hash + 1);
        Parts url;
        try {
            url = parse(u, false);
        } catch (UrlException e) {
            throw new UrlException("parse " + quote(u) + ": " + e.getMessage());
        }
        if (frag.isEmpty()) {
            return new GoUrl(url);
        }
        try {
            url.setFragment(frag);
        } catch (UrlException e) {
            throw new UrlException("parse " + quote(b) + ": " + e.getMessage());
        }
        return new GoUrl(url);
    }

    private static Parts parse(String rawUrl, boolean viaRequest) throws UrlException {
        for (int i = 0; i < rawUrl.length(); i++) {
            char c = rawUrl.charAt(i);
            if (c < ' ' || c == 0x7f) {
                throw new UrlException("net/url: invalid control character in URL");
            }
        }
        if (rawUrl.isEmpty() && viaRequest) {
            throw new UrlException("empty url");
        }
        Parts url = new Parts();
        if (rawUrl.equals("*")) {
            url.path = "*";
            return url;
        }
        String rest = url.takeScheme(rawUrl);
        if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) {
            url.forceQuery = true;
            rest = rest.substring(0, rest.length() - 1);
        } else {
            int q = rest.indexOf('?');
            if (q >= 0) {
                url.rawQuery = rest.substring(q + 1);
                rest = rest.substring(0, q);
            }
        }
        if (!rest.startsWith("/")) {
            if (!url.scheme.isEmpty()) {
                url.opaque = rest;
                return url;
            }
            if (viaRequest) {
                throw new UrlException("invalid URI for request");
            }
            int slash = rest.indexOf('/');
            String segment = slash < 0 ? rest : rest.substring(0, slash);
            if (segment.contains(":")) {
                throw new UrlException("first path segment in URL cannot contain colon");
            }
        }
        if ((!url.scheme.isEmpty() || !viaRequest && !rest.startsWith("///")) && rest.startsWith("//")) {
            String authority = rest.substring(2);
            rest = "";
            int slash = authority.indexOf('/');
            if (slash >= 0) {
                rest = authority.substring(slash);
                authority = authority.substring(0, slash);
            }
            url.parseAuthority(authority);
        } else if (!url.scheme.isEmpty() && rest.startsWith("/")) {
            url.omitHost = true;
        }
        url.setPath(rest);
        return url;
    }

    /** The URL's components while parsing; copied into the immutable URL at the end. */
    private static final class Parts {
        private String scheme = "";
        private String opaque = "";
        private String username;
        private String password;
        private boolean passwordSet;
        private String host = "";
        private String path = "";
        private String rawPath = "";
        private String fragment = "";
        private String rawFragment = "";
        private String rawQuery = "";
        private boolean forceQuery;
        private boolean omitHost;

        /** Go's getScheme; returns the rest of the URL. */
        private String takeScheme(String rawUrl) throws UrlException {
            for (int i = 0; i < rawUrl.length(); i++) {
                char c = rawUrl.charAt(i);
                if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
                    continue;
                }
                if (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
                    if (i == 0) {
                        return rawUrl;
                    }
                    continue;
                }
                if (c == ':') {
                    if (i == 0) {
                        throw new UrlException("missing protocol scheme");
                    }
                    scheme = asciiLower(rawUrl.substring(0, i));
                    return rawUrl.substring(i + 1);
                }
                return rawUrl;
            }
            return rawUrl;
        }

        private void parseAuthority(String authority) throws UrlException {
            int at = authority.lastIndexOf('@');
            host = parseHost(at < 0 ? authority : authority.substring(at + 1));
            if (at < 0) {
                return;
            }
            String userinfo = authority.substring(0, at);
            if (!validUserinfo(userinfo)) {
                throw new UrlException("net/url: invalid userinfo");
            }
            int colon = userinfo.indexOf(':');
            if (colon < 0) {
                username = unescape(userinfo, Mode.USER_PASSWORD);
            } else {
                username = unescape(userinfo.substring(0, colon), Mode.USER_PASSWORD);
                password = unescape(userinfo.substring(colon + 1), Mode.USER_PASSWORD);
                passwordSet = true;
            }
        }

        private String parseHost(String h) throws UrlException {
            int open = h.lastIndexOf('[');
            if (open > 0) {
                throw new UrlException("invalid IP-literal");
            } else if (open == 0) {
                int close = h.lastIndexOf(']');
                if (close < 0) {
                    throw new UrlException("missing ']' in host");
                }
                String colonPort = h.substring(close + 1);
                if (!validOptionalPort(colonPort)) {
                    throw new UrlException("invalid port " + quote(colonPort) + " after host");
                }
                String unescapedColonPort = unescape(colonPort, Mode.HOST);
                String hostname = h.substring(1, close);
                String unescapedHostname;
                int zoneIdx = hostname.indexOf("%25");
                if (zoneIdx >= 0) {
                    unescapedHostname = unescape(hostname.substring(0, zoneIdx), Mode.HOST)
                            + unescape(hostname.substring(zoneIdx), Mode.ZONE);
                } else {
                    unescapedHostname = unescape(hostname, Mode.HOST);
                }
                IpAddress addr;
                try {
                    addr = IpAddress.parse(utf8(unescapedHostname));
                } catch (IllegalArgumentException e) {
                    throw new UrlException("invalid host: " + e.getMessage());
                }
                if (addr.is4()) {
                    throw new UrlException("invalid IP-literal");
                }
                return "[" + unescapedHostname + "]" + unescapedColonPort;
            } else {
                int i = h.indexOf(':');
                if (i >= 0) {
                    int lastColon = h.lastIndexOf(':');
                    // Since Go 1.26 http(s) hosts keep the first colon (urlstrictcolons); others use the last.
                    if (lastColon != i && !scheme.equals("http") && !scheme.equals("https")) {
                        i = lastColon;
                    }
                    String colonPort = h.substring(i);
                    if (!validOptionalPort(colonPort)) {
                        throw new UrlException("invalid port " + quote(colonPort) + " after host");
                    }
                }
            }
            return unescape(h, Mode.HOST);
        }

        private void setPath(String p) throws UrlException {
            path = unescape(p, Mode.PATH);
            rawPath = escape(path, Mode.PATH).equals(p) ? "" : p;
        }

        private void setFragment(String f) throws UrlException {
            fragment = unescape(f, Mode.FRAGMENT);
            rawFragment = escape(fragment, Mode.FRAGMENT).equals(f) ? "" : f;
        }
    }

    /** The scheme, lower-cased. */
    public String scheme() {
        return utf8(scheme);
    }

    /** Host or host:port. */
    public String host() {
        return utf8(host);
    }

    /** Go's {@code Hostname()}: the host without port and without IPv6 brackets. */
    public String hostname() {
        return utf8(splitHostPort(host)[0]);
    }

    /** Go's {@code Port()}: the port digits, or empty. */
    public String port() {
        return utf8(splitHostPort(host)[1]);
    }

    /** Go's {@code EscapedPath()}. */
    public String escapedPath() {
        return utf8(escapedPathBytes());
    }

    private String escapedPathBytes() {
        if (!rawPath.isEmpty() && validEncoded(rawPath, Mode.PATH)) {
            try {
                if (unescape(rawPath, Mode.PATH).equals(path)) {
                    return rawPath;
                }
            } catch (UrlException ignored) {
                // fall through to re-escaping the decoded path, as upstream does
            }
        }
        if (path.equals("*")) {
            return "*";
        }
        return escape(path, Mode.PATH);
    }

    private String escapedFragment() {
        if (!rawFragment.isEmpty() && validEncoded(rawFragment, Mode.FRAGMENT)) {
            try {
                if (unescape(rawFragment, Mode.FRAGMENT).equals(fragment)) {
                    return rawFragment;
                }
            } catch (UrlException ignored) {
                // fall through to re-escaping the decoded fragment, as upstream does
            }
        }
        return escape(fragment, Mode.FRAGMENT);
    }

    /**
     * Go's {@code Query()}: the query parameters in order of first appearance; malformed pairs (bad escapes, a
     * {@code ;}) are dropped silently, as upstream ignores the parse error.
     */
    public Map<String, List<String>> query() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        String q = rawQuery;
        int pairs = 1;
        for (int i = 0; i < q.length(); i++) {
            pairs += q.charAt(i) == '&' ? 1 : 0;
        }
        if (pairs > 10_000) {
            return m;
        }
        while (!q.isEmpty()) {
            int amp = q.indexOf('&');
            String key = amp < 0 ? q : q.substring(0, amp);
            q = amp < 0 ? "" : q.substring(amp + 1);
            if (key.contains(";") || key.isEmpty()) {
                continue;
            }
            int eq = key.indexOf('=');
            String value = eq < 0 ? "" : key.substring(eq + 1);
            key = eq < 0 ? key : key.substring(0, eq);
            try {
                String k = utf8(unescape(key, Mode.QUERY_COMPONENT));
                String v = utf8(unescape(value, Mode.QUERY_COMPONENT));
                m.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
            } catch (UrlException skipped) {
                // upstream skips pairs that do not unescape
            }
        }
        return m;
    }

    /** Go's {@code URL.String()}. */
    @Override
    public String toString() {
        StringBuilder buf = new StringBuilder();
        if (!scheme.isEmpty()) {
            buf.append(scheme).append(':');
        }
        if (!opaque.isEmpty()) {
            buf.append(opaque);
        } else {
            if (!scheme.isEmpty() || !host.isEmpty() || username != null) {
                if (!(omitHost && host.isEmpty() && username == null)) {
                    if (!host.isEmpty() || !path.isEmpty() || username != null) {
                        buf.append("//");
                    }
                    if (username != null) {
                        buf.append(escape(username, Mode.USER_PASSWORD));
                        if (passwordSet) {
                            buf.append(':').append(escape(password, Mode.USER_PASSWORD));
                        }
                        buf.append('@');
                    }
                    if (!host.isEmpty()) {
                        buf.append(escape(host, Mode.HOST));
                    }
                }
            }
            String p = escapedPathBytes();
            if (!p.isEmpty() && p.charAt(0) != '/' && !host.isEmpty()) {
                buf.append('/');
            }
            if (buf.length() == 0) {
                int slash = p.indexOf('/');
                if ((slash < 0 ? p : p.substring(0, slash)).contains(":")) {
                    buf.append("./");
                }
            }
            buf.append(p);
        }
        if (forceQuery || !rawQuery.isEmpty()) {
            buf.append('?').append(rawQuery);
        }
        if (!fragment.isEmpty()) {
            buf.append('#').append(escapedFragment());
        }
        return utf8(buf.toString());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GoUrl other && toString().equals(other.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    private static String[] splitHostPort(String hostPort) {
        String h = hostPort;
        String port = "";
        int colon = h.lastIndexOf(':');
        if (colon >= 0 && validOptionalPort(h.substring(colon))) {
            port = h.substring(colon + 1);
            h = h.substring(0, colon);
        }
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return new String[] {h, port};
    }

    private static boolean validOptionalPort(String port) {
        if (port.isEmpty()) {
            return true;
        }
        if (port.charAt(0) != ':') {
            return false;
        }
        for (int i = 1; i < port.length(); i++) {
            if (port.charAt(i) < '0' || port.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean validUserinfo(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z'
                    || c >= 'a' && c <= 'z'
                    || c >= '0' && c <= '9'
                    || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0) {
                continue;
            }
            return false;
        }
        return true;
    }

    private static boolean validEncoded(String s, Mode mode) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ("!$&'()*+,;=:@[]%".indexOf(c) >= 0) {
                continue;
            }
            if (shouldEscape(c, mode)) {
                return false;
            }
        }
        return true;
    }

    private static boolean shouldEscape(char c, Mode mode) {
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
            return false;
        }
        if ((mode == Mode.HOST || mode == Mode.ZONE) && "!$&'()*+,;=:[]<>\"".indexOf(c) >= 0) {
            return false;
        }
        if ("-_.~".indexOf(c) >= 0) {
            return false;
        }
        if ("$&+,/:;=?@".indexOf(c) >= 0) {
            switch (mode) {
                case PATH:
                    return c == '?';
                case PATH_SEGMENT:
                    return c == '/' || c == ';' || c == ',' || c == '?';
                case USER_PASSWORD:
                    return c == '@' || c == '/' || c == '?' || c == ':';
                case QUERY_COMPONENT:
                    return true;
                case FRAGMENT:
                    return false;
                default:
                    break;
            }
        }
        if (mode == Mode.FRAGMENT && "!()*".indexOf(c) >= 0) {
            return false;
        }
        return true;
    }

    private static boolean isHex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private static int unhex(char c) {
        return Character.digit(c, 16);
    }

    private static String unescape(String s, Mode mode) throws UrlException {
        int n = 0;
        boolean hasPlus = false;
        for (int i = 0; i < s.length(); ) {
            char c = s.charAt(i);
            if (c == '%') {
                n++;
                if (i + 2 >= s.length() || !isHex(s.charAt(i + 1)) || !isHex(s.charAt(i + 2))) {
                    String bad = s.substring(i);
                    throw escapeError(bad.length() > 3 ? bad.substring(0, 3) : bad);
                }
                if (mode == Mode.HOST && unhex(s.charAt(i + 1)) < 8 && !s.startsWith("%25", i)) {
                    throw escapeError(s.substring(i, i + 3));
                }
                if (mode == Mode.ZONE) {
                    char v = (char) (unhex(s.charAt(i + 1)) << 4 | unhex(s.charAt(i + 2)));
                    if (!s.startsWith("%25", i) && v != ' ' && shouldEscape(v, Mode.HOST)) {
                        throw escapeError(s.substring(i, i + 3));
                    }
                }
                i += 3;
            } else if (c == '+') {
                hasPlus = mode == Mode.QUERY_COMPONENT;
                i++;
            } else {
                if ((mode == Mode.HOST || mode == Mode.ZONE) && c < 0x80 && shouldEscape(c, mode)) {
                    throw new UrlException("invalid character " + quote(s.substring(i, i + 1)) + " in host name");
                }
                i++;
            }
        }
        if (n == 0 && !hasPlus) {
            return s;
        }
        StringBuilder t = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                t.append((char) (unhex(s.charAt(i + 1)) << 4 | unhex(s.charAt(i + 2))));
                i += 2;
            } else if (c == '+') {
                t.append(mode == Mode.QUERY_COMPONENT ? ' ' : '+');
            } else {
                t.append(c);
            }
        }
        return t.toString();
    }

    private static UrlException escapeError(String s) {
        return new UrlException("invalid URL escape " + quote(s));
    }

    private static String escape(String s, Mode mode) {
        StringBuilder t = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' && mode == Mode.QUERY_COMPONENT) {
                t.append('+');
            } else if (shouldEscape(c, mode)) {
                t.append('%').append("0123456789ABCDEF".charAt(c >> 4)).append("0123456789ABCDEF".charAt(c & 15));
            } else {
                t.append(c);
            }
        }
        return t.toString();
    }

    private static String asciiLower(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
        }
        return b.toString();
    }

    /** UTF-8 text to a byte string. */
    private static String bytes(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /** A byte string back to text (invalid UTF-8 becomes U+FFFD). */
    private static String utf8(String b) {
        return new String(b.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private static String quote(String byteString) {
        return GoQuote.quote(utf8(byteString));
    }
}
