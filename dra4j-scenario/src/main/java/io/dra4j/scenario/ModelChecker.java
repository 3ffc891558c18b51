package io.dra4j.scenario;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.Quantity;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a decoded fabric8 object the way Kubernetes' strict decoding would: fabric8 keeps unknown fields in
 * {@code additionalProperties} instead of failing, and parses quantities only lazily, so both are looked for here,
 * by walking the object's JSON properties.
 */
final class ModelChecker {
    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";
    private static final Pattern REQUEST_PATH = Pattern.compile("spec\\.devices\\.requests\\[\\d+]");
    private static final Pattern DEVICE_PATH = Pattern.compile("spec\\.devices\\[\\d+]");
    private static final Set<String> EXACT_FIELDS =
            Set.of("deviceClassName", "selectors", "allocationMode", "count", "adminAccess", "tolerations", "capacity");

    /** The JSON properties of a model class, with the field holding each. */
    private record Property(String name, Field field) {}

    private static final ClassValue<List<Property>> PROPERTIES = new ClassValue<>() {
        @Override
        protected List<Property> computeValue(Class<?> type) {
            List<Property> out = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    JsonProperty p = f.getAnnotation(JsonProperty.class);
                    // Fields typed Object hold free-form data (opaque driver parameters): not part of the schema.
                    if (p == null || Modifier.isStatic(f.getModifiers()) || f.getType() == Object.class) {
                        continue;
                    }
                    f.setAccessible(true);
                    out.add(new Property(p.value().isEmpty() ? f.getName() : p.value(), f));
                }
            }
            return List.copyOf(out);
        }
    };

    private ModelChecker() {}

    /**
     * @throws BadInput for the first unknown field or unparsable quantity, located by its path inside the object
     */
    static void check(Object object) {
        walk(object, "");
    }

    private static void walk(Object o, String path) {
        // managedFields' fieldsV1 is free-form by schema (the API server's field set), not unknown fields.
        if (o == null || o instanceof FieldsV1) {
            return;
        }
        if (o instanceof Quantity q) {
            checkQuantity(q, path);
            return;
        }
        if (o instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                walk(list.get(i), Where.index(path, i));
            }
            return;
        }
        if (o instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getValue() != null) {
                    walk(e.getValue(), Where.field(path, String.valueOf(e.getKey())));
                }
            }
            return;
        }
        if (!o.getClass().getName().startsWith(MODEL_PACKAGE)) {
            return;
        }
        Map<String, Object> unknown = additionalProperties(o);
        if (!unknown.isEmpty()) {
            String key = unknown.keySet().iterator().next();
            throw new BadInput(Where.field(path, key), "unknown field \"" + key + "\"" + hint(path, key));
        }
        // Paths are built only for the fields set: most of a model object's fields are null.
        for (Property p : PROPERTIES.get(o.getClass())) {
            Object value = read(p.field, o);
            if (value != null) {
                walk(value, Where.field(path, p.name));
            }
        }
    }

    private static void checkQuantity(Quantity q, String path) {
        try {
            KubeQuantity.fromFabric8(q);
        } catch (IllegalArgumentException e) {
            throw new BadInput(path, unparsable(text(q), e));
        }
    }

    /** The problem of a quantity that does not parse: its text and resource.ParseQuantity's error. */
    static String unparsable(String text, IllegalArgumentException e) {
        return "quantity \"" + text + "\" cannot be parsed: " + e.getMessage();
    }

    private static String text(Quantity q) {
        return (q.getAmount() == null ? "" : q.getAmount()) + (q.getFormat() == null ? "" : q.getFormat());
    }

    /** What moved in resource.k8s.io/v1, for the fields people carry over from v1beta1. */
    private static String hint(String path, String key) {
        if (EXACT_FIELDS.contains(key) && REQUEST_PATH.matcher(path).matches()) {
            return " (in resource.k8s.io/v1 it belongs under exactly: " + path + ".exactly." + key + ")";
        }
        if (key.equals("basic") && DEVICE_PATH.matcher(path).matches()) {
            return " (resource.k8s.io/v1 has no basic: move its fields up into " + path + ")";
        }
        return "";
    }

    /** Each model class's {@code getAdditionalProperties}, looked up once. */
    private static final ClassValue<java.util.Optional<Method>> ADDITIONAL = new ClassValue<>() {
        @Override
        protected java.util.Optional<Method> computeValue(Class<?> type) {
            try {
                return java.util.Optional.of(type.getMethod("getAdditionalProperties"));
            } catch (NoSuchMethodException e) {
                return java.util.Optional.empty();
            }
        }
    };

    @SuppressWarnings("unchecked")
    private static Map<String, Object> additionalProperties(Object o) {
        java.util.Optional<Method> m = ADDITIONAL.get(o.getClass());
        if (m.isEmpty()) {
            return Map.of();
        }
        try {
            Object extra = m.get().invoke(o);
            return extra instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot inspect " + o.getClass().getName(), e);
        }
    }

    private static Object read(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot inspect " + f, e);
        }
    }
}
