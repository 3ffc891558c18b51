package io.dra4j.scenario;

/** Builds the field paths used in error messages: {@code spec.devices[0].capacity.memory}. */
final class Where {
    private Where() {}

    static String field(String path, String name) {
        boolean plain = plain(name);
        String part = plain ? name : "\"" + name + "\"";
        if (path.isEmpty()) {
            return part;
        }
        return plain ? path + "." + part : path + "[" + part + "]";
    }

    /** Whether the key is written bare: one or more of {@code [A-Za-z0-9_-]}. */
    private static boolean plain(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    static String index(String path, int i) {
        return path + "[" + i + "]";
    }
}
