package io.dra4j.kubelet.cdi;

import java.util.regex.Pattern;

/** The CDI name rules for vendors, classes, device names and fully qualified device IDs ({@code vendor/class=name}). */
public final class CdiNames {
    private static final Pattern VENDOR = Pattern.compile("[A-Za-z]([A-Za-z0-9_.-]*[A-Za-z0-9])?");
    private static final Pattern CLASS = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9_.:-]*[A-Za-z0-9])?");

    private CdiNames() {}

    public static void checkVendor(String vendor) {
        if (vendor == null || !VENDOR.matcher(vendor).matches()) {
            throw new IllegalArgumentException("invalid CDI vendor " + quote(vendor)
                    + ": it starts with a letter, ends with a letter or digit and has letters, digits, '_', '-', '.'");
        }
    }

    public static void checkClass(String clazz) {
        if (clazz == null || !CLASS.matcher(clazz).matches() || clazz.length() > 63) {
            throw new IllegalArgumentException("invalid CDI class " + quote(clazz)
                    + ": at most 63 characters, alphanumeric at both ends, with '_', '-', '.' between");
        }
    }

    public static void checkDeviceName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid CDI device name " + quote(name)
                    + ": alphanumeric at both ends, with '_', '-', '.', ':' between");
        }
    }

    /** Null when {@code id} is a valid fully qualified CDI device ID, else what is wrong with it. */
    public static String qualifiedIdProblem(String id) {
        int slash = id.indexOf('/');
        int eq = id.indexOf('=');
        if (slash <= 0 || eq < slash + 2 || eq == id.length() - 1) {
            return "CDI device ID " + quote(id) + " is not of the form vendor/class=name";
        }
        try {
            checkVendor(id.substring(0, slash));
            checkClass(id.substring(slash + 1, eq));
            checkDeviceName(id.substring(eq + 1));
            return null;
        } catch (IllegalArgumentException e) {
            return "CDI device ID " + quote(id) + ": " + e.getMessage();
        }
    }

    private static String quote(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }
}
