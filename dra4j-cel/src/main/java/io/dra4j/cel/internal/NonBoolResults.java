package io.dra4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.Semver;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Upstream's error for a selector whose result is not a bool: "CEL result of type T could not be converted to
 * bool: D", where T is cel-go's type name and D is cel-go's conversion error for that type.
 */
final class NonBoolResults {

    private NonBoolResults() {}

    static String message(Object value) {
        return "CEL result of type " + typeName(value) + " could not be converted to bool: " + conversionError(value);
    }

    private static String typeName(Object value) {
        if (value instanceof Long) {
            return "int";
        }
        if (value instanceof UnsignedLong) {
            return "uint";
        }
        if (value instanceof Double) {
            return "double";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof ByteString || value instanceof CelByteString) {
            return "bytes";
        }
        if (value instanceof NullValue || value instanceof com.google.protobuf.NullValue) {
            return "null_type";
        }
        if (value instanceof List) {
            return "list";
        }
        if (value instanceof Map) {
            return "map";
        }
        if (value instanceof Optional) {
            return "optional_type";
        }
        if (value instanceof KubeQuantity) {
            return "kubernetes.Quantity";
        }
        if (value instanceof Semver) {
            return "kubernetes.Semver";
        }
        if (value instanceof java.time.Duration || value instanceof com.google.protobuf.Duration) {
            return "google.protobuf.Duration";
        }
        if (value instanceof java.time.Instant || value instanceof com.google.protobuf.Timestamp) {
            return "google.protobuf.Timestamp";
        }
        if (value instanceof dev.cel.common.types.CelType) {
            return "type";
        }
        if (value instanceof IpAddress) {
            return "net.IP";
        }
        if (value instanceof IpPrefix) {
            return "net.CIDR";
        }
        if (value instanceof GoUrl) {
            return "kubernetes.URL";
        }
        if (value instanceof NamedFormat) {
            return "kubernetes.NamedFormat";
        }
        return value.getClass().getSimpleName();
    }

    private static String conversionError(Object value) {
        if (value instanceof Long) {
            return "unsupported type conversion from 'int' to bool";
        }
        if (value instanceof UnsignedLong) {
            return "unsupported type conversion from 'uint' to bool";
        }
        if (value instanceof String) {
            return "unsupported native conversion from string to 'bool'";
        }
        if (value instanceof Double) {
            return "type conversion error from Double to 'bool'";
        }
        if (value instanceof ByteString || value instanceof CelByteString) {
            return "type conversion error from Bytes to 'bool'";
        }
        if (value instanceof List) {
            return "type conversion error from list to 'bool'";
        }
        if (value instanceof Map) {
            return "type conversion error from map to 'bool'";
        }
        if (value instanceof Optional) {
            Optional<?> optional = (Optional<?>) value;
            if (optional.isPresent()) {
                // cel-go converts the wrapped value (a wrapped bool converts, see SelectorProgram).
                return conversionError(optional.get());
            }
            // cel-go's Optional.ConvertToNative of optional.none().
            return "optional.none() dereference";
        }
        if (value instanceof dev.cel.common.types.CelType) {
            return "type conversion not supported for 'type'";
        }
        String name = typeName(value);
        int dot = name.lastIndexOf('.');
        return "type conversion error from '" + name.substring(dot + 1) + "' to 'bool'";
    }
}
