package io.dra4j.scenario;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one YAML (and JSON, which is YAML) reader of the module: every file dra4j reads goes through
 * {@link #read(byte[])}. It reads as kubectl does (sigs.k8s.io/yaml over go-yaml v2, YAML 1.1): aliases are replaced
 * by a copy of their anchor's value, merge keys ({@code <<}) merge mappings in, plain scalars resolve with YAML 1.1's
 * rules ({@code yes}, {@code on} are booleans, {@code 0x1f} an integer, timestamps stay strings), mapping keys become
 * strings, an integral float is an integer (as Go's JSON writes it). Alias expansion is bounded with go-yaml's ratio
 * ("document contains excessive aliasing"), so a "billion laughs" file fails fast in bounded memory. Duplicate keys
 * in one mapping are errors (Kubernetes' strict decoding). Every error carries the parser's line and column.
 *
 * <p>Limits: {@value #CODE_POINT_LIMIT} code points per file (a 100,000-device fleet file is 14 MB written compactly), nesting
 * {@value #MAX_DEPTH} levels deep.
 */
final class YamlDocuments {
    /** Code points per file; snakeyaml-engine's default (3 MiB) is far below what a large fleet needs. */
    static final int CODE_POINT_LIMIT = 512 * 1024 * 1024;
    /** Nesting depth of mappings and sequences, aliases expanded; Kubernetes objects need about 12. */
    static final int MAX_DEPTH = 1000;

    private static final String TAG_PREFIX = "tag:yaml.org,2002:";
    private static final Pattern YAML_FLOAT = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Reads JSON input; immutable once built. */
    private static final JsonMapper JSON = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH)
                            .build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** A position in the file, 1-based, as editors show it. */
    record Position(int line, int column) {
        @Override
        public String toString() {
            return "line " + line + ", column " + column;
        }

        static Position of(Optional<Mark> mark) {
            return mark.map(m -> new Position(m.getLine() + 1, m.getColumn() + 1))
                    .orElse(new Position(0, 0));
        }
    }

    /**
     * One document of a file: its tree, its position in the file, and where each mapping and sequence value was
     * written (found by identity of the tree's container nodes).
     */
    static final class Document {
        private final int index;
        private final JsonNode root;
        private final Position start;
        private final Map<JsonNode, Map<String, Position>> fieldPositions;
        private final Map<JsonNode, List<Position>> itemPositions;

        private Document(
                int index,
                JsonNode root,
                Position start,
                Map<JsonNode, Map<String, Position>> fieldPositions,
                Map<JsonNode, List<Position>> itemPositions) {
            this.index = index;
            this.root = root;
            this.start = start;
            this.fieldPositions = fieldPositions;
            this.itemPositions = itemPositions;
        }

        /** 1-based among the file's documents, empty ones counted. */
        int index() {
            return index;
        }

        JsonNode root() {
            return root;
        }

        Position start() {
            return start;
        }

        /**
         * Where a path as {@link Where} writes it ({@code claims[0] (ResourceClaim c): spec.devices[1].name}) points
         * in the file: the deepest value of the path that exists, or the document's start.
         */
        Position locate(String path) {
            Position at = start;
            JsonNode node = root;
            for (Object step : steps(path)) {
                Position next = null;
                JsonNode child = null;
                if (step instanceof String key && node.isObject()) {
                    next = fieldPositions.getOrDefault(node, Map.of()).get(key);
                    child = node.get(key);
                } else if (step instanceof Integer i && node.isArray()) {
                    List<Position> items = itemPositions.getOrDefault(node, List.of());
                    next = i < items.size() ? items.get(i) : null;
                    child = node.get(i);
                }
                if (next == null || child == null) {
                    break;
                }
                at = next;
                node = child;
            }
            return at;
        }

        /** Splits a path into keys and indexes; labels such as {@code (ResourceClaim c)} and ": " are skipped. */
        private static List<Object> steps(String path) {
            List<Object> out = new ArrayList<>();
            int i = 0;
            int n = path.length();
            while (i < n) {
                char c = path.charAt(i);
                if (c == '.' || c == ':' || c == ' ') {
                    i++;
                } else if (c == '(') {
                    int close = path.indexOf(')', i);
                    i = close < 0 ? n : close + 1;
                } else if (c == '[' && i + 1 < n && path.charAt(i + 1) == '"') {
                    int close = path.indexOf("\"]", i + 2);
                    int end = close < 0 ? n : close;
                    out.add(path.substring(i + 2, end));
                    i = close < 0 ? n : close + 2;
                } else if (c == '[') {
                    int close = path.indexOf(']', i);
                    int end = close < 0 ? n : close;
                    String inside = path.substring(i + 1, end);
                    // [3] is an index; the API server writes map keys as [key].
                    out.add(inside.matches("\\d+") ? (Object) Integer.parseInt(inside) : inside);
                    i = close < 0 ? n : close + 1;
                } else {
                    int end = i;
                    while (end < n && ".[: (".indexOf(path.charAt(end)) < 0) {
                        end++;
                    }
                    out.add(path.substring(i, end));
                    i = end;
                }
            }
            return out;
        }
    }

    /** A problem in the YAML itself, at a position. */
    static final class YamlError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Position position;
        private final int document;
        private final boolean json;

        YamlError(Position position, String message) {
            this(position, message, 0, false);
        }

        private YamlError(Position position, String message, int document, boolean json) {
            super(message, null, false, false);
            this.position = position;
            this.document = document;
            this.json = json;
        }

        Position position() {
            return position;
        }

        /** 1-based index of the document it is in; 0 when not known. */
        int document() {
            return document;
        }

        YamlError inDocument(int index) {
            return new YamlError(position, getMessage(), index, json);
        }

        /** "malformed YAML at line 3, column 5: mapping values are not allowed here". */
        String describe() {
            String what = json ? "malformed JSON" : "malformed YAML";
            return position.line() > 0 ? what + " at " + position + ": " + getMessage() : what + ": " + getMessage();
        }
    }

    private YamlDocuments() {}

    /**
     * Every document of a file, empty documents left out.
     *
     * @throws YamlError for the first problem, with its position
     */
    static List<Document> read(byte[] content) {
        List<Document> out = new ArrayList<>();
        read(content, out::add);
        return out;
    }

    /**
     * Hands each non-empty document to {@code each} as soon as it is read, so that the documents before a malformed
     * one are kept.
     *
     * @throws YamlError for the first problem, with its position and document
     */
    static void read(byte[] content, Consumer<Document> each) {
        checkUtf8(content);
        if (looksLikeJson(content)) {
            readJson(content, each);
            return;
        }
        LoadSettings settings = LoadSettings.builder()
                .setCodePointLimit(CODE_POINT_LIMIT)
                .setUseMarks(true)
                .build();
        Composer composer = new Composer();
        try {
            for (Event event : new Parse(settings).parseInputStream(new ByteArrayInputStream(content))) {
                composer.accept(event);
                if (composer.done != null) {
                    Expander expander = new Expander();
                    YNode done = composer.done;
                    composer.done = null;
                    JsonNode root = expander.expand(done, 0);
                    if (!root.isNull()) {
                        each.accept(new Document(
                                composer.documents,
                                root,
                                done.position(),
                                expander.fieldPositions,
                                expander.itemPositions));
                    }
                }
            }
        } catch (YamlError e) {
            throw e.inDocument(Math.max(composer.documents, 1));
        } catch (MarkedYamlEngineException e) {
            Position p = e.getProblemMark()
                    .or(e::getContextMark)
                    .map(m -> Position.of(Optional.of(m)))
                    .orElse(new Position(0, 0));
            throw new YamlError(p, e.getProblem() == null ? firstLine(e.getMessage()) : e.getProblem())
                    .inDocument(Math.max(composer.documents, 1));
        } catch (YamlEngineException e) {
            throw new YamlError(new Position(0, 0), firstLine(e.getMessage()))
                    .inDocument(Math.max(composer.documents, 1));
        }
    }

    /**
     * Refuses text that is not UTF-8 (binary files, Latin-1) with the position of the first bad byte, as go-yaml
     * refuses it ("invalid leading UTF-8 octet"), before the parser sees it.
     */
    private static void checkUtf8(byte[] content) {
        java.nio.charset.CharsetDecoder decoder = java.nio.charset.StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(content);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(8192);
        while (true) {
            java.nio.charset.CoderResult r = decoder.decode(in, out, true);
            if (r.isError()) {
                int offset = in.position();
                int line = 1;
                int column = 1;
                for (int i = 0; i < offset; i++) {
                    if (content[i] == '\n') {
                        line++;
                        column = 1;
                    } else if ((content[i] & 0xC0) != 0x80) {
                        column++;
                    }
                }
                throw new YamlError(
                                new Position(line, column),
                                String.format(
                                        "invalid UTF-8 byte 0x%02x (byte offset %d): the input must be UTF-8 text",
                                        content[offset] & 0xff, offset))
                        .inDocument(1);
            }
            if (r.isUnderflow()) {
                return;
            }
            out.clear();
        }
    }

    /** JSON input starts with { or [; it may hold several values one after another, as kubectl accepts. */
    private static boolean looksLikeJson(byte[] content) {
        for (byte b : content) {
            if (b == '{' || b == '[') {
                return true;
            }
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return false;
    }

    /**
     * A JSON stream: no aliases, merge keys or YAML scalars to resolve, so Jackson's JSON parser reads it (duplicate
     * keys are errors); field positions are not tracked, errors carry the parser's line and column.
     */
    private static void readJson(byte[] content, Consumer<Document> each) {
        int index = 0;
        JsonParser parser = JSON.createParser(content);
        try (parser) {
            while (parser.nextToken() != null) {
                index++;
                TokenStreamLocation at = parser.currentTokenLocation();
                JsonNode root = JSON.readTree(parser);
                if (root != null && !root.isNull()) {
                    each.accept(new Document(
                            index, root, new Position(at.getLineNr(), at.getColumnNr()), Map.of(), Map.of()));
                }
            }
        } catch (JacksonException e) {
            // Limit violations carry no location of their own: the parser's is where it stopped.
            TokenStreamLocation loc = e.getLocation() != null && e.getLocation().getLineNr() > 0
                    ? e.getLocation()
                    : parser.currentLocation();
            Position p = loc == null || loc.getLineNr() <= 0
                    ? new Position(0, 0)
                    : new Position(loc.getLineNr(), loc.getColumnNr());
            throw new YamlError(p, firstLine(e.getOriginalMessage()), Math.max(index, 1), true);
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /** The node graph of one document as the parser's events describe it; aliases point at their anchor's node. */
    private sealed interface YNode {
        Position position();
    }

    private record Scalar(String value, String tag, boolean plain, Position position) implements YNode {}

    private record Alias(String name, YNode target, Position position) implements YNode {}

    private record Sequence(List<YNode> items, Position position) implements YNode {}

    /** Keys and values alternate. */
    private record Mapping(List<YNode> children, Position position) implements YNode {}

    /**
     * Builds the node graph from events without recursion, so that deep input fails with a message rather than
     * a stack overflow. An anchor is known from the start of its node on (a node holding an alias of itself is
     * reported when expanded, as go-yaml does).
     */
    private static final class Composer {
        private final Deque<YNode> open = new ArrayDeque<>();
        private final Map<String, YNode> anchors = new HashMap<>();
        private YNode done;
        private int documents;

        void accept(Event event) {
            switch (event.getEventId()) {
                case DocumentStart -> {
                    anchors.clear();
                    documents++;
                }
                case Scalar -> {
                    ScalarEvent s = (ScalarEvent) event;
                    boolean plain = s.getImplicit().canOmitTagInPlainScalar() && s.isPlain();
                    add(s, new Scalar(s.getValue(), s.getTag().orElse(null), plain, Position.of(s.getStartMark())));
                }
                case Alias -> {
                    AliasEvent a = (AliasEvent) event;
                    String name = a.getAlias().getValue();
                    Position p = Position.of(a.getStartMark());
                    YNode target = anchors.get(name);
                    if (target == null) {
                        throw new YamlError(p, "unknown anchor '" + name + "' referenced");
                    }
                    add(a, new Alias(name, target, p));
                }
                case SequenceStart, MappingStart -> {
                    CollectionStartEvent c = (CollectionStartEvent) event;
                    Position p = Position.of(c.getStartMark());
                    if (open.size() >= MAX_DEPTH) {
                        throw new YamlError(p, "exceeded max depth of " + MAX_DEPTH);
                    }
                    YNode node = event.getEventId() == Event.ID.SequenceStart
                            ? new Sequence(new ArrayList<>(), p)
                            : new Mapping(new ArrayList<>(), p);
                    add(c, node);
                    open.push(node);
                }
                case SequenceEnd, MappingEnd -> {
                    YNode closed = open.pop();
                    if (open.isEmpty()) {
                        done = closed;
                    }
                }
                default -> {}
            }
        }

        private void add(NodeEvent event, YNode node) {
            if (!(node instanceof Alias)) {
                // An alias event reports the anchor it refers to; only other nodes define one.
                event.getAnchor().map(Anchor::getValue).ifPresent(name -> anchors.put(name, node));
            }
            if (open.isEmpty()) {
                if (!(node instanceof Sequence) && !(node instanceof Mapping)) {
                    done = node;
                }
                return;
            }
            YNode parent = open.peek();
            if (parent instanceof Sequence s) {
                s.items().add(node);
            } else {
                ((Mapping) parent).children().add(node);
            }
        }
    }

    /**
     * Turns the node graph into a Jackson tree, the way go-yaml v2 decodes into {@code interface{}} and
     * sigs.k8s.io/yaml makes JSON of it. Each alias is expanded into a copy; go-yaml's bound on the share of
     * decoded nodes that come from aliases stops exponential expansion early.
     */
    private static final class Expander {
        private static final int RATIO_RANGE_LOW = 400_000;
        private static final int RATIO_RANGE_HIGH = 4_000_000;

        private final Map<JsonNode, Map<String, Position>> fieldPositions = new IdentityHashMap<>();
        private final Map<JsonNode, List<Position>> itemPositions = new IdentityHashMap<>();
        private final Set<Alias> expanding = Collections.newSetFromMap(new IdentityHashMap<>());
        private long decodeCount;
        private long aliasCount;
        private int aliasDepth;

        JsonNode expand(YNode node, int depth) {
            count(node);
            if (depth > MAX_DEPTH) {
                throw new YamlError(node.position(), "exceeded max depth of " + MAX_DEPTH + " (aliases expanded)");
            }
            if (node instanceof Scalar s) {
                return scalar(s);
            }
            if (node instanceof Alias a) {
                return alias(a, depth);
            }
            if (node instanceof Sequence s) {
                return sequence(s, depth);
            }
            ObjectNode out = NODES.objectNode();
            fieldPositions.put(out, new HashMap<>());
            fill((Mapping) node, out, depth);
            return out;
        }

        /** go-yaml: 99% of decoded nodes may come from aliases in small documents, down to 10% in huge ones. */
        private void count(YNode node) {
            decodeCount++;
            if (aliasDepth > 0) {
                aliasCount++;
            }
            if (aliasCount > 100 && decodeCount > 1000 && (double) aliasCount / decodeCount > allowedAliasRatio()) {
                throw new YamlError(node.position(), "document contains excessive aliasing");
            }
        }

        private double allowedAliasRatio() {
            if (decodeCount <= RATIO_RANGE_LOW) {
                return 0.99;
            }
            if (decodeCount >= RATIO_RANGE_HIGH) {
                return 0.10;
            }
            return 0.99 - 0.89 * ((double) (decodeCount - RATIO_RANGE_LOW) / (RATIO_RANGE_HIGH - RATIO_RANGE_LOW));
        }

        private JsonNode alias(Alias a, int depth) {
            if (!expanding.add(a)) {
                throw new YamlError(a.position(), "anchor '" + a.name() + "' value contains itself");
            }
            aliasDepth++;
            try {
                return expand(a.target(), depth);
            } finally {
                aliasDepth--;
                expanding.remove(a);
            }
        }

        private JsonNode sequence(Sequence s, int depth) {
            ArrayNode out = NODES.arrayNode();
            List<Position> positions = new ArrayList<>(s.items().size());
            for (YNode item : s.items()) {
                positions.add(item.position());
                out.add(expand(item, depth + 1));
            }
            itemPositions.put(out, positions);
            return out;
        }

        /**
         * Sets the mapping's entries in order; a merge key sets the merged mapping's entries at its place (an
         * explicit key written after it overrides them, as go-yaml does); a key written twice is an error.
         */
        private void fill(Mapping m, ObjectNode out, int depth) {
            Map<String, Position> positions = fieldPositions.get(out);
            Map<String, Position> explicit = new HashMap<>();
            List<YNode> children = m.children();
            for (int i = 0; i + 1 < children.size(); i += 2) {
                YNode keyNode = children.get(i);
                YNode value = children.get(i + 1);
                if (isMerge(keyNode)) {
                    merge(value, out, depth);
                    continue;
                }
                count(keyNode);
                String key = key(keyNode);
                Position first = explicit.putIfAbsent(key, keyNode.position());
                if (first != null) {
                    throw new YamlError(
                            keyNode.position(), "key \"" + key + "\" already set in map (first at " + first + ")");
                }
                positions.put(key, value.position());
                out.set(key, expand(value, depth + 1));
            }
        }

        private void merge(YNode value, ObjectNode out, int depth) {
            if (isMapping(value)) {
                mergeOne(value, out, depth);
            } else if (value instanceof Sequence s) {
                // Earlier mappings take precedence: merge from the last one to the first.
                for (int i = s.items().size() - 1; i >= 0; i--) {
                    YNode item = s.items().get(i);
                    if (!isMapping(item)) {
                        throw new YamlError(item.position(), "map merge requires map or sequence of maps as the value");
                    }
                    mergeOne(item, out, depth);
                }
            } else {
                throw new YamlError(value.position(), "map merge requires map or sequence of maps as the value");
            }
        }

        private static boolean isMapping(YNode n) {
            return n instanceof Mapping || n instanceof Alias a && a.target() instanceof Mapping;
        }

        private void mergeOne(YNode mappingOrAlias, ObjectNode out, int depth) {
            count(mappingOrAlias);
            if (mappingOrAlias instanceof Alias a) {
                if (!expanding.add(a)) {
                    throw new YamlError(a.position(), "anchor '" + a.name() + "' value contains itself");
                }
                aliasDepth++;
                try {
                    count(a.target());
                    fill((Mapping) a.target(), out, depth);
                } finally {
                    aliasDepth--;
                    expanding.remove(a);
                }
            } else {
                fill((Mapping) mappingOrAlias, out, depth);
            }
        }

        /** A mapping key as sigs.k8s.io/yaml makes a JSON key of it: strings, ints, floats and booleans. */
        private String key(YNode keyNode) {
            YNode k = keyNode instanceof Alias a ? a.target() : keyNode;
            if (!(k instanceof Scalar s)) {
                throw new YamlError(
                        keyNode.position(),
                        "invalid map key: a " + (k instanceof Sequence ? "sequence" : "mapping") + " cannot be a key");
            }
            JsonNode v = s.plain() ? resolvePlain(s.value(), true) : scalar(s);
            if (v.isString()) {
                return v.stringValue();
            }
            if (v.isBoolean()) {
                return Boolean.toString(v.booleanValue());
            }
            if (v.isIntegralNumber() && v.canConvertToLong()) {
                return Long.toString(v.longValue());
            }
            if (v.isNumber() && !v.isIntegralNumber()) {
                return goFloat32Key(v.doubleValue());
            }
            throw new YamlError(keyNode.position(), "unsupported map key `" + s.value() + "`");
        }

        /** strconv.FormatFloat(f, 'g', -1, 32), as sigs.k8s.io/yaml writes a float key. */
        private static String goFloat32Key(double d) {
            float f = (float) d;
            if (Float.isNaN(f)) {
                return ".nan";
            }
            if (Float.isInfinite(f)) {
                return f > 0 ? ".inf" : "-.inf";
            }
            if (f == 0) {
                return (1 / f < 0) ? "-0" : "0";
            }
            BigDecimal b = new BigDecimal(Float.toString(f)).stripTrailingZeros();
            int exp = b.precision() - b.scale() - 1;
            if (exp < -4 || exp >= 6) {
                String digits = b.unscaledValue().abs().toString();
                String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
                return (b.signum() < 0 ? "-" : "") + mantissa + "e" + (exp < 0 ? "-" : "+")
                        + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
            }
            return b.toPlainString();
        }

        private static boolean isMerge(YNode n) {
            return n instanceof Scalar s
                    && s.value().equals("<<")
                    && (s.plain() || (TAG_PREFIX + "merge").equals(s.tag()));
        }
    }

    /** A scalar's value with go-yaml v2's resolution, as JSON. */
    private static JsonNode scalar(Scalar s) {
        String tag = s.tag() == null ? "" : s.tag();
        if (!s.plain() && tag.isEmpty() || tag.equals("!")) {
            return NODES.stringNode(s.value());
        }
        String shortTag = tag.startsWith(TAG_PREFIX) ? tag.substring(TAG_PREFIX.length()) : tag;
        if (!shortTag.isEmpty()
                && !Set.of("str", "bool", "int", "float", "null", "timestamp", "binary")
                        .contains(shortTag)) {
            return NODES.stringNode(s.value());
        }
        if (shortTag.equals("str")) {
            return NODES.stringNode(s.value());
        }
        if (shortTag.equals("binary")) {
            // go-yaml v2 decodes the base64 into a string of its bytes, which JSON then writes as UTF-8.
            try {
                byte[] data = java.util.Base64.getDecoder()
                        .decode(s.value().replace("\n", "").replace("\r", ""));
                return NODES.stringNode(new String(data, java.nio.charset.StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new YamlError(s.position(), "!!binary value contains invalid base64 data");
            }
        }
        JsonNode resolved = resolvePlain(s.value(), shortTag.isEmpty() || shortTag.equals("timestamp"));
        String kind = resolved.isString()
                ? "str"
                : resolved.isBoolean()
                        ? "bool"
                        : resolved.isNull() ? "null" : resolved.isIntegralNumber() ? "int" : "float";
        if (!shortTag.isEmpty()
                && !shortTag.equals(kind)
                && !(shortTag.equals("float") && kind.equals("int"))
                && !(shortTag.equals("timestamp") && kind.equals("str"))) {
            throw new YamlError(s.position(), "cannot decode !!" + kind + " `" + s.value() + "` as a !!" + shortTag);
        }
        if (shortTag.equals("float") && kind.equals("int")) {
            return jsonNumber(resolved.doubleValue(), s);
        }
        if (resolved.isDouble()) {
            return jsonNumber(resolved.doubleValue(), s);
        }
        return resolved;
    }

    /** go-yaml v2 resolve() for a plain scalar: booleans, nulls, special floats, merge, ints, floats, else string. */
    private static JsonNode resolvePlain(String in, boolean timestampAllowed) {
        switch (in) {
            case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
                return NODES.booleanNode(true);
            case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
                return NODES.booleanNode(false);
            case "", "~", "null", "Null", "NULL":
                return NODES.nullNode();
            case ".nan", ".NaN", ".NAN":
                return NODES.numberNode(Double.NaN);
            case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
                return NODES.numberNode(Double.POSITIVE_INFINITY);
            case "-.inf", "-.Inf", "-.INF":
                return NODES.numberNode(Double.NEGATIVE_INFINITY);
            default:
                break;
        }
        char c = in.charAt(0);
        if (c == '.') {
            Double d = goParseFloat(in);
            return d == null ? NODES.stringNode(in) : NODES.numberNode(d);
        }
        if (c != '+' && c != '-' && (c < '0' || c > '9')) {
            return NODES.stringNode(in);
        }
        if (timestampAllowed && looksLikeTimestamp(in)) {
            // go-yaml v2 keeps timestamps as strings when decoding into interface{}.
            return NODES.stringNode(in);
        }
        String plain = in.replace("_", "");
        BigInteger i = goParseInt(plain);
        if (i != null) {
            if (i.bitLength() < 64) {
                return i.bitLength() < 32 ? NODES.numberNode(i.intValue()) : NODES.numberNode(i.longValue());
            }
            if (i.signum() > 0 && i.compareTo(UINT64_MAX) <= 0) {
                return NODES.numberNode(i);
            }
        }
        if (YAML_FLOAT.matcher(plain).matches()) {
            Double d = goParseFloat(plain);
            if (d != null) {
                return NODES.numberNode(d);
            }
        }
        return NODES.stringNode(in);
    }

    /** strconv.ParseInt/ParseUint with base 0: sign, then 0x, 0o, 0b or a leading 0 for octal. */
    private static BigInteger goParseInt(String s) {
        String t = s;
        boolean negative = false;
        if (t.startsWith("+") || t.startsWith("-")) {
            negative = t.charAt(0) == '-';
            t = t.substring(1);
        }
        int radix = 10;
        String lower = t.toLowerCase();
        if (lower.startsWith("0x")) {
            radix = 16;
            t = t.substring(2);
        } else if (lower.startsWith("0o")) {
            radix = 8;
            t = t.substring(2);
        } else if (lower.startsWith("0b")) {
            radix = 2;
            t = t.substring(2);
        } else if (t.length() > 1 && t.startsWith("0")) {
            radix = 8;
            t = t.substring(1);
        }
        if (t.isEmpty()) {
            return null;
        }
        for (int i = 0; i < t.length(); i++) {
            if (Character.digit(t.charAt(i), radix) < 0) {
                return null;
            }
        }
        BigInteger v = new BigInteger(t, radix);
        return negative ? v.negate() : v;
    }

    /** strconv.ParseFloat for the forms YAML writes (decimal with optional exponent); null when it does not parse. */
    private static Double goParseFloat(String s) {
        if (!YAML_FLOAT.matcher(s).matches()) {
            return null;
        }
        return Double.valueOf(s);
    }

    /** The quick check go-yaml makes before trying timestamp layouts: four digits, then a dash. */
    private static boolean looksLikeTimestamp(String s) {
        return s.length() > 4
                && s.charAt(4) == '-'
                && s.substring(0, 4).chars().allMatch(Character::isDigit)
                && Pattern.matches("\\d{4}-\\d{1,2}-\\d{1,2}([Tt ].*)?", s);
    }

    /**
     * A float as it comes out of Go's JSON encoder: integral values below 1e21 are written without a fraction (so
     * {@code count: 2.0} is the integer 2, as for kubectl), others stay floats; NaN and infinities have no JSON form.
     */
    private static JsonNode jsonNumber(double d, Scalar s) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new YamlError(
                    s.position(), "json: unsupported value: " + (Double.isNaN(d) ? "NaN" : d > 0 ? "+Inf" : "-Inf"));
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e21) {
            BigInteger i = new BigDecimal(d).toBigIntegerExact();
            return i.bitLength() < 64 ? NODES.numberNode(i.longValue()) : NODES.numberNode(i);
        }
        return NODES.numberNode(d);
    }
}
