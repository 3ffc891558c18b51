package io.dra4j.cel.internal;

import dev.cel.common.CelOptions;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelInternalRuntimeLibrary;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.RuntimeEquality;
import java.util.Map;

/**
 * The {@code in} operator on maps, replacing cel-java's standard binding: for {@link DomainMap}s it tests the domains
 * that exist (upstream's {@code "x" in device.attributes} is false for an unknown domain although looking that
 * domain up yields an empty map); every other map gets the standard semantics.
 */
final class DomainMembership implements CelInternalRuntimeLibrary {

  static final String OVERLOAD = "in_map";

  @Override
  public void setRuntimeOptions(CelRuntimeBuilder builder, RuntimeEquality equality, CelOptions options) {
    builder.addFunctionBindings(CelFunctionBinding.from(OVERLOAD, Object.class, Map.class,
        (Object key, Map map) -> map instanceof DomainMap ? ((DomainMap) map).containsDomain(key)
            : equality.inMap(map, key)));
  }

  @Override
  public void setRuntimeOptions(CelRuntimeBuilder builder) {
    throw new UnsupportedOperationException("needs the runtime equality");
  }
}
