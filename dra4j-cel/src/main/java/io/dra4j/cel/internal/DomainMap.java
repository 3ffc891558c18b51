package io.dra4j.cel.internal;

import java.util.AbstractMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The value of {@code device.attributes} and {@code device.capacity}: domain → (id → value).
 *
 * <p>Upstream wraps these maps so that a <em>lookup</em> of an unknown domain (field selection, index, {@code has()},
 * optional selection) yields an empty map, while membership ({@code in}), size, iteration and equality see only the
 * domains that exist. cel-java routes selection and {@code has()} through {@link #containsKey} and {@link #get},
 * and indexing through {@link #get}; {@code in} is rebound to {@link #containsDomain} by the environment.
 */
public final class DomainMap extends AbstractMap<String, Object> {

    private static final Map<String, Object> EMPTY = Map.of();

    private final Map<String, Map<String, Object>> domains;

    public DomainMap(Map<String, Map<String, Object>> domains) {
        Map<String, Map<String, Object>> copy = new HashMap<>();
        domains.forEach((domain, ids) -> copy.put(domain, new Domain(Map.copyOf(ids))));
        this.domains = Map.copyOf(copy);
    }

    /** Whether a map is one domain's entries (upstream: a Go map keyed by strings, not a CEL-built map). */
    static boolean isDomain(Map<?, ?> map) {
        return map instanceof Domain;
    }

    /** The real membership test, used for the {@code in} operator. */
    public boolean containsDomain(Object key) {
        return domains.containsKey(key);
    }

    @Override
    public Object get(Object key) {
        Map<String, Object> domain = domains.get(key);
        if (domain != null) {
            return domain;
        }
        return key instanceof String ? EMPTY : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof String || domains.containsKey(key);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Set<Entry<String, Object>> entrySet() {
        return (Set) domains.entrySet();
    }

    @Override
    public int size() {
        return domains.size();
    }

    /** One domain's entries: id → value. */
    private static final class Domain extends AbstractMap<String, Object> {
        private final Map<String, Object> ids;

        Domain(Map<String, Object> ids) {
            this.ids = ids;
        }

        @Override
        public Object get(Object key) {
            return ids.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return ids.containsKey(key);
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return ids.entrySet();
        }

        @Override
        public int size() {
            return ids.size();
        }
    }
}
