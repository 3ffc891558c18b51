package io.dra4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelOptions;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import dev.cel.runtime.CelInternalRuntimeLibrary;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.standard.IndexOperator;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.Semver;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The index operator with cel-go's check of the index: cel-go turns an index value into an attribute qualifier and
 * accepts only strings, numbers and bools there, so {@code m[v]} for a version {@code v} fails with "invalid
 * qualifier type: cel.Semver" (the Go type name) before any lookup. Otherwise cel-java's standard binding applies.
 */
final class GoIndexing implements CelInternalRuntimeLibrary {

  @Override
  public void setRuntimeOptions(CelRuntimeBuilder builder, RuntimeEquality equality, CelOptions options) {
    for (IndexOperator.IndexOverload overload : IndexOperator.IndexOverload.values()) {
      CelFunctionBinding standard = overload.newFunctionBinding(options, equality);
      CelFunctionOverload lookup = standard.getDefinition();
      builder.addFunctionBindings(CelFunctionBinding.from(standard.getOverloadId(), standard.getArgTypes(),
          args -> {
            invalidQualifierType(args[1]).ifPresent(type -> {
              throw new InvalidQualifier(type);
            });
            return lookup.apply(args);
          }));
    }
  }

  @Override
  public void setRuntimeOptions(CelRuntimeBuilder builder) {
    throw new UnsupportedOperationException("needs the runtime equality");
  }

  /** cel-go's Go type name of an index value it cannot qualify with, for the types whose name is certain. */
  private static Optional<String> invalidQualifierType(Object index) {
    if (index instanceof String || index instanceof Long || index instanceof UnsignedLong
        || index instanceof Boolean || index instanceof Double) {
      return Optional.empty();
    }
    if (index instanceof Semver) {
      return Optional.of("cel.Semver");
    }
    if (index instanceof KubeQuantity) {
      return Optional.of("cel.Quantity");
    }
    if (index instanceof IpAddress) {
      return Optional.of("cel.IP");
    }
    if (index instanceof IpPrefix) {
      return Optional.of("cel.CIDR");
    }
    if (index instanceof GoUrl) {
      return Optional.of("cel.URL");
    }
    if (index instanceof NamedFormat) {
      return Optional.of("cel.Format");
    }
    if (index instanceof NullValue || index instanceof com.google.protobuf.NullValue) {
      return Optional.of("types.Null");
    }
    if (index instanceof CelByteString) {
      return Optional.of("types.Bytes");
    }
    if (index instanceof Duration) {
      return Optional.of("types.Duration");
    }
    if (index instanceof Instant) {
      return Optional.of("types.Timestamp");
    }
    return Optional.empty();
  }

  /** The failure, unchecked so that it can leave the lambda; cel-java reports it as an evaluation error. */
  private static final class InvalidQualifier extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidQualifier(String goType) {
      super("invalid qualifier type: " + goType, null, false, false);
    }
  }
}
