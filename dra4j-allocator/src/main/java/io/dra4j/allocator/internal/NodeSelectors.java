package io.dra4j.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Node affinity semantics of a {@link NodeSelector}, as kube-scheduler's nodeaffinity helper applies them: terms
 * are ORed, requirements inside a term ANDed; an empty term matches nothing; {@code matchFields} supports only
 * {@code metadata.name}. A selector that does not parse is an error.
 */
public final class NodeSelectors {
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final Pattern NAME_PART = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private NodeSelectors() {}

    /** Upstream's {@code NodeMatches}: nodeName, then allNodes, then the selector; nothing set matches nothing. */
    public static boolean nodeMatches(Node node, String nodeName, boolean allNodes, NodeSelector selector)
            throws InvalidSelectorException {
        if (nodeName != null && !nodeName.isEmpty()) {
            return node != null && nodeName.equals(name(node));
        }
        if (allNodes) {
            return true;
        }
        if (selector != null) {
            return matches(node, selector);
        }
        return false;
    }

    public static boolean matches(Node node, NodeSelector selector) throws InvalidSelectorException {
        List<NodeSelectorTerm> terms = selector.getNodeSelectorTerms();
        boolean any = false;
        // Every term is parsed before matching so that a broken term is reported even when an earlier one matches.
        for (int i = 0; i < terms.size(); i++) {
            validateTerm(terms.get(i), i);
        }
        for (NodeSelectorTerm term : terms) {
            if (termMatches(node, term)) {
                any = true;
                break;
            }
        }
        return any;
    }

    private static boolean termMatches(Node node, NodeSelectorTerm term) {
        List<NodeSelectorRequirement> exprs = term.getMatchExpressions();
        List<NodeSelectorRequirement> fields = term.getMatchFields();
        if ((exprs == null || exprs.isEmpty()) && (fields == null || fields.isEmpty())) {
            return false;
        }
        Map<String, String> labels =
                node == null || node.getMetadata() == null || node.getMetadata().getLabels() == null
                        ? Map.of()
                        : node.getMetadata().getLabels();
        if (exprs != null) {
            for (NodeSelectorRequirement r : exprs) {
                if (!labelRequirementMatches(labels, r)) {
                    return false;
                }
            }
        }
        if (fields != null) {
            String nodeName = name(node);
            for (NodeSelectorRequirement r : fields) {
                boolean equal = r.getValues().get(0).equals(nodeName);
                if ("In".equals(r.getOperator()) != equal) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean labelRequirementMatches(Map<String, String> labels, NodeSelectorRequirement r) {
        String value = labels.get(r.getKey());
        boolean has = labels.containsKey(r.getKey());
        switch (r.getOperator()) {
            case "In":
                return has && r.getValues().contains(value);
            case "NotIn":
                return !has || !r.getValues().contains(value);
            case "Exists":
                return has;
            case "DoesNotExist":
                return !has;
            case "Gt":
            case "Lt": {
                if (!has) {
                    return false;
                }
                long actual;
                try {
                    actual = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    return false;
                }
                long bound = Long.parseLong(r.getValues().get(0));
                return "Gt".equals(r.getOperator()) ? actual > bound : actual < bound;
            }
            default:
                return false;
        }
    }

    private static void validateTerm(NodeSelectorTerm term, int index) throws InvalidSelectorException {
        List<NodeSelectorRequirement> exprs = term.getMatchExpressions();
        if (exprs != null) {
            for (int j = 0; j < exprs.size(); j++) {
                validateLabelRequirement(exprs.get(j), "nodeSelectorTerms[" + index + "].matchExpressions[" + j + "]");
            }
        }
        List<NodeSelectorRequirement> fields = term.getMatchFields();
        if (fields != null) {
            for (int j = 0; j < fields.size(); j++) {
                NodeSelectorRequirement r = fields.get(j);
                String path = "nodeSelectorTerms[" + index + "].matchFields[" + j + "]";
                if (r.getValues() == null || r.getValues().size() != 1) {
                    throw new InvalidSelectorException(
                            path
                                    + ".values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
                }
                if (!"metadata.name".equals(r.getKey())) {
                    throw new InvalidSelectorException(
                            path + ".key: Invalid value: \"" + r.getKey() + "\": not a valid field selector key");
                }
                if (!"In".equals(r.getOperator()) && !"NotIn".equals(r.getOperator())) {
                    throw new InvalidSelectorException(path + ".operator: Invalid value: \"" + r.getOperator()
                            + "\": not a valid selector operator");
                }
            }
        }
    }

    private static void validateLabelRequirement(NodeSelectorRequirement r, String path)
            throws InvalidSelectorException {
        String key = r.getKey() == null ? "" : r.getKey();
        if (!validLabelKey(key)) {
            throw new InvalidSelectorException(
                    path + ".key: Invalid value: \"" + key
                            + "\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
        }
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        String op = r.getOperator() == null ? "" : r.getOperator();
        switch (op) {
            case "In", "NotIn" -> {
                if (values.isEmpty()) {
                    throw new InvalidSelectorException(
                            path + ".values: Required value: must be specified when `operator` is 'In' or 'NotIn'");
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (!values.isEmpty()) {
                    throw new InvalidSelectorException(path
                            + ".values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
                }
            }
            case "Gt", "Lt" -> {
                if (values.size() != 1) {
                    throw new InvalidSelectorException(
                            path
                                    + ".values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'");
                }
                try {
                    Long.parseLong(values.get(0));
                } catch (NumberFormatException e) {
                    throw new InvalidSelectorException(
                            path + ".values[0]: Invalid value: \"" + values.get(0) + "\": must be a valid integer");
                }
            }
            default ->
                throw new InvalidSelectorException(
                        path + ".operator: Invalid value: \"" + op + "\": not a valid selector operator");
        }
        for (String v : values) {
            if (v.length() > 63 || !LABEL_VALUE.matcher(v).matches()) {
                throw new InvalidSelectorException(
                        path + ".values: Invalid value: \"" + v
                                + "\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
            }
        }
    }

    private static boolean validLabelKey(String key) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.isEmpty()
                    || prefix.length() > 253
                    || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
                return false;
            }
        }
        return !name.isEmpty() && name.length() <= 63 && NAME_PART.matcher(name).matches();
    }

    private static String name(Node node) {
        return node == null || node.getMetadata() == null
                ? null
                : node.getMetadata().getName();
    }

    /** A node selector that cannot be parsed. */
    public static final class InvalidSelectorException extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidSelectorException(String message) {
            super(message, null, false, false);
        }
    }
}
