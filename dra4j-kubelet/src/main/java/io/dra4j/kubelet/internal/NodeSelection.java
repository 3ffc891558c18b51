package io.dra4j.kubelet.internal;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;

/**
 * Whether an allocation's node selector selects this node: terms are ORed, the requirements of a term ANDed, an
 * empty term selects nothing; {@code matchFields} know {@code metadata.name}, {@code matchExpressions} are evaluated
 * on the node's labels.
 */
public final class NodeSelection {
    private NodeSelection() {}

    public static boolean selects(NodeSelector selector, String nodeName, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        for (NodeSelectorTerm term : selector.getNodeSelectorTerms()) {
            List<NodeSelectorRequirement> exprs = term.getMatchExpressions();
            List<NodeSelectorRequirement> fields = term.getMatchFields();
            if (exprs.isEmpty() && fields.isEmpty()) {
                continue;
            }
            boolean all = exprs.stream().allMatch(r -> matches(r, labels.get(r.getKey())));
            all &= fields.stream().allMatch(r -> matches(r, "metadata.name".equals(r.getKey()) ? nodeName : null));
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(NodeSelectorRequirement r, String value) {
        List<String> values = r.getValues();
        switch (r.getOperator()) {
            case "In":
                return value != null && values.contains(value);
            case "NotIn":
                return value == null || !values.contains(value);
            case "Exists":
                return value != null;
            case "DoesNotExist":
                return value == null;
            case "Gt":
            case "Lt":
                if (value == null || values.size() != 1) {
                    return false;
                }
                try {
                    long have = Long.parseLong(value);
                    long want = Long.parseLong(values.get(0));
                    return "Gt".equals(r.getOperator()) ? have > want : have < want;
                } catch (NumberFormatException e) {
                    return false;
                }
            default:
                return false;
        }
    }
}
