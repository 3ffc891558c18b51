package io.dra4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * {@code optional.ofNonZeroValue(v)} as cel-go decides it: {@code optional.none()} for the values whose type
 * implements cel-go's {@code traits.Zeroer} and reports its zero value (false, 0, 0u, 0.0, "", b"", an empty list or
 * map other than {@code device.attributes} and {@code device.capacity}, null, a zero duration, and the timestamp of
 * Go's zero time, 0001-01-01T00:00:00Z); every other value, optionals and the Kubernetes types included, is kept. cel-java takes the Unix epoch for the zero timestamp.
 * Add it to the runtime before cel-java's optional extension: the first binding registered for an overload id is
 * the one cel-java keeps.
 */
final class GoZeroValues implements CelRuntimeLibrary {

    /** Go's zero time.Time, in Unix seconds: what cel-go's Timestamp.IsZeroValue (time.Time.IsZero) compares with. */
    private static final Instant GO_ZERO_TIME = Instant.ofEpochSecond(-62135596800L);

    @Override
    public void setRuntimeOptions(CelRuntimeBuilder builder) {
        builder.addFunctionBindings(CelFunctionBinding.from(
                "optional_ofNonZeroValue",
                Object.class,
                value -> isZeroValue(value) ? Optional.empty() : Optional.of(value)));
    }

    private static boolean isZeroValue(Object value) {
        if (value instanceof Boolean b) {
            return !b;
        }
        if (value instanceof Long l) {
            return l == 0L;
        }
        if (value instanceof UnsignedLong u) {
            return u.equals(UnsignedLong.ZERO);
        }
        if (value instanceof Double d) {
            return d == 0.0;
        }
        if (value instanceof String s) {
            return s.isEmpty();
        }
        if (value instanceof CelByteString bytes) {
            return bytes.isEmpty();
        }
        if (value instanceof Collection<?> list) {
            return list.isEmpty();
        }
        if (value instanceof DomainMap) {
            // device.attributes and device.capacity: Kubernetes' mapper, no Zeroer.
            return false;
        }
        if (value instanceof Map<?, ?> map) {
            return map.isEmpty();
        }
        if (value instanceof Duration d) {
            return d.isZero();
        }
        if (value instanceof Instant t) {
            return t.equals(GO_ZERO_TIME);
        }
        return value instanceof NullValue || value instanceof com.google.protobuf.NullValue;
    }
}
