package io.dra4j.kubelet.cdi;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Transient CDI spec files in one directory (usually {@code /var/run/cdi}), one per claim, named
 * {@code <vendor>-<class>_<claimUID>.json} as the CDI library names transient specs. Files are written atomically
 * (temporary file, fsync, rename) so that a runtime never reads half a spec.
 */
public final class CdiSpecFiles {
    private final Path directory;
    private final JsonMapper json = JsonMapper.builder().build();

    public CdiSpecFiles(Path directory) {
        this.directory = directory;
    }

    public Path directory() {
        return directory;
    }

    /** The file of the transient spec of {@code vendor/class} for {@code transientId} (slashes become '_'). */
    public Path path(String vendor, String clazz, String transientId) {
        return directory.resolve(vendor + "-" + clazz + "_" + transientId.replace('/', '_') + ".json");
    }

    /** Writes {@code spec} as the transient spec of {@code transientId} and returns its path. */
    public Path write(CdiSpec spec, String transientId) throws IOException {
        Files.createDirectories(directory);
        Path target = path(spec.vendor(), spec.clazz(), transientId);
        byte[] bytes = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(toJson(spec));
        Path temp = Files.createTempFile(directory, ".tmp-", ".cdi");
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ch.write(java.nio.ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
        return target;
    }

    /** Removes the transient spec of {@code transientId}; a missing file is fine. */
    public void delete(String vendor, String clazz, String transientId) throws IOException {
        Files.deleteIfExists(path(vendor, clazz, transientId));
    }

    private JsonNode toJson(CdiSpec spec) {
        ObjectNode root = json.createObjectNode();
        root.put("cdiVersion", spec.minimumVersion());
        root.put("kind", spec.kind());
        ArrayNode devices = root.putArray("devices");
        for (CdiSpec.Device d : spec.devices()) {
            ObjectNode dn = devices.addObject();
            dn.put("name", d.name());
            dn.set("containerEdits", edits(d.containerEdits()));
        }
        if (!spec.containerEdits().noEdits()) {
            root.set("containerEdits", edits(spec.containerEdits()));
        }
        return root;
    }

    private ObjectNode edits(ContainerEdits e) {
        ObjectNode n = json.createObjectNode();
        if (!e.env().isEmpty()) {
            ArrayNode env = n.putArray("env");
            e.env().forEach(env::add);
        }
        if (!e.deviceNodes().isEmpty()) {
            ArrayNode nodes = n.putArray("deviceNodes");
            for (ContainerEdits.DeviceNode d : e.deviceNodes()) {
                ObjectNode o = nodes.addObject();
                o.put("path", d.path());
                putIfSet(o, "hostPath", d.hostPath());
                putIfSet(o, "type", d.type());
                putIfSet(o, "permissions", d.permissions());
            }
        }
        if (!e.mounts().isEmpty()) {
            ArrayNode mounts = n.putArray("mounts");
            for (ContainerEdits.Mount m : e.mounts()) {
                ObjectNode o = mounts.addObject();
                o.put("hostPath", m.hostPath());
                o.put("containerPath", m.containerPath());
                putIfSet(o, "type", m.type());
                if (!m.options().isEmpty()) {
                    ArrayNode opts = o.putArray("options");
                    m.options().forEach(opts::add);
                }
            }
        }
        return n;
    }

    private static void putIfSet(ObjectNode o, String key, String value) {
        if (value != null && !value.isEmpty()) {
            o.put(key, value);
        }
    }

    /** Reads a spec file back as JSON, for checks; a missing or unparsable file is an {@link IOException}. */
    public JsonNode read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        try {
            return json.readTree(text);
        } catch (tools.jackson.core.JacksonException e) {
            throw new IOException(file + ": not a JSON CDI spec: " + e.getOriginalMessage(), e);
        }
    }
}
