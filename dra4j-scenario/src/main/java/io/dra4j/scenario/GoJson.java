package io.dra4j.scenario;

import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceDerivedAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A request or subrequest written as Go's {@code encoding/json} writes the k8s.io/api resource/v1 struct: fields in
 * the struct's order, {@code omitempty} fields left out when empty, map keys sorted, and {@code <}, {@code >},
 * {@code &}, U+2028 and U+2029 escaped. The API server's declarative uniqueness check prints a duplicate list item
 * this way ({@code field.Duplicate} with the item as its value). A request's quantity is written as given, not
 * canonicalised; a counter's is canonical.
 */
final class GoJson {
    private GoJson() {}

    static String request(DeviceRequest r) {
        StringBuilder b = new StringBuilder("{");
        Fields f = new Fields(b);
        f.string("name", r.getName(), false);
        if (r.getExactly() != null) {
            f.name("exactly");
            exact(b, r.getExactly());
        }
        if (r.getFirstAvailable() != null && !r.getFirstAvailable().isEmpty()) {
            f.name("firstAvailable");
            list(b, r.getFirstAvailable(), s -> subRequestTo(b, s));
        }
        return b.append('}').toString();
    }

    static String subRequest(DeviceSubRequest s) {
        StringBuilder b = new StringBuilder();
        subRequestTo(b, s);
        return b.toString();
    }

    private static void subRequestTo(StringBuilder b, DeviceSubRequest s) {
        if (s == null) {
            b.append("{\"name\":\"\",\"deviceClassName\":\"\"}");
            return;
        }
        b.append('{');
        Fields f = new Fields(b);
        f.string("name", s.getName(), false);
        f.string("deviceClassName", s.getDeviceClassName(), false);
        common(
                b,
                f,
                s.getSelectors(),
                s.getAllocationMode(),
                s.getCount(),
                null,
                s.getTolerations(),
                s.getCapacity(),
                s.getDerivedAttributes());
        b.append('}');
    }

    private static void exact(StringBuilder b, ExactDeviceRequest e) {
        b.append('{');
        Fields f = new Fields(b);
        f.string("deviceClassName", e.getDeviceClassName(), false);
        common(
                b,
                f,
                e.getSelectors(),
                e.getAllocationMode(),
                e.getCount(),
                e.getAdminAccess(),
                e.getTolerations(),
                e.getCapacity(),
                e.getDerivedAttributes());
        b.append('}');
    }

    private static void common(
            StringBuilder b,
            Fields f,
            List<DeviceSelector> selectors,
            String allocationMode,
            Long count,
            Boolean adminAccess,
            List<DeviceToleration> tolerations,
            CapacityRequirements capacity,
            List<DeviceDerivedAttribute> derived) {
        if (selectors != null && !selectors.isEmpty()) {
            f.name("selectors");
            list(b, selectors, s -> {
                b.append('{');
                if (s != null && s.getCel() != null) {
                    b.append("\"cel\":{\"expression\":");
                    quote(
                            b,
                            s.getCel().getExpression() == null ? "" : s.getCel().getExpression());
                    b.append('}');
                }
                b.append('}');
            });
        }
        f.string("allocationMode", allocationMode, true);
        if (count != null && count != 0) {
            f.name("count");
            b.append(count);
        }
        if (adminAccess != null) {
            f.name("adminAccess");
            b.append(adminAccess);
        }
        if (tolerations != null && !tolerations.isEmpty()) {
            f.name("tolerations");
            list(b, tolerations, t -> {
                b.append('{');
                if (t != null) {
                    Fields tf = new Fields(b);
                    tf.string("key", t.getKey(), true);
                    tf.string("operator", t.getOperator(), true);
                    tf.string("value", t.getValue(), true);
                    tf.string("effect", t.getEffect(), true);
                    if (t.getTolerationSeconds() != null) {
                        tf.name("tolerationSeconds");
                        b.append(t.getTolerationSeconds());
                    }
                }
                b.append('}');
            });
        }
        if (capacity != null) {
            f.name("capacity");
            b.append('{');
            Map<String, Quantity> requests = capacity.getRequests();
            if (requests != null && !requests.isEmpty()) {
                b.append("\"requests\":{");
                boolean first = true;
                for (Map.Entry<String, Quantity> e : new TreeMap<>(requests).entrySet()) {
                    if (!first) {
                        b.append(',');
                    }
                    first = false;
                    quote(b, e.getKey());
                    b.append(':');
                    Quantity q = e.getValue();
                    quote(
                            b,
                            q == null
                                    ? "0"
                                    : (q.getAmount() == null ? "" : q.getAmount())
                                            + (q.getFormat() == null ? "" : q.getFormat()));
                }
                b.append('}');
            }
            b.append('}');
        }
        if (derived != null && !derived.isEmpty()) {
            f.name("derivedAttributes");
            list(b, derived, d -> {
                b.append("{\"name\":");
                quote(b, d == null || d.getName() == null ? "" : d.getName());
                b.append(",\"expression\":");
                quote(b, d == null || d.getExpression() == null ? "" : d.getExpression());
                b.append('}');
            });
        }
    }

    static String counterSet(CounterSet s) {
        StringBuilder b = new StringBuilder("{\"name\":");
        quote(b, s == null || s.getName() == null ? "" : s.getName());
        counters(b, s == null ? null : s.getCounters());
        return b.append('}').toString();
    }

    static String counterConsumption(DeviceCounterConsumption c) {
        StringBuilder b = new StringBuilder("{\"counterSet\":");
        quote(b, c == null || c.getCounterSet() == null ? "" : c.getCounterSet());
        counters(b, c == null ? null : c.getCounters());
        return b.append('}').toString();
    }

    /** {@code ,"counters":{...}}; nothing for an empty map ({@code omitempty}, as the v1 types write it). */
    private static void counters(StringBuilder b, Map<String, Counter> counters) {
        if (counters == null || counters.isEmpty()) {
            return;
        }
        b.append(",\"counters\":");
        b.append('{');
        boolean first = true;
        for (Map.Entry<String, Counter> e : new TreeMap<>(counters).entrySet()) {
            if (!first) {
                b.append(',');
            }
            first = false;
            quote(b, e.getKey());
            b.append(":{\"value\":");
            Quantity q = e.getValue() == null ? null : e.getValue().getValue();
            quote(b, q == null ? "0" : KubeQuantity.fromFabric8(q).canonical());
            b.append('}');
        }
        b.append('}');
    }

    private static <T> void list(StringBuilder b, List<T> items, java.util.function.Consumer<T> item) {
        b.append('[');
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            item.accept(items.get(i));
        }
        b.append(']');
    }

    /** Go's encoding/json string encoding (with its default HTML escaping). */
    static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                        b.append(String.format("\\u%04x", (int) c));
                    } else if (Character.isSurrogate(c)
                            && !(Character.isHighSurrogate(c)
                                    && i + 1 < s.length()
                                    && Character.isLowSurrogate(s.charAt(i + 1)))
                            && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)))) {
                        b.append("\\ufffd");
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    /** Writes the separating commas of one JSON object's fields. */
    private static final class Fields {
        private final StringBuilder b;
        private boolean first = true;

        Fields(StringBuilder b) {
            this.b = b;
        }

        void name(String name) {
            if (!first) {
                b.append(',');
            }
            first = false;
            b.append('"').append(name).append("\":");
        }

        void string(String name, String value, boolean omitEmpty) {
            if (omitEmpty && (value == null || value.isEmpty())) {
                return;
            }
            name(name);
            quote(b, value == null ? "" : value);
        }
    }
}
