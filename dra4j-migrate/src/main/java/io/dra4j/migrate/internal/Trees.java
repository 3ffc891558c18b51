package io.dra4j.migrate.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a composed YAML node into a JSON tree as Kubernetes reads YAML (sigs.k8s.io/yaml on go-yaml v2): plain
 * {@code yes/no/on/off} are booleans (YAML 1.1), merge keys are expanded, duplicate keys are errors. Remembers the
 * line and column of every field by its path ({@code spec.devices[0].basic}).
 */
public final class Trees {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<String> YAML11_TRUE = Set.of("y", "Y", "yes", "Yes", "YES", "on", "On", "ON");
    private static final Set<String> YAML11_FALSE = Set.of("n", "N", "no", "No", "NO", "off", "Off", "OFF");

    /** A document's tree with the positions of its fields. */
    public record Located(JsonNode tree, Positions positions) {}

    /** 1-based line and column per field path; the root is the empty path. */
    public static final class Positions {
        private final Map<String, int[]> byPath = new HashMap<>();

        void put(String path, int line, int column) {
            byPath.putIfAbsent(path, new int[] {line, column});
        }

        /** True when the field itself has a position. */
        public boolean has(String path) {
            return byPath.containsKey(path);
        }

        /** The position of the field, or of its nearest ancestor that has one; {1, 1} when none does. */
        public int[] of(String path) {
            String p = path;
            while (true) {
                int[] pos = byPath.get(p);
                if (pos != null) {
                    return pos;
                }
                if (p.isEmpty()) {
                    return new int[] {1, 1};
                }
                p = Paths.parent(p);
            }
        }
    }

    /** A problem with the document's structure, at a field path. */
    public static final class TreeError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String path;

        TreeError(String path, String message) {
            super(message, null, false, false);
            this.path = path;
        }

        public String path() {
            return path;
        }
    }

    private final int lineOffset;
    private final Positions positions = new Positions();

    private Trees(int lineOffset) {
        this.lineOffset = lineOffset;
    }

    /** The JSON tree of a document composed from text that starts at 1-based line {@code startLine} of its file. */
    public static Located of(Node root, int startLine) {
        Trees t = new Trees(startLine - 1);
        JsonNode tree = t.convert(root, "");
        return new Located(tree, t.positions);
    }

    private void mark(String path, Node node) {
        Optional<Mark> m = node.getStartMark();
        m.ifPresent(mark -> positions.put(path, mark.getLine() + 1 + lineOffset, mark.getColumn() + 1));
    }

    private JsonNode convert(Node node, String path) {
        mark(path, node);
        if (node instanceof MappingNode mapping) {
            ObjectNode obj = NODES.objectNode();
            fill(obj, mapping, path, true);
            return obj;
        }
        if (node instanceof SequenceNode seq) {
            ArrayNode arr = NODES.arrayNode();
            int i = 0;
            for (Node item : seq.getValue()) {
                arr.add(convert(item, Paths.index(path, i++)));
            }
            return arr;
        }
        return scalar((ScalarNode) node, path);
    }

    private void fill(ObjectNode obj, MappingNode mapping, String path, boolean explicit) {
        for (NodeTuple tuple : mapping.getValue()) {
            if (!(tuple.getKeyNode() instanceof ScalarNode keyNode)) {
                throw new TreeError(path, "a mapping key must be a plain string, not a collection");
            }
            String key = keyNode.getValue();
            if (keyNode.isPlain() && key.equals("<<")) {
                merge(obj, tuple.getValueNode(), path);
                continue;
            }
            String child = Paths.field(path, key);
            if (obj.has(key)) {
                if (explicit) {
                    throw new TreeError(child, "duplicate field \"" + key + "\"");
                }
                continue;
            }
            mark(child, keyNode);
            obj.set(key, convert(tuple.getValueNode(), child));
        }
    }

    /** A merge key adds the fields of the merged mappings that the mapping does not set itself. */
    private void merge(ObjectNode obj, Node value, String path) {
        if (value instanceof MappingNode m) {
            fill(obj, m, path, false);
        } else if (value instanceof SequenceNode seq) {
            for (Node item : seq.getValue()) {
                if (!(item instanceof MappingNode m)) {
                    throw new TreeError(path, "a merge key (<<) takes a mapping or a list of mappings");
                }
                fill(obj, m, path, false);
            }
        } else {
            throw new TreeError(path, "a merge key (<<) takes a mapping or a list of mappings");
        }
    }

    private JsonNode scalar(ScalarNode s, String path) {
        String v = s.getValue();
        Tag tag = s.getTag();
        if (s.isPlain()) {
            if (YAML11_TRUE.contains(v)) {
                return NODES.booleanNode(true);
            }
            if (YAML11_FALSE.contains(v)) {
                return NODES.booleanNode(false);
            }
        }
        if (tag.equals(Tag.NULL)) {
            return NODES.nullNode();
        }
        if (tag.equals(Tag.BOOL)) {
            return NODES.booleanNode(v.equalsIgnoreCase("true"));
        }
        if (tag.equals(Tag.INT)) {
            return integer(v, path);
        }
        if (tag.equals(Tag.FLOAT)) {
            try {
                return NODES.numberNode(new BigDecimal(v));
            } catch (NumberFormatException e) {
                throw new TreeError(path, "the number " + v + " cannot be written as JSON");
            }
        }
        return NODES.stringNode(v);
    }

    private static JsonNode integer(String v, String path) {
        String digits = v.startsWith("+") ? v.substring(1) : v;
        BigInteger n;
        try {
            if (digits.startsWith("0x")) {
                n = new BigInteger(digits.substring(2), 16);
            } else if (digits.startsWith("0o")) {
                n = new BigInteger(digits.substring(2), 8);
            } else {
                n = new BigInteger(digits);
            }
        } catch (NumberFormatException e) {
            throw new TreeError(path, "cannot read the number " + v);
        }
        return n.bitLength() < 64 ? NODES.numberNode(n.longValue()) : NODES.numberNode(n);
    }
}
