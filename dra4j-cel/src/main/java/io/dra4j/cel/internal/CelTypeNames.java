package io.dra4j.cel.internal;

import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import java.util.stream.Collectors;

/** Type names as cel-go prints them, for messages that must match upstream's. */
public final class CelTypeNames {

    private CelTypeNames() {}

    /**
     * A checker message's type names as cel-go's checker writes them ({@code checker.FormatCELType}): the well-known
     * types by their CEL names.
     */
    public static String checkerText(String text) {
        return text.replace("google.protobuf.Duration", "duration")
                .replace("google.protobuf.Timestamp", "timestamp")
                .replace("null_type", "null")
                .replace("google.protobuf.Any", "any")
                .replace("*error*", "!error!");
    }

    /** The name of a checked type as cel-go's {@code Type.String()} writes it, e.g. {@code map(string, dyn)}. */
    public static String checked(CelType type) {
        CelKind kind = type.kind();
        switch (kind) {
            case LIST:
                return "list(" + checked(type.parameters().get(0)) + ")";
            case MAP:
                return "map(" + checked(type.parameters().get(0)) + ", "
                        + checked(type.parameters().get(1)) + ")";
            case TYPE:
                return type.parameters().isEmpty()
                        ? "type"
                        : "type(" + checked(type.parameters().get(0)) + ")";
            case DYN:
                return "dyn";
            case ANY:
                return "google.protobuf.Any";
            case NULL_TYPE:
                return "null_type";
            case TIMESTAMP:
                return "google.protobuf.Timestamp";
            case DURATION:
                return "google.protobuf.Duration";
            default:
                if (type.parameters().isEmpty()) {
                    return type.name();
                }
                return type.name() + "("
                        + type.parameters().stream().map(CelTypeNames::checked).collect(Collectors.joining(", ")) + ")";
        }
    }
}
