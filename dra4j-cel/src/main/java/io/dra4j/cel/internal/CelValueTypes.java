package io.dra4j.cel.internal;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.types.CelType;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import io.dra4j.cel.KubeQuantity;
import io.dra4j.cel.Semver;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** cel-go's name for the type of a runtime value, as its error messages print it. */
final class CelValueTypes {
    private CelValueTypes() {}

    static String name(Object v) {
        if (v == null) {
            return "null_type";
        }
        if (v instanceof Long) {
            return "int";
        }
        if (v instanceof UnsignedLong) {
            return "uint";
        }
        if (v instanceof Double) {
            return "double";
        }
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof Boolean) {
            return "bool";
        }
        if (v instanceof CelByteString) {
            return "bytes";
        }
        if (v instanceof List) {
            return "list";
        }
        if (v instanceof Map) {
            return "map";
        }
        if (v instanceof NullValue || v instanceof com.google.protobuf.NullValue) {
            return "null_type";
        }
        if (v instanceof Duration) {
            return "google.protobuf.Duration";
        }
        if (v instanceof Instant) {
            return "google.protobuf.Timestamp";
        }
        if (v instanceof Optional) {
            return "optional_type";
        }
        if (v instanceof CelType) {
            return "type";
        }
        if (v instanceof Semver) {
            return KubeTypes.SEMVER.name();
        }
        if (v instanceof KubeQuantity) {
            return KubeTypes.QUANTITY.name();
        }
        if (v instanceof IpAddress) {
            return KubeTypes.IP.name();
        }
        if (v instanceof IpPrefix) {
            return KubeTypes.CIDR.name();
        }
        if (v instanceof GoUrl) {
            return KubeTypes.URL.name();
        }
        if (v instanceof NamedFormat) {
            return KubeTypes.NAMED_FORMAT.name();
        }
        return v.getClass().getSimpleName();
    }
}
