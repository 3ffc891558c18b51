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
    domains.forEach((domain, ids) -> copy.put(domain, Map.copyOf(ids)));
    this.domains = Map.copyOf(copy);
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
}
