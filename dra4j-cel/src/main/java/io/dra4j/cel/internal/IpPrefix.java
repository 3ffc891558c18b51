package io.dra4j.cel.internal;

/**
 * An IP network prefix with the behaviour of Go's {@code net/netip.Prefix}, the value behind the Kubernetes CEL
 * {@code net.CIDR} type. The address keeps its host bits ({@code 10.1.2.3/8} stays as written) until
 * {@link #masked()}.
 */
public final class IpPrefix {

    private final IpAddress addr;
    private final int bits;

    private IpPrefix(IpAddress addr, int bits) {
        this.addr = addr;
        this.bits = bits;
    }

    /**
     * Go's {@code netip.ParsePrefix}.
     *
     * @throws IllegalArgumentException with upstream's error text
     */
    public static IpPrefix parse(String s) {
        int slash = s.lastIndexOf('/');
        if (slash < 0) {
            throw error(s, "no '/'");
        }
        IpAddress ip;
        try {
            ip = IpAddress.parse(s.substring(0, slash));
        } catch (IllegalArgumentException e) {
            throw error(s, e.getMessage());
        }
        if (ip.is6() && !ip.zone().isEmpty()) {
            throw error(s, "IPv6 zones cannot be present in a prefix");
        }
        String bitsStr = s.substring(slash + 1);
        if (bitsStr.length() > 1 && (bitsStr.charAt(0) < '1' || bitsStr.charAt(0) > '9')) {
            throw error(s, "bad bits after slash: " + GoQuote.quote(bitsStr));
        }
        Long bits = parseAtoi(bitsStr);
        if (bits == null) {
            throw error(s, "bad bits after slash: " + GoQuote.quote(bitsStr));
        }
        int maxBits = ip.is6() ? 128 : 32;
        if (bits < 0 || bits > maxBits) {
            throw error(s, "prefix length out of range");
        }
        return new IpPrefix(ip.withoutZone(), (int) (long) bits);
    }

    /** Go's strconv.Atoi: optional sign and ASCII digits, within int64. */
    private static Long parseAtoi(String s) {
        int start = !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
        if (start == s.length()) {
            return null;
        }
        for (int i = start; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return null;
            }
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static IllegalArgumentException error(String in, String msg) {
        return new IllegalArgumentException("netip.ParsePrefix(" + GoQuote.quote(in) + "): " + msg);
    }

    public IpAddress addr() {
        return addr;
    }

    public int bits() {
        return bits;
    }

    /** The prefix with host bits cleared. */
    public IpPrefix masked() {
        return new IpPrefix(addr.masked(bits), bits);
    }

    /** Whether the address (same family, no zone) lies in this prefix. */
    public boolean contains(IpAddress ip) {
        if (!ip.zone().isEmpty() || ip.bitLength() != addr.bitLength()) {
            return false;
        }
        return ip.masked(bits).equals(addr.masked(bits));
    }

    /** Whether the two prefixes share any address. */
    public boolean overlaps(IpPrefix o) {
        if (equals(o)) {
            return true;
        }
        if (addr.is4() != o.addr.is4()) {
            return false;
        }
        int minBits = Math.min(bits, o.bits);
        if (minBits == 0) {
            return true;
        }
        return addr.masked(minBits).equals(o.addr.masked(minBits));
    }

    @Override
    public String toString() {
        return addr + "/" + bits;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpPrefix other && bits == other.bits && addr.equals(other.addr);
    }

    @Override
    public int hashCode() {
        return addr.hashCode() * 31 + bits;
    }
}
