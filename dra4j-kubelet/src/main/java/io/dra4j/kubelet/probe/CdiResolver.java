package io.dra4j.kubelet.probe;

import io.dra4j.kubelet.cdi.CdiNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Resolves fully qualified CDI device IDs against spec files in the CDI directories as a container runtime would
 * (files ending in .json or .yaml, no subdirectories), checking each file it reads: known {@code cdiVersion}, a
 * {@code kind} of {@code vendor/class}, valid device names, and a version no lower than the fields used need.
 */
final class CdiResolver {
    static final Set<String> KNOWN_VERSIONS =
            Set.of("0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0", "1.0.0", "1.1.0");

    private final List<Path> directories;
    private final ObjectMapper json = JsonMapper.builder().build();
    private final ObjectMapper yaml = YAMLMapper.builder().build();

    CdiResolver(List<Path> directories) {
        this.directories = List.copyOf(directories);
    }

    /** Null when {@code id} resolves to exactly one device in one valid spec file, else why not. */
    String problem(String id) {
        String syntax = CdiNames.qualifiedIdProblem(id);
        if (syntax != null) {
            return syntax;
        }
        String kind = id.substring(0, id.indexOf('='));
        String name = id.substring(id.indexOf('=') + 1);
        List<String> found = new ArrayList<>();
        for (Path dir : directories) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p ->
                                p.toString().endsWith(".json") || p.toString().endsWith(".yaml"))
                        .sorted()
                        .toList()) {
                    JsonNode spec;
                    try {
                        spec = (f.toString().endsWith(".json") ? json : yaml).readTree(Files.readString(f));
                    } catch (JacksonException e) {
                        if (mentions(f, name)) {
                            return "CDI spec " + f + " is not valid "
                                    + (f.toString().endsWith(".json") ? "JSON" : "YAML") + ": "
                                    + e.getOriginalMessage();
                        }
                        continue;
                    }
                    if (spec == null || !kind.equals(spec.path("kind").asString(""))) {
                        continue;
                    }
                    for (JsonNode d : spec.path("devices")) {
                        if (name.equals(d.path("name").asString(""))) {
                            String bad = checkSpec(f, spec);
                            if (bad != null) {
                                return bad;
                            }
                            found.add(f.toString());
                        }
                    }
                }
            } catch (IOException e) {
                return "cannot read CDI directory " + dir + ": " + e.getMessage();
            }
        }
        if (found.isEmpty()) {
            return "CDI device " + id + " is in no spec file of " + directories;
        }
        if (found.size() > 1
                && found.stream().map(s -> Path.of(s).getParent()).distinct().count() < found.size()) {
            return "CDI device " + id + " is defined in several files of one directory, which makes it unresolvable: "
                    + found;
        }
        return null;
    }

    private static boolean mentions(Path f, String name) {
        try {
            return Files.readString(f).contains(name);
        } catch (IOException e) {
            return false;
        }
    }

    private static String checkSpec(Path f, JsonNode spec) {
        String version = spec.path("cdiVersion").asString("");
        if (!KNOWN_VERSIONS.contains(version)) {
            return "CDI spec " + f + ": unknown cdiVersion \"" + version + "\"";
        }
        String min = "0.3.0";
        for (JsonNode d : spec.path("devices")) {
            String n = d.path("name").asString("");
            try {
                CdiNames.checkDeviceName(n);
            } catch (IllegalArgumentException e) {
                return "CDI spec " + f + ": " + e.getMessage();
            }
            if (!n.isEmpty() && !Character.isLetter(n.charAt(0))) {
                min = max(min, "0.5.0");
            }
            if (d.has("annotations")) {
                min = max(min, "0.6.0");
            }
            min = max(min, editsVersion(d.path("containerEdits")));
        }
        min = max(min, editsVersion(spec.path("containerEdits")));
        if (spec.has("annotations")) {
            min = max(min, "0.6.0");
        }
        String kind = spec.path("kind").asString("");
        if (kind.substring(kind.indexOf('/') + 1).contains(".")) {
            min = max(min, "0.6.0");
        }
        if (compare(version, min) < 0) {
            return "CDI spec " + f + " has cdiVersion " + version + " but its fields need at least " + min;
        }
        return null;
    }

    private static String editsVersion(JsonNode edits) {
        String min = "0.3.0";
        for (JsonNode m : edits.path("mounts")) {
            if (!m.path("type").asString("").isEmpty()) {
                min = max(min, "0.4.0");
            }
        }
        for (JsonNode n : edits.path("deviceNodes")) {
            if (!n.path("hostPath").asString("").isEmpty()) {
                min = max(min, "0.5.0");
            }
        }
        if (edits.has("additionalGids") || edits.has("intelRdt")) {
            min = max(min, "0.7.0");
        }
        if (edits.has("netDevices")) {
            min = max(min, "1.1.0");
        }
        return min;
    }

    private static String max(String a, String b) {
        return compare(a, b) >= 0 ? a : b;
    }

    private static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < 3; i++) {
            int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
