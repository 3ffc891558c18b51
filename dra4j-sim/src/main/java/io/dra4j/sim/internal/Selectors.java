package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;

/** Label selectors, node selectors and tolerations, with the semantics of apimachinery and component-helpers. */
final class Selectors {
    private Selectors() {}

    /** metav1.LabelSelector: nil matches nothing, empty matches everything. */
    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        Map<String, String> l = labels == null ? Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                if (!e.getValue().equals(l.get(e.getKey()))) {
                    return false;
                }
            }
        }
        for (LabelSelectorRequirement r : list(selector.getMatchExpressions())) {
            String v = l.get(r.getKey());
            boolean has = l.containsKey(r.getKey());
            List<String> values = list(r.getValues());
            boolean ok = switch (r.getOperator()) {
                case "In" -> has && values.contains(v);
                case "NotIn" -> !has || !values.contains(v);
                case "Exists" -> has;
                case "DoesNotExist" -> !has;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** A required node selector: the terms are ORed; a term without requirements matches nothing. */
    static boolean matches(NodeSelector selector, Node node) {
        for (NodeSelectorTerm term : list(selector.getNodeSelectorTerms())) {
            if (matches(term, node)) {
                return true;
            }
        }
        return false;
    }

    static boolean matches(NodeSelectorTerm term, Node node) {
        List<NodeSelectorRequirement> exprs = list(term.getMatchExpressions());
        List<NodeSelectorRequirement> fields = list(term.getMatchFields());
        if (exprs.isEmpty() && fields.isEmpty()) {
            return false;
        }
        Map<String, String> labels = labels(node);
        for (NodeSelectorRequirement r : exprs) {
            if (!requirement(r, labels.containsKey(r.getKey()), labels.get(r.getKey()))) {
                return false;
            }
        }
        for (NodeSelectorRequirement r : fields) {
            boolean known = r.getKey().equals("metadata.name");
            if (!known || !requirement(r, true, node.getMetadata().getName())) {
                return false;
            }
        }
        return true;
    }

    private static boolean requirement(NodeSelectorRequirement r, boolean has, String value) {
        List<String> values = list(r.getValues());
        return switch (r.getOperator()) {
            case "In" -> has && values.contains(value);
            case "NotIn" -> !has || !values.contains(value);
            case "Exists" -> has;
            case "DoesNotExist" -> !has;
            case "Gt", "Lt" -> has && values.size() == 1 && compare(r.getOperator(), value, values.get(0));
            default -> false;
        };
    }

    private static boolean compare(String op, String value, String bound) {
        try {
            long v = Long.parseLong(value);
            long b = Long.parseLong(bound);
            return op.equals("Gt") ? v > b : v < b;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** v1.Toleration.ToleratesTaint. */
    static boolean tolerates(Toleration t, Taint taint) {
        if (t.getEffect() != null && !t.getEffect().isEmpty() && !t.getEffect().equals(taint.getEffect())) {
            return false;
        }
        String key = t.getKey() == null ? "" : t.getKey();
        String op = t.getOperator() == null || t.getOperator().isEmpty() ? "Equal" : t.getOperator();
        if (!key.isEmpty() && !key.equals(taint.getKey())) {
            return false;
        }
        if (op.equals("Exists")) {
            return true;
        }
        if (key.isEmpty()) {
            return false;
        }
        String tv = t.getValue() == null ? "" : t.getValue();
        String v = taint.getValue() == null ? "" : taint.getValue();
        return op.equals("Equal") && tv.equals(v);
    }

    static boolean tolerated(List<Toleration> tolerations, Taint taint) {
        for (Toleration t : list(tolerations)) {
            if (tolerates(t, taint)) {
                return true;
            }
        }
        return false;
    }

    static Map<String, String> labels(Node node) {
        Map<String, String> l = node.getMetadata().getLabels();
        return l == null ? Map.of() : l;
    }

    static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
