package io.dra4j.cel.internal;

import java.util.Arrays;

/**
 * An IP address with the parsing, printing and classification of Go's {@code net/netip.Addr}, the value behind
 * the Kubernetes CEL {@code net.IP} type. Immutable; equality compares family, bytes and zone.
 */
public final class IpAddress {

    private final byte[] bytes;
    private final String zone;

    private IpAddress(byte[] bytes, String zone) {
        this.bytes = bytes;
        this.zone = zone;
    }

    /**
     * Go's {@code netip.ParseAddr}.
     *
     * @throws IllegalArgumentException with upstream's error text
     */
    public static IpAddress parse(String s) {
        for (int i = 0; i < s.length(); i++) {
            switch (s.charAt(i)) {
                case '.':
                    return parseIPv4(s);
                case ':':
                    return parseIPv6(s);
                case '%':
                    throw parseError(s, "missing IPv6 address", "");
                default:
                    break;
            }
        }
        throw parseError(s, "unable to parse IP", "");
    }

    private static IllegalArgumentException parseError(String in, String msg, String at) {
        String text = "ParseAddr(" + GoQuote.quote(in) + "): " + msg;
        if (!at.isEmpty()) {
            text += " (at " + GoQuote.quote(at) + ")";
        }
        return new IllegalArgumentException(text);
    }

    private static IpAddress parseIPv4(String s) {
        byte[] fields = new byte[4];
        parseIPv4Fields(s, 0, s.length(), fields, 0);
        return new IpAddress(fields, null);
    }

