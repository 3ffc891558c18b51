package io.dra4j.scenario;

import java.util.regex.Pattern;

/** Builds the field paths used in error messages: {@code spec.devices[0].capacity.memory}. */
final class Where {
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z0-9_-]+");

    private Where() {
    }

    static String field(String path, String name) {
        String part = PLAIN_KEY.matcher(name).matches() ? name : "\"" + name + "\"";
        if (path.isEmpty()) {
            return part;
        }
        return PLAIN_KEY.matcher(name).matches() ? path + "." + part : path + "[" + part + "]";
    }

    static String index(String path, int i) {
        return path + "[" + i + "]";
    }
}
