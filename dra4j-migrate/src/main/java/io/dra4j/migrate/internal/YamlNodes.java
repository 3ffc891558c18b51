package io.dra4j.migrate.internal;

import java.util.Optional;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/** Looking things up in composed YAML nodes, which keep their positions (unlike JSON trees). */
public final class YamlNodes {
    private YamlNodes() {}

    /** The entry of {@code key} in a mapping node, if the node is a mapping and has it. */
    public static Optional<NodeTuple> entry(Node mapping, String key) {
        if (!(mapping instanceof MappingNode m)) {
            return Optional.empty();
        }
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode s && s.getValue().equals(key)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    public static Optional<Node> get(Node mapping, String key) {
        return entry(mapping, key).map(NodeTuple::getValueNode);
    }

    /** The node at a path of keys, if every step is a mapping that has the key. */
    public static Optional<Node> at(Node node, String... keys) {
        Optional<Node> n = Optional.of(node);
        for (String k : keys) {
            n = n.flatMap(x -> get(x, k));
        }
        return n;
    }

    public static Optional<String> scalar(Node node, String... keys) {
        return at(node, keys).filter(ScalarNode.class::isInstance).map(n -> ((ScalarNode) n).getValue());
    }

    public static String keyOf(NodeTuple t) {
        return t.getKeyNode() instanceof ScalarNode s ? s.getValue() : "";
    }

    public static boolean isFlow(Node node) {
        return node instanceof MappingNode m && m.getFlowStyle() == FlowStyle.FLOW
                || node instanceof SequenceNode s && s.getFlowStyle() == FlowStyle.FLOW;
    }

    /** 1-based line of a node in its file, given the line its document starts at. */
    public static int line(Node node, int startLine) {
        return node.getStartMark().map(m -> m.getLine() + startLine).orElse(startLine);
    }

    public static int column(Node node) {
        return node.getStartMark().map(m -> m.getColumn() + 1).orElse(1);
    }
}
