package io.dra4j.migrate.internal;

import java.util.regex.Pattern;

/** Field paths as Kubernetes error messages write them: {@code spec.devices.requests[0].exactly}. */
public final class Paths {
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z0-9_-]+");

    private Paths() {}

    public static String field(String path, String name) {
        if (!PLAIN_KEY.matcher(name).matches()) {
            return path + "[\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
        }
        return path.isEmpty() ? name : path + "." + name;
    }

    public static String index(String path, int i) {
        return path + "[" + i + "]";
    }

    /** The path one step up; the empty path for a top-level field. */
    static String parent(String path) {
        int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        return cut <= 0 ? "" : path.substring(0, cut);
    }
}
