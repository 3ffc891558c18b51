package io.dra4j.scenario;

import io.dra4j.allocator.FeatureGates;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Turns one {@code resource.k8s.io} object of a scenario file into its fabric8 v1 class: checks apiVersion and kind
 * first (older API versions get a note on what moved in v1), then decodes, then checks for unknown fields and
 * unparsable quantities.
 */
final class ObjectDecoder {
    static final String API_VERSION = "resource.k8s.io/v1";
    private static final List<String> KINDS =
            List.of("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule");
    private static final List<String> EXACT_FIELDS = List.of(
            "deviceClassName", "selectors", "allocationMode", "count", "adminAccess", "tolerations", "capacity");

    private ObjectDecoder() {}

    /**
     * Decodes {@code node}, the object at {@code list[index]}.
     *
     * @throws BadInput located at {@code list[index] (Kind name)} and the field inside the object
     */
    static <T> T decode(JsonNode node, String list, int index, String kind, Class<T> type) {
        return decode(node, list, index, kind, type, false, FeatureGates.defaults());
    }

    /**
     * Like {@link #decode(JsonNode, String, int, String, Class)}; with {@code validate} the object also gets the API
     * server's defaults and validation ({@link ApiValidation}) with {@code gates}.
     */
    static <T> T decode(
            JsonNode node, String list, int index, String kind, Class<T> type, boolean validate, FeatureGates gates) {
        String label = label(node, list, index);
        try {
            if (!node.isObject()) {
                throw new BadInput("", "want a " + kind + " object, found " + Json.describe(node));
            }
            checkType(node, list, kind);
            T value = Json.decode(node, type, Mappers.READER);
            ZeroValues.fill(value);
            ModelChecker.check(value);
            if (validate) {
                ApiValidation.defaultAndValidate(value, node, gates);
            }
            return value;
        } catch (BadInput e) {
            throw e.within(label);
        }
    }

    /** {@code resourceSlices[1] (ResourceSlice slice-2)}, with as much as the object tells. */
    static String label(JsonNode node, String list, int index) {
        String at = Where.index(list, index);
        if (!node.isObject()) {
            return at;
        }
        String kind = Json.text(node.get("kind")).orElse("");
        String name = Json.text(node.path("metadata").get("name")).orElse("");
        String what = (kind + " " + name).trim();
        return what.isEmpty() ? at : at + " (" + what + ")";
    }

    private static void checkType(JsonNode node, String list, String kind) {
        JsonNode apiVersionNode = node.get("apiVersion");
        if (apiVersionNode == null || apiVersionNode.isNull()) {
            throw new BadInput("apiVersion", "missing apiVersion (want " + API_VERSION + ")");
        }
        String apiVersion = Json.text(apiVersionNode)
                .orElseThrow(() -> new BadInput("apiVersion", "want a string, found " + Json.describe(apiVersionNode)));
        String actualKind = Json.text(node.get("kind")).orElse("");
        checkApiVersion(apiVersion, actualKind.isEmpty() ? kind : actualKind, node);
        if (actualKind.isEmpty()) {
            throw new BadInput("kind", "missing kind (want " + kind + ")");
        }
        if (!KINDS.contains(actualKind)) {
            throw new BadInput(
                    "kind",
                    "unknown kind \"" + actualKind + "\" (" + API_VERSION + " kinds: " + String.join(", ", KINDS) + "; "
                            + list + " holds " + kind + " objects)");
        }
        if (!actualKind.equals(kind)) {
            throw new BadInput(
                    "kind", "a " + actualKind + " does not belong in " + list + ", which holds " + kind + " objects");
        }
    }

    /**
     * Refuses every {@code resource.k8s.io} version but v1, saying for the older ones what moved.
     *
     * @throws BadInput located at {@code apiVersion}
     */
    static void checkApiVersion(String apiVersion, String kind, JsonNode node) {
        if (!apiVersion.equals(API_VERSION)) {
            throw new BadInput("apiVersion", unsupportedVersion(apiVersion, kind, node));
        }
    }

    /** Why an apiVersion is refused, and for the older resource.k8s.io versions what to change. */
    private static String unsupportedVersion(String apiVersion, String kind, JsonNode node) {
        String refused = "apiVersion " + apiVersion + " is not supported, only " + API_VERSION;
        switch (apiVersion) {
            case "resource.k8s.io/v1beta2":
                return refused + ": v1beta2 objects have the v1 shape, change apiVersion to " + API_VERSION;
            case "resource.k8s.io/v1beta1":
            case "resource.k8s.io/v1alpha3":
                return refused + ": " + olderShapeNote(apiVersion, kind, node);
            default:
                return refused;
        }
    }

    private static String olderShapeNote(String apiVersion, String kind, JsonNode node) {
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        String note;
        if (kind.equals("ResourceClaim") || kind.equals("ResourceClaimTemplate")) {
            note = "in v1 the " + version + " request fields " + String.join(", ", EXACT_FIELDS)
                    + " moved under spec.devices.requests[].exactly"
                    + firstRequestField(node).map(f -> " (here: " + f + ")").orElse("");
        } else if (kind.equals("ResourceSlice")) {
            note = "in v1 the " + version + " device fields devices[].basic.* moved to devices[].*"
                    + firstBasic(node).map(f -> " (here: " + f + ")").orElse("");
            if (version.equals("v1alpha3")) {
                note += ", and capacities are {value: <quantity>}";
            }
        } else {
            note = "the " + kind + " has the same fields in v1, change apiVersion to " + API_VERSION;
        }
        return note;
    }

    private static Optional<String> firstRequestField(JsonNode node) {
        JsonNode requests = node.path("spec").path("devices").path("requests");
        for (int i = 0; i < requests.size(); i++) {
            for (String f : EXACT_FIELDS) {
                if (requests.get(i).has(f)) {
                    String at = "spec.devices.requests[" + i + "].";
                    return Optional.of(at + f + " -> " + at + "exactly." + f);
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> firstBasic(JsonNode node) {
        JsonNode devices = node.path("spec").path("devices");
        for (int i = 0; i < devices.size(); i++) {
            if (devices.get(i).has("basic")) {
                String at = "spec.devices[" + i + "]";
                return Optional.of(at + ".basic.* -> " + at + ".*");
            }
        }
        return Optional.empty();
    }
}
