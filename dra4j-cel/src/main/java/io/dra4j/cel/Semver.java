package io.dra4j.cel;

import io.dra4j.cel.internal.GoQuote;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A semantic version as parsed by blang/semver v4 {@code Parse} (strict SemVer 2.0.0), which Kubernetes uses for
 * DRA version attributes and the CEL {@code semver()} function; {@link #parseNormalized} is the lenient variant of
 * the Kubernetes CEL {@code semver(s, true)}.
 *
 * <p>Numbers are unsigned 64-bit values kept in a {@code long} (read them with {@link Long#toUnsignedString}).
 * Ordering and equality follow SemVer precedence, so build metadata is ignored; {@link #toString()} rebuilds the
 * version text as upstream's {@code String()} does.
 */
public final class Semver implements Comparable<Semver> {

    private static final String NUMBERS = "0123456789";
    private static final String ALPHANUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-" + NUMBERS;

    private final long major;
    private final long minor;
    private final long patch;
    private final List<PreRelease> pre;
    private final List<String> build;

    private Semver(long major, long minor, long patch, List<PreRelease> pre, List<String> build) {
        this.major = major;
        this.minor = minor;
        this.patch = patch;
        this.pre = List.copyOf(pre);
        this.build = List.copyOf(build);
    }

    /** One dot-separated pre-release identifier: numeric identifiers order numerically and before text ones. */
    private record PreRelease(String text, long number, boolean numeric) implements Comparable<PreRelease> {

        static PreRelease parse(String s) {
            if (s.isEmpty()) {
                throw new IllegalArgumentException("Prerelease is empty");
            }
            if (containsOnly(s, NUMBERS)) {
                if (hasLeadingZeroes(s)) {
                    throw new IllegalArgumentException(
                            "Numeric PreRelease version must not contain leading zeroes " + GoQuote.quote(s));
                }
                return new PreRelease("", parseUint(s), true);
            }
            if (containsOnly(s, ALPHANUM)) {
                return new PreRelease(s, 0, false);
            }
            throw new IllegalArgumentException("Invalid character(s) found in prerelease " + GoQuote.quote(s));
        }

        @Override
        public int compareTo(PreRelease o) {
            if (numeric != o.numeric) {
                return numeric ? -1 : 1;
            }
            if (numeric) {
                return Integer.signum(Long.compareUnsigned(number, o.number));
            }
            return Integer.signum(text.compareTo(o.text));
        }

        @Override
        public String toString() {
            return numeric ? Long.toUnsignedString(number) : text;
        }
    }

    /**
     * Parses a strict semantic version ({@code MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]}).
     *
     * @throws IllegalArgumentException with upstream's error text
     */
    public static Semver parse(String s) {
        Objects.requireNonNull(s, "s");
        if (s.isEmpty()) {
            throw new IllegalArgumentException("Version string empty");
        }
        String[] parts = splitN(s, 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("No Major.Minor.Patch elements found");
        }
        long major = versionNumber(parts[0], "major");
        long minor = versionNumber(parts[1], "minor");
        String patchStr = parts[2];
        List<String> buildParts = List.of();
        int buildIndex = patchStr.indexOf('+');
        if (buildIndex >= 0) {
            buildParts = List.of(patchStr.substring(buildIndex + 1).split("\\.", -1));
            patchStr = patchStr.substring(0, buildIndex);
        }
        List<String> preParts = List.of();
        int preIndex = patchStr.indexOf('-');
        if (preIndex >= 0) {
            preParts = List.of(patchStr.substring(preIndex + 1).split("\\.", -1));
            patchStr = patchStr.substring(0, preIndex);
        }
        long patch = versionNumber(patchStr, "patch");
        List<PreRelease> pre = new ArrayList<>();
        for (String p : preParts) {
            pre.add(PreRelease.parse(p));
        }
        for (String b : buildParts) {
            if (b.isEmpty()) {
                throw new IllegalArgumentException("Build meta data is empty");
            }
            if (!containsOnly(b, ALPHANUM)) {
                throw new IllegalArgumentException("Invalid character(s) found in build meta data " + GoQuote.quote(b));
            }
        }
        return new Semver(major, minor, patch, pre, buildParts);
    }

    /**
     * Parses leniently as the Kubernetes CEL {@code semver(s, true)}: drops a leading {@code v}, strips leading
     * zeroes of the first three parts and fills missing minor/patch with zero, then parses strictly.
     *
     * @throws IllegalArgumentException with upstream's error text
     */
    public static Semver parseNormalized(String s) {
        Objects.requireNonNull(s, "s");
        String trimmed = s.startsWith("v") ? s.substring(1) : s;
        String[] parts = splitN(trimmed, 3);
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (p.length() > 1) {
                p = stripLeadingZeroes(p);
                if (p.isEmpty() || NUMBERS.indexOf(p.charAt(0)) < 0) {
                    p = "0" + p;
                }
                parts[i] = p;
            }
        }
        List<String> filled = new ArrayList<>(List.of(parts));
        if (filled.size() < 3) {
            String last = filled.get(filled.size() - 1);
            if (last.indexOf('+') >= 0 || last.indexOf('-') >= 0) {
                throw new IllegalArgumentException("short version cannot contain PreRelease/Build meta data");
            }
            while (filled.size() < 3) {
                filled.add("0");
            }
        }
        return parse(String.join(".", filled));
    }

    /** Whether {@link #parse} accepts the string. */
    public static boolean isValid(String s) {
        if (isPlainCore(s)) {
            return true;
        }
        try {
            parse(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The major number (unsigned). */
    public long major() {
        return major;
    }

    /** The minor number (unsigned). */
    public long minor() {
        return minor;
    }

    /** The patch number (unsigned). */
    public long patch() {
        return patch;
    }

    /** Precedence comparison (-1, 0, 1); build metadata is ignored. */
    @Override
    public int compareTo(Semver o) {
        int c = Long.compareUnsigned(major, o.major);
        if (c == 0) {
            c = Long.compareUnsigned(minor, o.minor);
        }
        if (c == 0) {
            c = Long.compareUnsigned(patch, o.patch);
        }
        if (c != 0) {
            return Integer.signum(c);
        }
        if (pre.isEmpty() || o.pre.isEmpty()) {
            return pre.isEmpty() == o.pre.isEmpty() ? 0 : (pre.isEmpty() ? 1 : -1);
        }
        int n = Math.min(pre.size(), o.pre.size());
        for (int i = 0; i < n; i++) {
            int p = pre.get(i).compareTo(o.pre.get(i));
            if (p != 0) {
                return p;
            }
        }
        return Integer.signum(Integer.compare(pre.size(), o.pre.size()));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Semver other && compareTo(other) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(major, minor, patch, pre);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        b.append(Long.toUnsignedString(major))
                .append('.')
                .append(Long.toUnsignedString(minor))
                .append('.')
                .append(Long.toUnsignedString(patch));
        if (!pre.isEmpty()) {
            b.append('-');
            for (int i = 0; i < pre.size(); i++) {
                b.append(i == 0 ? "" : ".").append(pre.get(i));
            }
        }
        if (!build.isEmpty()) {
            b.append('+').append(String.join(".", build));
        }
        return b.toString();
    }

    private static long versionNumber(String s, String which) {
        if (!containsOnly(s, NUMBERS)) {
            throw new IllegalArgumentException(
                    "Invalid character(s) found in " + which + " number " + GoQuote.quote(s));
        }
        if (hasLeadingZeroes(s)) {
            String label = Character.toUpperCase(which.charAt(0)) + which.substring(1);
            throw new IllegalArgumentException(label + " number must not contain leading zeroes " + GoQuote.quote(s));
        }
        return parseUint(s);
    }

    /** Go's strconv.ParseUint(s, 10, 64) on a string of ASCII digits, with its error text. */
    private static long parseUint(String s) {
        if (s.isEmpty()) {
            throw new IllegalArgumentException("strconv.ParseUint: parsing " + GoQuote.quote(s) + ": invalid syntax");
        }
        try {
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "strconv.ParseUint: parsing " + GoQuote.quote(s) + ": value out of range");
        }
    }

    /** Go's strings.SplitN(s, ".", n). */
    private static String[] splitN(String s, int n) {
        List<String> out = new ArrayList<>();
        int start = 0;
        while (out.size() < n - 1) {
            int dot = s.indexOf('.', start);
            if (dot < 0) {
                break;
            }
            out.add(s.substring(start, dot));
            start = dot + 1;
        }
        out.add(s.substring(start));
        return out.toArray(String[]::new);
    }

    private static String stripLeadingZeroes(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == '0') {
            i++;
        }
        return s.substring(i);
    }

    /**
     * Whether the string is MAJOR.MINOR.PATCH of at most 18 digits each without leading zeroes and nothing else, the
     * common form, which {@link #parse} always accepts; answered without building the parts.
     */
    private static boolean isPlainCore(String s) {
        int parts = 0;
        int i = 0;
        int n = s.length();
        while (true) {
            int start = i;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            int digits = i - start;
            if (digits == 0 || digits > 18 || (digits > 1 && s.charAt(start) == '0')) {
                return false;
            }
            parts++;
            if (i == n) {
                return parts == 3;
            }
            if (s.charAt(i) != '.' || parts == 3) {
                return false;
            }
            i++;
        }
    }

    private static boolean containsOnly(String s, String set) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 128 || set.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasLeadingZeroes(String s) {
        return s.length() > 1 && s.charAt(0) == '0';
    }
}