    private static void parseIPv4Fields(String in, int off, int end, byte[] fields, int at) {
        String s = in.substring(off, end);
        int val = 0;
        int pos = 0;
        int digLen = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                if (digLen == 1 && val == 0) {
                    throw parseError(in, "IPv4 field has octet with leading zero", "");
                }
                val = val * 10 + (c - '0');
                digLen++;
                if (val > 255) {
                    throw parseError(in, "IPv4 field has value >255", "");
                }
            } else if (c == '.') {
                if (i == 0 || i == s.length() - 1 || s.charAt(i - 1) == '.') {
                    throw parseError(in, "IPv4 field must have at least one digit", s.substring(i));
                }
                if (pos == 3) {
                    throw parseError(in, "IPv4 address too long", "");
                }
                fields[at + pos] = (byte) val;
                pos++;
                val = 0;
                digLen = 0;
            } else {
                throw parseError(in, "unexpected character", s.substring(i));
            }
        }
        if (pos < 3) {
            throw parseError(in, "IPv4 address too short", "");
        }
        fields[at + 3] = (byte) val;
    }

    private static IpAddress parseIPv6(String in) {
        String s = in;
        String zone = null;
        int pct = s.indexOf('%');
        if (pct >= 0) {
            zone = s.substring(pct + 1);
            s = s.substring(0, pct);
            if (zone.isEmpty()) {
                throw parseError(in, "zone must be a non-empty string", "");
            }
        }
        byte[] ip = new byte[16];
        int ellipsis = -1;
        if (s.length() >= 2 && s.charAt(0) == ':' && s.charAt(1) == ':') {
            ellipsis = 0;
            s = s.substring(2);
            if (s.isEmpty()) {
                return new IpAddress(ip, zone);
            }
        }
        int i = 0;
        while (i < 16) {
            int off = 0;
            int acc = 0;
            for (; off < s.length(); off++) {
                int d = Character.digit(s.charAt(off), 16);
                if (d < 0 || s.charAt(off) > 'f') {
                    break;
                }
                acc = (acc << 4) + d;
                if (off > 3) {
                    throw parseError(in, "each group must have 4 or less digits", s);
                }
                if (acc > 0xFFFF) {
                    throw parseError(in, "IPv6 field has value >=2^16", s);
                }
            }
            if (off == 0) {
                throw parseError(in, "each colon-separated field must have at least one digit", s);
            }
            if (off < s.length() && s.charAt(off) == '.') {
                if (ellipsis < 0 && i != 12) {
                    throw parseError(in, "embedded IPv4 address must replace the final 2 fields of the address", s);
                }
                if (i + 4 > 16) {
                    throw parseError(in, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
                }
                int end = in.length();
                if (zone != null) {
                    end -= zone.length() + 1;
                }
                parseIPv4Fields(in, end - s.length(), end, ip, i);
                s = "";
                i += 4;
                break;
            }
            ip[i] = (byte) (acc >> 8);
            ip[i + 1] = (byte) acc;
            i += 2;
            s = s.substring(off);
            if (s.isEmpty()) {
                break;
            }
            if (s.charAt(0) != ':') {
                throw parseError(in, "unexpected character, want colon", s);
            } else if (s.length() == 1) {
                throw parseError(in, "colon must be followed by more characters", s);
            }
            s = s.substring(1);
            if (s.charAt(0) == ':') {
                if (ellipsis >= 0) {
                    throw parseError(in, "multiple :: in address", s);
                }
                ellipsis = i;
                s = s.substring(1);
                if (s.isEmpty()) {
                    break;
                }
            }
        }
        if (!s.isEmpty()) {
            throw parseError(in, "trailing garbage after address", s);
        }
        if (i < 16) {
            if (ellipsis < 0) {
                throw parseError(in, "address string too short", "");
            }
            int n = 16 - i;
            for (int j = i - 1; j >= ellipsis; j--) {
                ip[j + n] = ip[j];
            }
            Arrays.fill(ip, ellipsis, ellipsis + n, (byte) 0);
        } else if (ellipsis >= 0) {
            throw parseError(in, "the :: must expand to at least one field of zeros", "");
        }
        return new IpAddress(ip, zone);
    }

    /** The address with all bits after the first {@code bits} cleared (zone dropped). */
    IpAddress masked(int bits) {
        byte[] out = bytes.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            out[i] = (byte) (out[i] & (0xFF << (8 - keep)));
        }
        return new IpAddress(out, null);
    }

    IpAddress withoutZone() {
        return zone == null ? this : new IpAddress(bytes, null);
    }

    public boolean is4() {
        return bytes.length == 4;
    }

    public boolean is6() {
        return bytes.length == 16;
    }

    /** An IPv6 address of the form {@code ::ffff:a.b.c.d}. */
    public boolean is4In6() {
        if (!is6()) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xFF && bytes[11] == (byte) 0xFF;
    }

    public String zone() {
        return zone == null ? "" : zone;
    }

    int bitLength() {
        return bytes.length * 8;
    }

    private IpAddress unmap() {
        return is4In6() ? new IpAddress(Arrays.copyOfRange(bytes, 12, 16), null) : this;
    }

    private int u16(int group) {
        return ((bytes[2 * group] & 0xFF) << 8) | (bytes[2 * group + 1] & 0xFF);
    }

    public boolean isUnspecified() {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return zone == null;
    }

    public boolean isLoopback() {
        IpAddress ip = unmap();
        if (ip.is4()) {
            return (ip.bytes[0] & 0xFF) == 127;
        }
        for (int i = 0; i < 15; i++) {
            if (ip.bytes[i] != 0) {
                return false;
            }
        }
        return ip.bytes[15] == 1;
    }

    boolean isMulticast() {
        IpAddress ip = unmap();
        if (ip.is4()) {
            return (ip.bytes[0] & 0xF0) == 0xE0;
        }
        return (ip.bytes[0] & 0xFF) == 0xFF;
    }

    public boolean isLinkLocalMulticast() {
        IpAddress ip = unmap();
        if (ip.is4()) {
            return (ip.bytes[0] & 0xFF) == 224 && ip.bytes[1] == 0 && ip.bytes[2] == 0;
        }
        return (ip.u16(0) & 0xFF0F) == 0xFF02;
    }

    public boolean isLinkLocalUnicast() {
        IpAddress ip = unmap();
        if (ip.is4()) {
            return (ip.bytes[0] & 0xFF) == 169 && (ip.bytes[1] & 0xFF) == 254;
        }
        return (ip.u16(0) & 0xFFC0) == 0xFE80;
    }

    public boolean isGlobalUnicast() {
        IpAddress ip = unmap();
        if (ip.is4()) {
            boolean allZero = true;
            boolean allOnes = true;
            for (byte b : ip.bytes) {
                allZero &= b == 0;
                allOnes &= b == (byte) 0xFF;
            }
            if (allZero || allOnes) {
                return false;
            }
        } else if (ip.isUnspecified()) {
            return false;
        }
        return !ip.isLoopback() && !ip.isMulticast() && !ip.isLinkLocalUnicast();
    }

    /** Go's {@code Addr.String()}: dotted quad, RFC 5952 IPv6, {@code ::ffff:a.b.c.d} for mapped IPv4. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        if (is4()) {
            appendIPv4(b, bytes, 0);
            return b.toString();
        }
        if (is4In6()) {
            b.append("::ffff:");
            appendIPv4(b, bytes, 12);
        } else {
            appendIPv6(b);
        }
        if (zone != null) {
            b.append('%').append(zone);
        }
        return b.toString();
    }

    private static void appendIPv4(StringBuilder b, byte[] src, int at) {
        for (int i = 0; i < 4; i++) {
            if (i > 0) {
                b.append('.');
            }
            b.append(src[at + i] & 0xFF);
        }
    }

    /** The longest run of two or more zero groups (the first one on ties) is written as {@code ::}. */
    private void appendIPv6(StringBuilder b) {
        int zeroStart = 255;
        int zeroEnd = 255;
        for (int i = 0; i < 8; i++) {
            int j = i;
            while (j < 8 && u16(j) == 0) {
                j++;
            }
            int l = j - i;
            if (l >= 2 && l > zeroEnd - zeroStart) {
                zeroStart = i;
                zeroEnd = j;
            }
        }
        for (int i = 0; i < 8; i++) {
            if (i == zeroStart) {
                b.append("::");
                i = zeroEnd;
                if (i >= 8) {
                    break;
                }
            } else if (i > 0) {
                b.append(':');
            }
            b.append(Integer.toHexString(u16(i)));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpAddress other
                && Arrays.equals(bytes, other.bytes)
                && java.util.Objects.equals(zone, other.zone);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes) * 31 + java.util.Objects.hashCode(zone);
    }
}
