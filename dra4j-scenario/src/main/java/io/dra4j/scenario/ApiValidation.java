package io.dra4j.scenario;

import io.dra4j.allocator.DraFeature;
import io.dra4j.allocator.FeatureGates;
import io.dra4j.allocator.KubernetesVersion;
import io.dra4j.cel.CelFeatures;
import io.dra4j.cel.CompiledExpression;
import io.dra4j.cel.DeviceSelectorEnvironment;
import io.dra4j.cel.KubeQuantity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceDerivedAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.NodeAllocatableMapping;
import io.fabric8.kubernetes.api.model.resource.v1.NodeAllocatableOverhead;
import io.fabric8.kubernetes.api.model.resource.v1.NodeAllocatableResource;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePool;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * The checks kube-apiserver 1.37 makes when these objects are created (k8s.io/kubernetes pkg/apis/resource/validation,
 * after v1 defaulting), with its field paths and messages, so that an object the API server would reject never
 * reaches the allocator. Covered: object names, requests (names, uniqueness, exactly/firstAvailable, device class,
 * selectors and their CEL length, allocation mode and count), constraints and config (request references, limits),
 * slices (driver, pool, node selection and node selectors, per-device node selection, devices, attributes and their
 * value types, limits, shared counters and counter consumption with their limits, device taints, binding
 * conditions), CEL compilation, opaque configuration, tolerations, DeviceTaintRules, extended resource names and the
 * CEL cost estimate. The API server's gates are given: the strategies' dropDisabledFields run first
 * ({@link SliceFieldDrops}, {@link ClaimFieldDrops}, after the claims' defaults), and new CEL expressions compile with its features. Where 1.37's declarative validation
 * is authoritative, the messages are the declarative ones, and in the API server's order: it drops the covered
 * hand-written errors and appends the declarative ones ({@link #declaratively}). The fabric8 model reads an
 * explicitly empty list as an absent one; given the object as written, the checks that tell them apart do so. Not
 * covered (accepted here, rejected upstream): status, and, with its alpha gate on, partitionTypeAttribute (its gate
 * DRAPartitionableDevicesType is not one dra4j sets, so it is always dropped); list-type attributes, node allocatable
 * resources, skipNodeOperations and derived attributes are validated when their gates keep them. oracle/validate/difftest compares it with the API
 * server's own code. Over 800 lines: one class holds the error lists the API server's validation functions append
 * to, in their order.
 */
final class ApiValidation {
    private static final FeatureGates DEFAULT_GATES = FeatureGates.defaults(KubernetesVersion.V1_37);
    /** The SkipNodeOperation enum's values, in the order the API server lists them. */
    private static final List<String> SKIP_NODE_OPERATIONS =
            List.of("*", "NodePrepareResources", "NodeUnprepareResources");

    static final int DEVICE_REQUESTS_MAX = 32;
    static final int FIRST_AVAILABLE_MAX = 8;
    static final int SELECTORS_MAX = 32;
    static final int CONSTRAINTS_MAX = 32;
    static final int CONFIG_MAX = 32;
    static final int DERIVED_ATTRIBUTES_MAX = 32;
    /** DeviceClaimDerivedAttributeCELMaxCost: the estimated cost of all derived attributes of a claim together. */
    static final long DERIVED_ATTRIBUTES_CLAIM_COST_MAX = 1_000_000;

    static final int CEL_EXPRESSION_MAX_LENGTH = 10 * 1024;
    static final int SLICE_MAX_DEVICES = 128;
    static final int SLICE_MAX_DEVICES_WITH_ADVANCED_FEATURES = 64;
    static final int ATTRIBUTES_AND_CAPACITIES_MAX = 32;
    static final int ATTRIBUTE_VALUES_MAX = 48;
    static final int ATTRIBUTE_VALUE_MAX_LENGTH = 64;
    static final int ID_MAX_LENGTH = 32;
    static final int DRIVER_NAME_MAX_LENGTH = 63;
    static final int POOL_NAME_MAX_LENGTH = 253;
    static final int DEVICE_TAINTS_MAX = 16;
    static final int BINDING_CONDITIONS_MAX = 4;
    static final int COUNTER_CONSUMPTIONS_MAX = 2;
    static final int COUNTER_SETS_MAX = 8;
    static final int COUNTERS_PER_SET_MAX = 32;
    static final int COUNTERS_PER_CONSUMPTION_MAX = 32;
    static final int CAPACITY_REQUEST_POLICY_MAX_OPTIONS = 10;

    private static final String LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String SUBDOMAIN_FMT = LABEL_FMT + "(\\." + LABEL_FMT + ")*";
    private static final String C_IDENTIFIER_FMT = "[A-Za-z_][A-Za-z0-9_]*";
    private static final Pattern LABEL = Pattern.compile(LABEL_FMT);
    private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_FMT);
    private static final Pattern C_IDENTIFIER = Pattern.compile(C_IDENTIFIER_FMT);
    private static final Pattern SEMVER = Pattern.compile("^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
            + "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
            + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$");
    private static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
            + "regex used for validation is '" + LABEL_FMT + "')";
    private static final String SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case "
            + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
            + "'example.com', regex used for validation is '" + SUBDOMAIN_FMT + "')";
    private static final String C_IDENTIFIER_MSG = "a valid C identifier must start with alphabetic character or '_', "
            + "followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', "
            + "regex used for validation is '" + C_IDENTIFIER_FMT + "')";
    private static final String REQUEST_REF_MSG = "must be the name of a request in the claim or the name of a request "
            + "and a subrequest separated by '/'";

    /** One field.Error, written as {@code field.Error.Error()} writes it. */
    record FieldError(String field, String body) {
        @Override
        public String toString() {
            return field + ": " + body;
        }
    }

    /** The API server's gates: which fields its strategies drop, and the CEL features of new expressions. */
    private final FeatureGates gates;
    /** The CEL environment for new expressions with the API server's gates (validateCELExpression). */
    private final DeviceSelectorEnvironment cel;
    /**
     * The object as written (a missing node when unknown): the fabric8 model reads an explicitly empty list as an
     * absent one, which Go's validation tells apart.
     */
    private final JsonNode raw;
    /** The hand-written validation's errors, in its order. */
    private final List<FieldError> errors = new ArrayList<>();
    /** The declarative validation's errors, in its order (the fields of each type in declaration order). */
    private final List<FieldError> declarative = new ArrayList<>();
    /** Where the checks running now report: {@link #errors}, or {@link #declarative} inside {@link #declaratively}. */
    private List<FieldError> sink = errors;
    /**
     * Of the claim being validated (gatherConstraintAttributes): per request reference ("req", "req/sub", or "" for
     * constraints of every request), the attribute names its constraints match or keep distinct.
     */
    private Map<String, Set<String>> constraintAttributes = Map.of();
    /** Of the claim being validated: the estimated maximum costs of its derived attributes, summed as uint64. */
    private long derivedAttributesCost;

    private ApiValidation(FeatureGates gates, JsonNode raw) {
        this.gates = gates;
        this.raw = raw == null ? MissingNode.getInstance() : raw;
        this.cel = DeviceSelectorEnvironment.create(new CelFeatures(
                gates.isEnabled(DraFeature.DRAConsumableCapacity), gates.isEnabled(DraFeature.DRAListTypeAttributes)));
    }

    /**
     * Applies the v1 defaults the API server applies (a request's allocationMode ExactCount, count 1 when it is 0 or
     * absent) and drops the fields of disabled features as its strategies do, then validates. Modifies {@code object}
     * (only its defaults and dropped fields), before it is shared.
     *
     * @param raw the object as written, or null when unknown (explicitly empty lists then read as absent)
     * @throws BadInput at the first error's field path, with every error's message
     */
    static void defaultAndValidate(Object object, JsonNode raw, FeatureGates gates) {
        List<FieldError> errors = errors(object, raw, gates);
        if (!errors.isEmpty()) {
            FieldError first = errors.get(0);
            StringBuilder message = new StringBuilder(first.body());
            for (FieldError e : errors.subList(1, errors.size())) {
                message.append("; ").append(e);
            }
            throw new BadInput(first.field(), message.toString());
        }
    }

    /** {@link #defaultAndValidate(Object, JsonNode, FeatureGates)} with 1.37's default gates, the raw input unknown. */
    static void defaultAndValidate(Object object) {
        defaultAndValidate(object, null, DEFAULT_GATES);
    }

    /** Applies the defaults as {@link #defaultAndValidate} does and returns every error, in the API server's order. */
    static List<FieldError> errors(Object object, JsonNode raw, FeatureGates gates) {
        ApiValidation v = new ApiValidation(gates, raw);
        if (object instanceof ResourceClaim c) {
            if (c.getSpec() != null) {
                defaults(c.getSpec().getDevices());
                ClaimFieldDrops.apply(c.getSpec().getDevices(), gates);
            }
            v.objectName(c.getMetadata(), false);
            v.claimSpec(c.getSpec() == null ? null : c.getSpec().getDevices(), "spec.devices");
        } else if (object instanceof ResourceClaimTemplate t) {
            if (t.getSpec() != null && t.getSpec().getSpec() != null) {
                defaults(t.getSpec().getSpec().getDevices());
                ClaimFieldDrops.apply(t.getSpec().getSpec().getDevices(), gates);
            }
            v.objectName(t.getMetadata(), false);
            v.claimSpec(
                    t.getSpec() == null || t.getSpec().getSpec() == null
                            ? null
                            : t.getSpec().getSpec().getDevices(),
                    "spec.spec.devices");
        } else if (object instanceof DeviceClass c) {
            v.className(c.getMetadata());
            if (c.getSpec() != null) {
                v.classSpec(c.getSpec());
            }
        } else if (object instanceof DeviceTaintRule r) {
            v.objectName(r.getMetadata(), false);
            v.taintRuleSpec(r.getSpec() == null ? new DeviceTaintRuleSpec() : r.getSpec());
        } else if (object instanceof ResourceSlice s) {
            if (s.getSpec() != null) {
                SliceFieldDrops.apply(s.getSpec(), gates);
            }
            v.objectName(s.getMetadata(), false);
            v.sliceSpec(s.getSpec() == null ? new ResourceSliceSpec() : s.getSpec());
        }
        // rest.ValidateDeclarativelyWithMigrationChecks: the covered hand-written errors are dropped (they are not
        // reported here) and the declarative ones appended. Dropping them goes through ErrorList.Filter, whose
        // ToAggregate keeps one of hand-written errors that read the same (two step errors for an equal default and
        // max).
        List<FieldError> all = new ArrayList<>(v.errors.stream().distinct().toList());
        all.addAll(v.declarative);
        return List.copyOf(all);
    }

    /** SetDefaults_ExactDeviceRequest and SetDefaults_DeviceSubRequest of k8s.io/kubernetes pkg/apis/resource/v1. */
    private static void defaults(DeviceClaim devices) {
        if (devices == null || devices.getRequests() == null) {
            return;
        }
        for (DeviceRequest r : devices.getRequests()) {
            if (r == null) {
                continue;
            }
            ExactDeviceRequest e = r.getExactly();
            if (e != null) {
                if (e.getAllocationMode() == null || e.getAllocationMode().isEmpty()) {
                    e.setAllocationMode("ExactCount");
                }
                if (e.getAllocationMode().equals("ExactCount") && (e.getCount() == null || e.getCount() == 0)) {
                    e.setCount(1L);
                }
            }
            if (r.getFirstAvailable() != null) {
                for (DeviceSubRequest s : r.getFirstAvailable()) {
                    if (s == null) {
                        continue;
                    }
                    if (s.getAllocationMode() == null || s.getAllocationMode().isEmpty()) {
                        s.setAllocationMode("ExactCount");
                    }
                    if (s.getAllocationMode().equals("ExactCount") && (s.getCount() == null || s.getCount() == 0)) {
                        s.setCount(1L);
                    }
                }
            }
        }
    }

    /**
     * Runs checks that 1.37's declarative validation makes (beta or standard, so enforced; their hand-written
     * counterparts, where any, are covered): the API server reports their errors after every hand-written one.
     */
    private void declaratively(Runnable checks) {
        List<FieldError> outer = sink;
        sink = declarative;
        try {
            checks.run();
        } finally {
            sink = outer;
        }
    }

    /** {@link #tooMany} as the declarative maxItems reports it (short-circuiting that list's declarative checks). */
    private boolean tooManyDeclared(List<?> list, int max, String field) {
        boolean[] over = {false};
        declaratively(() -> over[0] = tooMany(list, max, field));
        return over[0];
    }

    // --- field.Error constructors (k8s.io/apimachinery/pkg/util/validation/field) ---

    private void required(String field, String detail) {
        sink.add(new FieldError(field, "Required value" + (detail.isEmpty() ? "" : ": " + detail)));
    }

    private void invalid(String field, String value, String detail) {
        sink.add(new FieldError(field, "Invalid value: " + value + (detail.isEmpty() ? "" : ": " + detail)));
    }

    private void forbidden(String field, String detail) {
        sink.add(new FieldError(field, "Forbidden: " + detail));
    }

    private void tooLong(String field, int max) {
        sink.add(new FieldError(field, "Too long: may not be more than " + max + " bytes"));
    }

    private void duplicate(String field, String value) {
        sink.add(new FieldError(field, "Duplicate value: " + quote(value)));
    }

    /** TooMany; true when the list is too long (validateSlice then checks no items, for DOS protection). */
    private boolean tooMany(List<?> list, int max, String field) {
        if (list != null && list.size() > max) {
            sink.add(new FieldError(field, "Too many: " + list.size() + ": must have at most " + max + " items"));
            return true;
        }
        return false;
    }

    /** Go's %q of a string. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    // --- names ---

    private void objectName(ObjectMeta meta, boolean label) {
        String name = meta == null || meta.getName() == null ? "" : meta.getName();
        String generateName = meta == null || meta.getGenerateName() == null ? "" : meta.getGenerateName();
        if (name.isEmpty()) {
            if (generateName.isEmpty()) {
                required("metadata.name", "name or generateName is required");
            }
            return;
        }
        if (label) {
            dnsLabel(name, "metadata.name");
        } else {
            dnsSubdomain(name, "metadata.name");
        }
    }

    /**
     * A DeviceClass's name: validate.LongName (+k8s:format=k8s-long-name, authoritative in 1.37), whose length
     * message counts bytes.
     */
    private void className(ObjectMeta meta) {
        String name = meta == null || meta.getName() == null ? "" : meta.getName();
        String generateName = meta == null || meta.getGenerateName() == null ? "" : meta.getGenerateName();
        if (name.isEmpty()) {
            if (generateName.isEmpty()) {
                required("metadata.name", "name or generateName is required");
            }
            return;
        }
        declaratively(() -> longName(name, "metadata.name", ""));
    }

    /** validate.LongName: content.IsDNS1123Subdomain, with the length in bytes; each detail after detailPrefix. */
    private void longName(String value, String field, String detailPrefix) {
        if (value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 253) {
            invalid(field, quote(value), detailPrefix + "must be no more than 253 bytes");
        }
        if (!SUBDOMAIN.matcher(value).matches()) {
            invalid(field, quote(value), detailPrefix + SUBDOMAIN_MSG);
        }
    }

    /** A subrequest's deviceClassName: required, then validate.LongName (declarative, authoritative in 1.37). */
    private void subRequestClass(String name, String field) {
        declaratively(() -> {
            if (name == null || name.isEmpty()) {
                required(field, "");
            } else {
                longName(name, field, "");
            }
        });
    }

    private void dnsLabel(String value, String field) {
        if (value.length() > 63) {
            invalid(field, quote(value), "must be no more than 63 characters");
        }
        if (!LABEL.matcher(value).matches()) {
            invalid(field, quote(value), SUBDOMAIN.matcher(value).matches() ? "must not contain dots" : LABEL_MSG);
        }
    }

    private void dnsSubdomain(String value, String field) {
        if (value.length() > 253) {
            invalid(field, quote(value), "must be no more than 253 characters");
        }
        if (!SUBDOMAIN.matcher(value).matches()) {
            invalid(field, quote(value), SUBDOMAIN_MSG);
        }
    }

    /** corevalidation.ValidateCSIDriverName, which DRA uses for driver names. */
    private void driverName(String value, String field) {
        if (value == null || value.isEmpty()) {
            required(field, "");
            return;
        }
        if (value.length() > DRIVER_NAME_MAX_LENGTH) {
            tooLong(field, DRIVER_NAME_MAX_LENGTH);
        }
        String lower = value.toLowerCase(java.util.Locale.ROOT);
        if (lower.length() > 253) {
            invalid(field, quote(value), "must be no more than 253 characters");
        }
        if (!SUBDOMAIN.matcher(lower).matches()) {
            invalid(field, quote(value), SUBDOMAIN_MSG);
        }
    }

    private void cIdentifier(String id, String field) {
        if (id.length() > ID_MAX_LENGTH) {
            tooLong(field, ID_MAX_LENGTH);
        }
        if (!C_IDENTIFIER.matcher(id).matches()) {
            invalid(field, quote(id), C_IDENTIFIER_MSG);
        }
    }

    /** An attribute or capacity name: a C identifier, optionally qualified by a domain. */
    private void qualifiedName(String name, String field) {
        String[] parts = name.split("/", -1);
        if (parts.length == 1) {
            cIdentifier(parts[0], field);
        } else if (parts.length == 2) {
            if (parts[0].isEmpty()) {
                invalid(field, "\"\"", "the domain must not be empty");
            } else {
                driverName(parts[0], field);
            }
            if (parts[1].isEmpty()) {
                invalid(field, "\"\"", "the name must not be empty");
            } else {
                cIdentifier(parts[1], field);
            }
        }
    }

    /**
     * A constraint's matchAttribute or distinctAttribute: validate.ResourceFullyQualifiedName
     * (+k8s:format=k8s-resource-fully-qualified-name, authoritative in 1.37; its errors replace the hand-written
     * ones of every type it reports, and it reports every type those have).
     */
    private void fullyQualifiedName(String name, String field) {
        String[] parts = name.split("/", -1);
        if (parts.length == 1) {
            cIdentifier(parts[0], field);
        } else if (parts.length == 2) {
            if (parts[0].isEmpty()) {
                invalid(field, "\"\"", "prefix must not be empty");
            } else {
                if (parts[0].getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 63) {
                    tooLong(field, 63);
                }
                longName(parts[0], field, "prefix: ");
            }
            if (parts[1].isEmpty()) {
                invalid(field, "\"\"", "name must not be empty");
            } else {
                cIdentifier(parts[1], field);
            }
        }
        if (!name.contains("/")) {
            invalid(field, quote(name), "a fully qualified name must be a domain and a name separated by a slash");
        }
    }

    // --- claims ---

    private void claimSpec(DeviceClaim devices, String at) {
        if (devices == null) {
            return;
        }
        Map<String, Set<String>> requestNames = requestNames(devices);
        constraintAttributes = constraintAttributes(devices.getConstraints());
        derivedAttributesCost = 0;
        List<DeviceRequest> requests = devices.getRequests();
        if (!tooManyDeclared(requests, DEVICE_REQUESTS_MAX, at + ".requests") && requests != null) {
            // Declaratively the keys are checked before the items.
            duplicateItems(
                    requests,
                    r -> r == null ? null : r.getName(),
                    r -> GoJson.request(r == null ? new DeviceRequest() : r),
                    at + ".requests");
            for (int i = 0; i < requests.size(); i++) {
                request(requests.get(i) == null ? new DeviceRequest() : requests.get(i), at + ".requests[" + i + "]");
            }
        }
        List<DeviceConstraint> constraints = devices.getConstraints();
        if (!tooManyDeclared(constraints, CONSTRAINTS_MAX, at + ".constraints") && constraints != null) {
            for (int i = 0; i < constraints.size(); i++) {
                constraint(
                        constraints.get(i) == null ? new DeviceConstraint() : constraints.get(i),
                        at + ".constraints[" + i + "]",
                        requestNames);
            }
        }
        List<DeviceClaimConfiguration> config = devices.getConfig();
        if (!tooManyDeclared(config, CONFIG_MAX, at + ".config") && config != null) {
            for (int i = 0; i < config.size(); i++) {
                DeviceClaimConfiguration c = config.get(i) == null ? new DeviceClaimConfiguration() : config.get(i);
                String field = at + ".config[" + i + "]";
                requestRefs(c.getRequests(), field + ".requests", requestNames);
                opaque(c.getOpaque(), field + ".opaque");
            }
        }
        if (Long.compareUnsigned(derivedAttributesCost, DERIVED_ATTRIBUTES_CLAIM_COST_MAX) > 0) {
            forbidden(
                    at, "too complex, total cost of derived attribute CEL expressions in the claim exceeds cost limit");
        }
    }

    /** gatherConstraintAttributes: a constraint's matchAttribute, else its distinctAttribute, per request it names. */
    private static Map<String, Set<String>> constraintAttributes(List<DeviceConstraint> constraints) {
        Map<String, Set<String>> out = new HashMap<>();
        if (constraints == null) {
            return out;
        }
        for (DeviceConstraint c : constraints) {
            String name =
                    c == null ? null : c.getMatchAttribute() != null ? c.getMatchAttribute() : c.getDistinctAttribute();
            if (name == null) {
                continue;
            }
            List<String> refs = c.getRequests() == null || c.getRequests().isEmpty() ? List.of("") : c.getRequests();
            for (String ref : refs) {
                out.computeIfAbsent(ref == null ? "" : ref, k -> new HashSet<>())
                        .add(name);
            }
        }
        return out;
    }

    /**
     * isAttributeUsedByConstraint: a constraint of every request, of this one, or (for a subrequest) of its parent
     * uses the name.
     */
    private boolean usedByConstraint(String name, String request) {
        int slash = request.indexOf('/');
        return constraintAttributes.getOrDefault("", Set.of()).contains(name)
                || constraintAttributes.getOrDefault(request, Set.of()).contains(name)
                || (slash >= 0
                        && constraintAttributes
                                .getOrDefault(request.substring(0, slash), Set.of())
                                .contains(name));
    }

    /**
     * validateDeviceDerivedAttributes (hand-written, a set keyed by name without a size limit): each name must be
     * used by a constraint of the request, each expression compile as a derived attribute; then duplicate names.
     */
    private void derivedAttributes(List<DeviceDerivedAttribute> attributes, String field, String request) {
        if (attributes == null) {
            return;
        }
        for (int i = 0; i < attributes.size(); i++) {
            DeviceDerivedAttribute a = attributes.get(i) == null ? new DeviceDerivedAttribute() : attributes.get(i);
            String at = field + "[" + i + "]";
            String name = a.getName() == null ? "" : a.getName();
            // Declarative validation reports empty values.
            if (!name.isEmpty() && !usedByConstraint(name, request)) {
                invalid(
                        at + ".name",
                        quote(name),
                        "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting "
                                + "this request");
            }
            if (a.getExpression() != null && !a.getExpression().isEmpty()) {
                celExpression(a.getExpression(), at + ".expression", true);
            }
        }
        duplicates(attributes, a -> a == null ? null : a.getName(), field);
    }

    /**
     * The declarative checks of derivedAttributes (maxItems 32, short-circuiting; each name required and a
     * k8s-resource-fully-qualified-name, each expression required), the last field of a request or subrequest.
     */
    private void declarativeDerivedAttributes(List<DeviceDerivedAttribute> attributes, String field) {
        if (tooManyDeclared(attributes, DERIVED_ATTRIBUTES_MAX, field) || attributes == null) {
            return;
        }
        declaratively(() -> {
            for (int i = 0; i < attributes.size(); i++) {
                DeviceDerivedAttribute a = attributes.get(i) == null ? new DeviceDerivedAttribute() : attributes.get(i);
                String at = field + "[" + i + "]";
                if (a.getName() == null || a.getName().isEmpty()) {
                    required(at + ".name", "");
                } else {
                    fullyQualifiedName(a.getName(), at + ".name");
                }
                if (a.getExpression() == null || a.getExpression().isEmpty()) {
                    required(at + ".expression", "");
                }
            }
        });
    }

    /** Request names, each with its subrequests' names. */
    private static Map<String, Set<String>> requestNames(DeviceClaim devices) {
        Map<String, Set<String>> out = new HashMap<>();
        if (devices.getRequests() == null) {
            return out;
        }
        for (DeviceRequest r : devices.getRequests()) {
            if (r == null || r.getName() == null) {
                continue;
            }
            Set<String> subs = out.computeIfAbsent(r.getName(), k -> new HashSet<>());
            if (r.getFirstAvailable() != null) {
                for (DeviceSubRequest s : r.getFirstAvailable()) {
                    if (s != null && s.getName() != null) {
                        subs.add(s.getName());
                    }
                }
            }
        }
        return out;
    }

    private void request(DeviceRequest r, String at) {
        dnsLabel(r.getName() == null ? "" : r.getName(), at + ".name");
        boolean hasFirstAvailable = size(r.getFirstAvailable()) > 0;
        boolean hasExactly = r.getExactly() != null;
        if (!hasFirstAvailable && !hasExactly) {
            required(at, "exactly one of `exactly` or `firstAvailable` is required");
        } else if (hasFirstAvailable && hasExactly) {
            invalid(
                    at,
                    "null",
                    "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set");
            // The declarative checks (maxItems, enums, formats) still run on both, exactly first.
            ExactDeviceRequest e = r.getExactly();
            declarativeOnly(
                    e.getSelectors(),
                    e.getAllocationMode(),
                    e.getTolerations(),
                    e.getDerivedAttributes(),
                    at + ".exactly");
            if (!tooManyDeclared(r.getFirstAvailable(), FIRST_AVAILABLE_MAX, at + ".firstAvailable")) {
                duplicateItems(
                        r.getFirstAvailable(),
                        s -> s == null ? null : s.getName(),
                        GoJson::subRequest,
                        at + ".firstAvailable");
                for (int i = 0; i < r.getFirstAvailable().size(); i++) {
                    DeviceSubRequest sub = r.getFirstAvailable().get(i) == null
                            ? new DeviceSubRequest()
                            : r.getFirstAvailable().get(i);
                    String field = at + ".firstAvailable[" + i + "]";
                    subRequestClass(sub.getDeviceClassName(), field + ".deviceClassName");
                    declarativeOnly(
                            sub.getSelectors(),
                            sub.getAllocationMode(),
                            sub.getTolerations(),
                            sub.getDerivedAttributes(),
                            field);
                }
            }
        } else if (hasFirstAvailable) {
            List<DeviceSubRequest> subs = r.getFirstAvailable();
            if (!tooManyDeclared(subs, FIRST_AVAILABLE_MAX, at + ".firstAvailable")) {
                duplicateItems(subs, s -> s == null ? null : s.getName(), GoJson::subRequest, at + ".firstAvailable");
                for (int i = 0; i < subs.size(); i++) {
                    DeviceSubRequest s = subs.get(i) == null ? new DeviceSubRequest() : subs.get(i);
                    String field = at + ".firstAvailable[" + i + "]";
                    dnsLabel(s.getName() == null ? "" : s.getName(), field + ".name");
                    subRequestClass(s.getDeviceClassName(), field + ".deviceClassName");
                    selectors(s.getSelectors(), field + ".selectors");
                    derivedAttributes(
                            s.getDerivedAttributes(),
                            field + ".derivedAttributes",
                            (r.getName() == null ? "" : r.getName()) + "/" + (s.getName() == null ? "" : s.getName()));
                    allocationMode(s.getAllocationMode(), s.getCount(), field);
                    tolerations(s.getTolerations(), field + ".tolerations");
                    declarativeDerivedAttributes(s.getDerivedAttributes(), field + ".derivedAttributes");
                }
            }
        } else {
            ExactDeviceRequest e = r.getExactly();
            String field = at + ".exactly";
            deviceClass(e.getDeviceClassName(), field + ".deviceClassName");
            selectors(e.getSelectors(), field + ".selectors");
            derivedAttributes(
                    e.getDerivedAttributes(), field + ".derivedAttributes", r.getName() == null ? "" : r.getName());
            allocationMode(e.getAllocationMode(), e.getCount(), field);
            tolerations(e.getTolerations(), field + ".tolerations");
            declarativeDerivedAttributes(e.getDerivedAttributes(), field + ".derivedAttributes");
        }
    }

    /**
     * What the declarative validation checks of a request or subrequest that the hand-written validation skips when
     * both {@code exactly} and {@code firstAvailable} are set: the allocationMode enum, the tolerations and the
     * derived attributes.
     */
    private void declarativeOnly(
            List<DeviceSelector> selectors,
            String mode,
            List<DeviceToleration> tolerations,
            List<DeviceDerivedAttribute> derived,
            String at) {
        tooManyDeclared(selectors, SELECTORS_MAX, at + ".selectors");
        declaratively(() -> {
            if (mode != null && !mode.equals("All") && !mode.equals("ExactCount")) {
                notSupported(at + ".allocationMode", mode, List.of("All", "ExactCount"));
            }
        });
        declarativeTolerations(tolerations, at + ".tolerations");
        declarativeDerivedAttributes(derived, at + ".derivedAttributes");
    }

    // --- tolerations, taints, taint rules (validateDeviceToleration, validateDeviceTaint) ---

    private static final List<String> TAINT_EFFECTS = List.of("NoExecute", "NoSchedule", "None");

    /**
     * validateDeviceToleration: the value here; the key's format and the operator and effect enums are declarative
     * in 1.37 ({@link #declarativeTolerations}).
     */
    private void tolerations(List<DeviceToleration> tolerations, String field) {
        if (tolerations == null) {
            return;
        }
        for (int i = 0; i < tolerations.size(); i++) {
            DeviceToleration t = tolerations.get(i) == null ? new DeviceToleration() : tolerations.get(i);
            String at = field + "[" + i + "]";
            String value = t.getValue() == null ? "" : t.getValue();
            String operator = t.getOperator() == null ? "" : t.getOperator();
            if (operator.equals("Exists") && !value.isEmpty()) {
                invalid(at + ".value", quote(value), "must be empty for operator `Exists`");
            } else if (operator.equals("Equal")) {
                labelValue(value, at + ".value");
            }
        }
        declarativeTolerations(tolerations, field);
    }

    /** The declarative checks of tolerations: the key's label-key format, the operator and effect enums. */
    private void declarativeTolerations(List<DeviceToleration> tolerations, String field) {
        if (tolerations == null) {
            return;
        }
        declaratively(() -> {
            for (int i = 0; i < tolerations.size(); i++) {
                DeviceToleration t = tolerations.get(i) == null ? new DeviceToleration() : tolerations.get(i);
                String at = field + "[" + i + "]";
                String key = t.getKey() == null ? "" : t.getKey();
                if (!key.isEmpty()) {
                    labelKey(key, at + ".key");
                }
                String operator = t.getOperator() == null ? "" : t.getOperator();
                switch (operator) {
                    case "Exists", "Equal" -> {}
                    case "" -> required(at + ".operator", "");
                    default -> notSupported(at + ".operator", operator, List.of("Equal", "Exists"));
                }
                String effect = t.getEffect() == null ? "" : t.getEffect();
                if (!effect.isEmpty() && !TAINT_EFFECTS.contains(effect)) {
                    notSupported(at + ".effect", effect, TAINT_EFFECTS);
                }
            }
        });
    }

    private void taintRuleSpec(DeviceTaintRuleSpec spec) {
        DeviceTaintSelector selector = spec.getDeviceSelector();
        if (selector != null) {
            if (selector.getDriver() != null) {
                driverName(selector.getDriver(), "spec.deviceSelector.driver");
            }
            if (selector.getPool() != null) {
                poolName(selector.getPool(), "spec.deviceSelector.pool");
            }
            if (selector.getDevice() != null) {
                dnsLabel(selector.getDevice(), "spec.deviceSelector.device");
            }
        }
        deviceTaint(spec.getTaint() == null ? new DeviceTaint() : spec.getTaint(), "spec.taint");
        declaratively(() -> taintEffect(spec.getTaint(), "spec.taint"));
    }

    /**
     * validateDeviceTaint, for a DeviceTaintRule's taint and a slice device's taints: the key and value; the effect
     * is declarative in 1.37 ({@link #taintEffect}).
     */
    private void deviceTaint(DeviceTaint taint, String at) {
        labelKey(taint.getKey() == null ? "" : taint.getKey(), at + ".key");
        if (taint.getValue() != null && !taint.getValue().isEmpty()) {
            labelValue(taint.getValue(), at + ".value");
        }
    }

    /** A taint's effect: required and one of the enum's values (+k8s:required, +k8s:enum; declarative in 1.37). */
    private void taintEffect(DeviceTaint taint, String at) {
        String effect = taint == null || taint.getEffect() == null ? "" : taint.getEffect();
        if (effect.isEmpty()) {
            required(at + ".effect", "");
        } else if (!TAINT_EFFECTS.contains(effect)) {
            notSupported(at + ".effect", effect, TAINT_EFFECTS);
        }
    }

    /** metav1validation.ValidateLabelName: one error per failed rule. */
    private void labelKey(String key, String field) {
        for (String msg : LabelSyntax.key(key)) {
            invalid(field, quote(key), msg);
        }
    }

    private void labelValue(String value, String field) {
        for (String msg : LabelSyntax.value(value)) {
            invalid(field, quote(value), msg);
        }
    }

    private void notSupported(String field, String value, List<String> supported) {
        sink.add(new FieldError(
                field,
                "Unsupported value: " + quote(value) + ": supported values: "
                        + String.join(
                                ", ",
                                supported.stream().map(ApiValidation::quote).toList())));
    }

    // --- classes and configuration ---

    private void classSpec(DeviceClassSpec spec) {
        selectors(spec.getSelectors(), "spec.selectors");
        List<DeviceClassConfiguration> config = spec.getConfig();
        if (!tooManyDeclared(config, CONFIG_MAX, "spec.config") && config != null) {
            for (int i = 0; i < config.size(); i++) {
                DeviceClassConfiguration c = config.get(i) == null ? new DeviceClassConfiguration() : config.get(i);
                opaque(c.getOpaque(), "spec.config[" + i + "].opaque");
            }
        }
        if (spec.getExtendedResourceName() != null) {
            declaratively(() -> extendedResourceName(spec.getExtendedResourceName(), "spec.extendedResourceName"));
        }
    }

    /** validateDeviceConfiguration and validateOpaqueConfiguration: the driver, and parameters as a JSON object. */
    private void opaque(OpaqueDeviceConfiguration opaque, String field) {
        if (opaque == null) {
            required(field, "");
            return;
        }
        declaratively(() -> opaqueDriver(opaque.getDriver(), field + ".driver"));
        Object parameters = opaque.getParameters();
        String json = parameters == null ? "null" : Json.compact(parameters);
        if (json.equals("null")) {
            required(field + ".parameters", "");
        } else if (!json.startsWith("{")) {
            invalid(field + ".parameters", "\"<value omitted>\"", "must be a valid JSON object");
        }
    }

    /** An opaque configuration's driver, as the declarative format check (caseless subdomain) words its errors. */
    private void opaqueDriver(String value, String field) {
        if (value == null || value.isEmpty()) {
            required(field, "");
            return;
        }
        // validate.LongNameCaseless, then validate.MaxLength (which counts characters).
        if (value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 253) {
            invalid(field, quote(value), "must be no more than 253 bytes");
        }
        if (!SUBDOMAIN.matcher(value.toLowerCase(java.util.Locale.ROOT)).matches()) {
            invalid(
                    field,
                    quote(value),
                    "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', "
                            + "and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for "
                            + "validation is '" + SUBDOMAIN_FMT + "')");
        }
        if (value.codePointCount(0, value.length()) > DRIVER_NAME_MAX_LENGTH) {
            sink.add(new FieldError(field, "Too long: may not be more than " + DRIVER_NAME_MAX_LENGTH + " characters"));
        }
    }

    /** validate.ExtendedResourceName, the declarative format check of an extended resource name. */
    private void extendedResourceName(String value, String field) {
        if (!value.contains("/")) {
            invalid(field, quote(value), "a name must be a domain-prefixed path, such as 'example.com/my-prop'");
        } else if (value.contains("kubernetes.io/")) {
            invalid(field, quote(value), "must not have \"kubernetes.io/\" domain");
        }
        if (value.startsWith("requests.")) {
            invalid(field, quote(value), "must not have \"requests.\" prefix");
        }
        for (String msg : LabelSyntax.key("requests." + value)) {
            invalid(field, quote(value), msg);
        }
    }

    private void deviceClass(String name, String field) {
        if (name == null || name.isEmpty()) {
            required(field, "");
        } else {
            dnsSubdomain(name, field);
        }
    }

    private void selectors(List<DeviceSelector> selectors, String field) {
        if (tooManyDeclared(selectors, SELECTORS_MAX, field) || selectors == null) {
            return;
        }
        for (int i = 0; i < selectors.size(); i++) {
            DeviceSelector s = selectors.get(i);
            String at = field + "[" + i + "]";
            if (s == null || s.getCel() == null) {
                required(at + ".cel", "");
            } else {
                celExpression(
                        s.getCel().getExpression() == null ? "" : s.getCel().getExpression(),
                        at + ".cel.expression",
                        false);
            }
        }
    }

    /**
     * validateCELExpression: compiled as a new expression with the API server's CEL features (a derived attribute's
     * with its own result types); one that compiles is rejected when its estimated maximum cost exceeds
     * CELSelectorExpressionMaxCost (for a derived attribute also DeviceClaimDerivedAttributeCELMaxCost, the same),
     * and a derived attribute's estimate counts towards the claim's total.
     */
    private void celExpression(String expression, String field, boolean derivedAttribute) {
        if (expression.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > CEL_EXPRESSION_MAX_LENGTH) {
            tooLong(field, CEL_EXPRESSION_MAX_LENGTH);
            return;
        }
        CompiledExpression compiled =
                derivedAttribute ? cel.compileDerivedAttribute(expression) : cel.compile(expression);
        compiled.compileError().ifPresent(e -> invalid(field, quote(expression), e));
        compiled.estimatedCost().ifPresent(cost -> {
            if (cost.exceedsLimit()) {
                forbidden(field, "too complex, exceeds cost limit");
            }
            if (derivedAttribute) {
                derivedAttributesCost += cost.max();
            }
        });
    }

    private void allocationMode(String mode, Long count, String at) {
        long n = count == null ? 0 : count;
        if ("All".equals(mode)) {
            if (n != 0) {
                invalid(at + ".count", Long.toString(n), "must not be specified when allocationMode is 'All'");
            }
        } else if ("ExactCount".equals(mode)) {
            if (n <= 0) {
                invalid(at + ".count", Long.toString(n), "must be greater than zero");
            }
        } else {
            // The enum is declarative in 1.37.
            declaratively(
                    () -> notSupported(at + ".allocationMode", mode == null ? "" : mode, List.of("All", "ExactCount")));
        }
    }

    private void constraint(DeviceConstraint c, String at, Map<String, Set<String>> requestNames) {
        requestRefs(c.getRequests(), at + ".requests", requestNames);
        if (c.getMatchAttribute() == null && c.getDistinctAttribute() == null) {
            if (gates.isEnabled(DraFeature.DRAConsumableCapacity)) {
                required(
                        at,
                        "exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple "
                                + "fields are set");
            } else {
                required(at + ".matchAttribute", "");
            }
        }
        // Both formats are declarative (each field's own tag), also when both fields are set.
        declaratively(() -> {
            if (c.getMatchAttribute() != null) {
                fullyQualifiedName(c.getMatchAttribute(), at + ".matchAttribute");
            }
            if (c.getDistinctAttribute() != null) {
                fullyQualifiedName(c.getDistinctAttribute(), at + ".distinctAttribute");
            }
        });
    }

    private void requestRefs(List<String> refs, String field, Map<String, Set<String>> requestNames) {
        if (tooManyDeclared(refs, DEVICE_REQUESTS_MAX, field) || refs == null) {
            return;
        }
        // Declaratively a set's uniqueness comes before its items (which have no declarative checks).
        declaratively(() -> duplicates(refs, Function.identity(), field));
        for (int i = 0; i < refs.size(); i++) {
            String name = refs.get(i) == null ? "" : refs.get(i);
            String at = field + "[" + i + "]";
            String[] segments = name.split("/", -1);
            if (segments.length > 2) {
                invalid(at, quote(name), REQUEST_REF_MSG);
                continue;
            }
            for (String segment : segments) {
                dnsLabel(segment, at);
            }
            boolean known = segments.length == 1
                    ? requestNames.containsKey(name)
                    : requestNames.getOrDefault(segments[0], Set.of()).contains(segments[1]);
            if (!known) {
                invalid(at, quote(name), REQUEST_REF_MSG);
            }
        }
    }

    /**
     * The declarative uniqueness check of a list of structs keyed by name (+k8s:unique=map), authoritative in 1.37: a
     * duplicate is reported with the whole (defaulted) item as its value, as Go's encoding/json writes it.
     */
    private <T> void duplicateItems(List<T> items, Function<T, String> key, Function<T, String> json, String field) {
        declaratively(() -> {
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < items.size(); i++) {
                String k = key.apply(items.get(i));
                if (!seen.add(k == null ? "" : k)) {
                    sink.add(new FieldError(field + "[" + i + "]", "Duplicate value: " + json.apply(items.get(i))));
                }
            }
        });
    }

    private <T> void duplicates(List<T> items, Function<T, String> key, String field) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String k = key.apply(items.get(i));
            String name = k == null ? "" : k;
            if (!seen.add(name)) {
                duplicate(field + "[" + i + "]", name);
            }
        }
    }

    // --- slices ---

    private void sliceSpec(ResourceSliceSpec spec) {
        driverName(spec.getDriver(), "spec.driver");
        pool(spec.getPool() == null ? new ResourcePool() : spec.getPool());
        List<String> set = new ArrayList<>();
        if (spec.getNodeName() != null) {
            if (!spec.getNodeName().isEmpty()) {
                set.add("`nodeName`");
                dnsSubdomain(spec.getNodeName(), "spec.nodeName");
            } else {
                invalid("spec.nodeName", "\"\"", "must be either unset or set to a non-empty string");
            }
        }
        if (spec.getNodeSelector() != null) {
            set.add("`nodeSelector`");
            nodeSelector(spec.getNodeSelector(), "spec.nodeSelector");
            int terms = spec.getNodeSelector().getNodeSelectorTerms() == null
                    ? 0
                    : spec.getNodeSelector().getNodeSelectorTerms().size();
            if (terms != 1) {
                invalid(
                        "spec.nodeSelector.nodeSelectorTerms",
                        Json.compact(spec.getNodeSelector().getNodeSelectorTerms()),
                        "must have exactly one node selector term");
            }
        }
        if (spec.getAllNodes() != null) {
            if (spec.getAllNodes()) {
                set.add("`allNodes`");
            } else {
                invalid("spec.allNodes", "false", "must be either unset or set to true");
            }
        }
        if (spec.getPerDeviceNodeSelection() != null) {
            if (spec.getPerDeviceNodeSelection()) {
                set.add("`perDeviceNodeSelection`");
            } else {
                invalid("spec.perDeviceNodeSelection", "false", "must be either unset or set to true");
            }
        }
        String oneOf = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
        if (set.isEmpty()) {
            required("spec", oneOf);
        } else if (set.size() > 1) {
            invalid("spec", quote("{" + String.join(", ", set) + "}"), oneOf + ", but multiple fields are set");
        }
        JsonNode rawSpec = raw.path("spec");
        boolean partitionable = gates.isEnabled(DraFeature.DRAPartitionableDevices);
        if ((size(spec.getSharedCounters()) > 0
                        || partitionable && rawSpec.path("sharedCounters").isArray())
                && (size(spec.getDevices()) > 0 || rawSpec.path("devices").isArray())) {
            invalid("spec", "\"\"", "only one of `sharedCounters` or `devices` is allowed");
        }
        Boolean perDeviceNodeSelection = spec.getPerDeviceNodeSelection();
        List<Device> devices = spec.getDevices();
        int max = advanced(devices) ? SLICE_MAX_DEVICES_WITH_ADVANCED_FEATURES : SLICE_MAX_DEVICES;
        if (!tooMany(devices, max, "spec.devices") && devices != null) {
            for (int i = 0; i < devices.size(); i++) {
                device(
                        devices.get(i) == null ? new Device() : devices.get(i),
                        "spec.devices[" + i + "]",
                        rawSpec.path("devices").path(i),
                        perDeviceNodeSelection);
            }
            duplicates(devices, d -> d == null ? null : d.getName(), "spec.devices");
        } else if (devices != null) {
            // The declarative checks (attribute unions, counters, taint effects) run on every device all the same.
            for (int i = 0; i < devices.size(); i++) {
                if (devices.get(i) != null) {
                    declarativeDevice(devices.get(i), "spec.devices[" + i + "]");
                }
            }
        }
        if (spec.getSharedCounters() != null) {
            sharedCounters(spec.getSharedCounters());
        }
        skipNodeOperations(spec.getSkipNodeOperations(), "spec.skipNodeOperations");
    }

    /**
     * validateSkipNodeOperations (DRAOptionalNodeOperations; dropped before validation while it is off): preparing may
     * be skipped only with unpreparing; then the declarative set and enum checks.
     */
    private void skipNodeOperations(List<String> ops, String field) {
        if (ops == null || ops.isEmpty()) {
            return;
        }
        if (ops.contains("NodePrepareResources") && !ops.contains("NodeUnprepareResources") && !ops.contains("*")) {
            invalid(
                    field,
                    Json.compact(ops),
                    "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped");
        }
        declaratively(() -> {
            for (int i = 0; i < ops.size(); i++) {
                if (ops.subList(0, i).contains(ops.get(i))) {
                    duplicate(field + "[" + i + "]", ops.get(i));
                }
            }
            for (int i = 0; i < ops.size(); i++) {
                if (!SKIP_NODE_OPERATIONS.contains(ops.get(i))) {
                    notSupported(field + "[" + i + "]", ops.get(i), SKIP_NODE_OPERATIONS);
                }
            }
        });
    }

    /** corevalidation.ValidateNodeSelector, with label values checked (allowInvalidLabelValue false). */
    private void nodeSelector(NodeSelector selector, String field) {
        List<NodeSelectorTerm> terms = selector.getNodeSelectorTerms();
        if (terms == null || terms.isEmpty()) {
            required(field + ".nodeSelectorTerms", "must have at least one node selector term");
            return;
        }
        for (int i = 0; i < terms.size(); i++) {
            NodeSelectorTerm term = terms.get(i) == null ? new NodeSelectorTerm() : terms.get(i);
            String at = field + ".nodeSelectorTerms[" + i + "]";
            List<NodeSelectorRequirement> expressions =
                    term.getMatchExpressions() == null ? List.of() : term.getMatchExpressions();
            for (int j = 0; j < expressions.size(); j++) {
                NodeSelectorRequirement r =
                        expressions.get(j) == null ? new NodeSelectorRequirement() : expressions.get(j);
                labelRequirement(r, at + ".matchExpressions[" + j + "]");
            }
            List<NodeSelectorRequirement> fields = term.getMatchFields() == null ? List.of() : term.getMatchFields();
            for (int j = 0; j < fields.size(); j++) {
                NodeSelectorRequirement r = fields.get(j) == null ? new NodeSelectorRequirement() : fields.get(j);
                fieldRequirement(r, at + ".matchFields[" + j + "]");
            }
        }
    }

    private void labelRequirement(NodeSelectorRequirement r, String at) {
        String operator = r.getOperator() == null ? "" : r.getOperator();
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        switch (operator) {
            case "In", "NotIn" -> {
                if (values.isEmpty()) {
                    required(at + ".values", "must be specified when `operator` is 'In' or 'NotIn'");
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (!values.isEmpty()) {
                    forbidden(at + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
                }
            }
            case "Gt", "Lt" -> {
                if (values.size() != 1) {
                    required(at + ".values", "must be specified single value when `operator` is 'Lt' or 'Gt'");
                }
            }
            default -> invalid(at + ".operator", quote(operator), "not a valid selector operator");
        }
        labelKey(r.getKey() == null ? "" : r.getKey(), at + ".key");
        for (int i = 0; i < values.size(); i++) {
            labelValue(values.get(i) == null ? "" : values.get(i), at + ".values[" + i + "]");
        }
    }

    /** ValidateNodeFieldSelectorRequirement: only metadata.name, a node name, with In or NotIn and one value. */
    private void fieldRequirement(NodeSelectorRequirement r, String at) {
        String operator = r.getOperator() == null ? "" : r.getOperator();
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        if (operator.equals("In") || operator.equals("NotIn")) {
            if (values.size() != 1) {
                required(
                        at + ".values",
                        "must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
            }
        } else {
            invalid(at + ".operator", quote(operator), "not a valid selector operator");
        }
        String key = r.getKey() == null ? "" : r.getKey();
        if (!key.equals("metadata.name")) {
            invalid(at + ".key", quote(key), "not a valid field selector key");
        } else {
            for (int i = 0; i < values.size(); i++) {
                dnsSubdomain(values.get(i) == null ? "" : values.get(i), at + ".values[" + i + "]");
            }
        }
    }

    /**
     * Shared counter sets, validated declaratively in 1.37 (+k8s:required, +k8s:format=k8s-short-name on the name and
     * on each counter's key, +k8s:listType=map keyed by name): the hand-written errors are all covered.
     */
    private void sharedCounters(List<CounterSet> sets) {
        // Hand-written: each set's counter limit, unless validateSet's size check short-circuits the sets.
        if (sets.size() <= COUNTER_SETS_MAX) {
            for (int i = 0; i < sets.size(); i++) {
                CounterSet set = sets.get(i) == null ? new CounterSet() : sets.get(i);
                counterLimit(set.getCounters(), COUNTERS_PER_SET_MAX, "spec.sharedCounters[" + i + "].counters");
            }
        }
        declaratively(() -> {
            // maxItems short-circuits the declarative checks of the sets; uniqueness comes before the items.
            if (tooMany(sets, COUNTER_SETS_MAX, "spec.sharedCounters")) {
                return;
            }
            duplicateItems(sets, s -> s == null ? null : s.getName(), GoJson::counterSet, "spec.sharedCounters");
            for (int i = 0; i < sets.size(); i++) {
                CounterSet set = sets.get(i) == null ? new CounterSet() : sets.get(i);
                String at = "spec.sharedCounters[" + i + "]";
                shortName(set.getName(), at + ".name");
                counterKeys(set.getCounters(), at + ".counters");
            }
        });
    }

    /** validateMap's hand-written limit of a non-empty counter map (its key checks are covered). */
    private void counterLimit(Map<String, Counter> counters, int max, String field) {
        if (counters != null && counters.size() > max) {
            sink.add(new FieldError(field, "Too many: " + counters.size() + ": must have at most " + max + " items"));
        }
    }

    /** The declarative checks of a counter map: +k8s:required, then each key's short-name format. */
    private void counterKeys(Map<String, Counter> counters, String field) {
        if (counters == null || counters.isEmpty()) {
            required(field, "");
            return;
        }
        for (String key : counters.keySet()) {
            shortNameFormat(key, field);
        }
    }

    /** The declarative checks of a device, in its fields' order: attribute unions, counters, taints, conditions. */
    private void declarativeDevice(Device d, String at) {
        if (d.getAttributes() != null) {
            declaratively(() -> d.getAttributes()
                    .forEach((name, a) ->
                            attributeUnion(a == null ? new DeviceAttribute() : a, at + ".attributes[" + name + "]")));
        }
        declarativeConsumesCounters(d.getConsumesCounters(), at + ".consumesCounters");
        taintEffects(d, at);
        tooManyDeclared(d.getBindingConditions(), BINDING_CONDITIONS_MAX, at + ".bindingConditions");
        tooManyDeclared(d.getBindingFailureConditions(), BINDING_CONDITIONS_MAX, at + ".bindingFailureConditions");
        if (d.getNodeAllocatableResources() != null) {
            declaratively(() -> d.getNodeAllocatableResources().forEach((name, r) -> {
                if (r != null && r.getMapping() != null) {
                    mappingUnion(r.getMapping(), at + ".nodeAllocatableResources[" + name + "].mapping");
                }
            }));
        }
    }

    /** The declarative union of a node allocatable mapping: exactly one of capacityKey and deviceMultiplier. */
    private void mappingUnion(NodeAllocatableMapping m, String at) {
        List<String> set = new ArrayList<>();
        addIf(set, m.getCapacityKey() != null, "capacityKey");
        addIf(set, m.getDeviceMultiplier() != null, "deviceMultiplier");
        String all = "`capacityKey`, `deviceMultiplier`";
        if (set.isEmpty()) {
            invalid(at, "\"\"", "must specify one of: " + all);
        } else if (set.size() > 1) {
            invalid(at, quote("{" + String.join(", ", set) + "}"), "must specify exactly one of: " + all);
        }
    }

    private void taintEffects(Device d, String at) {
        if (d.getTaints() != null) {
            for (int i = 0; i < d.getTaints().size(); i++) {
                DeviceTaint t = d.getTaints().get(i);
                String field = at + ".taints[" + i + "]";
                declaratively(() -> taintEffect(t, field));
            }
        }
    }

    /** Counter consumption, declarative in 1.37 like the shared counter sets, keyed by counterSet. */
    /** Hand-written: each consumption's counter limit, unless validateSet's size check short-circuits the list. */
    private void consumesCounterLimits(List<DeviceCounterConsumption> consumption, String field) {
        if (consumption == null || consumption.size() > COUNTER_CONSUMPTIONS_MAX) {
            return;
        }
        for (int i = 0; i < consumption.size(); i++) {
            DeviceCounterConsumption c = consumption.get(i);
            counterLimit(
                    c == null ? null : c.getCounters(), COUNTERS_PER_CONSUMPTION_MAX, field + "[" + i + "].counters");
        }
    }

    /** The declarative checks of counter consumption: maxItems, then uniqueness by counterSet, then the items. */
    private void declarativeConsumesCounters(List<DeviceCounterConsumption> consumption, String field) {
        if (consumption == null) {
            return;
        }
        declaratively(() -> {
            if (tooMany(consumption, COUNTER_CONSUMPTIONS_MAX, field)) {
                return;
            }
            duplicateItems(consumption, c -> c == null ? null : c.getCounterSet(), GoJson::counterConsumption, field);
            for (int i = 0; i < consumption.size(); i++) {
                DeviceCounterConsumption c =
                        consumption.get(i) == null ? new DeviceCounterConsumption() : consumption.get(i);
                shortName(c.getCounterSet(), field + "[" + i + "].counterSet");
                counterKeys(c.getCounters(), field + "[" + i + "].counters");
            }
        });
    }

    /**
     * validateDeviceBindingParameters: each list at most 4 label names, no duplicates, no overlap, and one list only
     * with the other. The fabric8 model holds an absent list as an empty one, which Go prints as null; the raw
     * input tells an explicitly empty one ({@code []}) apart.
     */
    private void bindingConditions(
            List<String> conditions, List<String> failureConditions, String at, JsonNode rawDevice) {
        boolean kept = SliceFieldDrops.bindingConditionsEnabled(gates);
        List<String> ok = conditions == null ? List.of() : conditions;
        List<String> failure = failureConditions == null ? List.of() : failureConditions;
        String okField = at + ".bindingConditions";
        String failureField = at + ".bindingFailureConditions";
        // Past the limit (reported declaratively) validateSlice checks no items.
        if (ok.size() <= BINDING_CONDITIONS_MAX) {
            for (int i = 0; i < ok.size(); i++) {
                labelKey(ok.get(i) == null ? "" : ok.get(i), okField + "[" + i + "]");
            }
        }
        if (failure.size() <= BINDING_CONDITIONS_MAX) {
            for (int i = 0; i < failure.size(); i++) {
                labelKey(failure.get(i) == null ? "" : failure.get(i), failureField + "[" + i + "]");
            }
        }
        duplicates(ok, Function.identity(), okField);
        Set<String> seen = new HashSet<>();
        Set<String> okSet = new HashSet<>(ok);
        for (int i = 0; i < failure.size(); i++) {
            String condition = failure.get(i) == null ? "" : failure.get(i);
            if (!seen.add(condition)) {
                duplicate(failureField + "[" + i + "]", condition);
            }
            if (okSet.contains(condition)) {
                invalid(
                        failureField + "[" + i + "]",
                        quote(condition),
                        "bindingFailureConditions must not overlap with bindingConditions");
            }
        }
        if (ok.isEmpty() && !failure.isEmpty()) {
            invalid(
                    okField,
                    emptyList(kept, rawDevice, "bindingConditions"),
                    "bindingConditions are required to use bindingFailureConditions");
        }
        if (failure.isEmpty() && !ok.isEmpty()) {
            invalid(
                    failureField,
                    emptyList(kept, rawDevice, "bindingFailureConditions"),
                    "bindingFailureConditions are required to use bindingConditions");
        }
    }

    /** How Go prints an empty list field: {@code []} when it was written so (and not dropped), else null. */
    private static String emptyList(boolean kept, JsonNode rawParent, String name) {
        return kept && rawParent.path(name).isArray() ? "[]" : "null";
    }

    /** validate.ShortName (+k8s:format=k8s-short-name) after +k8s:required, with the length in bytes. */
    private void shortName(String value, String field) {
        if (value == null || value.isEmpty()) {
            required(field, "");
            return;
        }
        shortNameFormat(value, field);
    }

    /** validate.ShortName alone, as +k8s:eachKey applies it (an empty key is reported by the format). */
    private void shortNameFormat(String value, String field) {
        if (value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 63) {
            invalid(field, quote(value), "must be no more than 63 bytes");
        }
        if (!LABEL.matcher(value).matches()) {
            invalid(field, quote(value), SUBDOMAIN.matcher(value).matches() ? "must not contain dots" : LABEL_MSG);
        }
    }

    /** Taints, counter consumption or list attributes lower the device limit. */
    private static boolean advanced(List<Device> devices) {
        // Lists are never null in the fabric8 model; an empty one is an absent one.
        if (devices == null) {
            return false;
        }
        for (Device d : devices) {
            if (d == null) {
                continue;
            }
            if (d.getTaints() != null && !d.getTaints().isEmpty()
                    || d.getConsumesCounters() != null
                            && !d.getConsumesCounters().isEmpty()) {
                return true;
            }
            if (d.getAttributes() != null) {
                for (DeviceAttribute a : d.getAttributes().values()) {
                    if (a != null
                            && size(a.getBools()) + size(a.getInts()) + size(a.getStrings()) + size(a.getVersions())
                                    > 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private void pool(ResourcePool pool) {
        poolName(pool.getName() == null ? "" : pool.getName(), "spec.pool.name");
        long count = pool.getResourceSliceCount() == null ? 0 : pool.getResourceSliceCount();
        if (count <= 0) {
            invalid("spec.pool.resourceSliceCount", Long.toString(count), "must be greater than zero");
        }
        long generation = pool.getGeneration() == null ? 0 : pool.getGeneration();
        if (generation < 0) {
            invalid("spec.pool.generation", Long.toString(generation), "must be greater than or equal to zero");
        }
    }

    /** validatePoolName: DNS subdomains separated by slashes. */
    private void poolName(String name, String field) {
        if (name.isEmpty()) {
            required(field, "");
        } else {
            if (name.length() > POOL_NAME_MAX_LENGTH) {
                tooLong(field, POOL_NAME_MAX_LENGTH);
            }
            for (String part : name.split("/", -1)) {
                dnsSubdomain(part, field);
            }
        }
    }

    private void device(Device d, String at, JsonNode rawDevice, Boolean perDeviceNodeSelection) {
        dnsLabel(d.getName() == null ? "" : d.getName(), at + ".name");
        Map<String, DeviceAttribute> attributes = d.getAttributes() == null ? Map.of() : d.getAttributes();
        int capacities = d.getCapacity() == null ? 0 : d.getCapacity().size();
        int total = attributes.size() + capacities;
        if (total > ATTRIBUTES_AND_CAPACITIES_MAX) {
            invalid(
                    at,
                    Integer.toString(total),
                    "the total number of attributes and capacities must not exceed " + ATTRIBUTES_AND_CAPACITIES_MAX);
        }
        int values = 0;
        for (DeviceAttribute a : attributes.values()) {
            int listed = a == null
                    ? 0
                    : size(a.getBools()) + size(a.getInts()) + size(a.getStrings()) + size(a.getVersions());
            values += listed == 0 ? 1 : listed;
        }
        if (values > ATTRIBUTE_VALUES_MAX) {
            invalid(
                    at,
                    Integer.toString(values),
                    "the total number of attribute values must not exceed " + ATTRIBUTE_VALUES_MAX);
        }
        for (Map.Entry<String, DeviceAttribute> e : attributes.entrySet()) {
            qualifiedName(e.getKey(), at + ".attributes");
            attribute(
                    e.getValue() == null ? new DeviceAttribute() : e.getValue(),
                    at + ".attributes[" + mapKey(e.getKey()) + "]",
                    rawDevice.path("attributes").path(e.getKey()));
        }
        if (d.getCapacity() != null) {
            boolean multi = Boolean.TRUE.equals(d.getAllowMultipleAllocations());
            for (Map.Entry<String, DeviceCapacity> e : d.getCapacity().entrySet()) {
                qualifiedName(e.getKey(), at + ".capacity");
                DeviceCapacity c = e.getValue() == null ? new DeviceCapacity() : e.getValue();
                String path = at + ".capacity[" + mapKey(e.getKey()) + "].requestPolicy";
                if (c.getRequestPolicy() != null && !multi) {
                    forbidden(path, "allowMultipleAllocations must be true");
                } else if (c.getRequestPolicy() != null) {
                    requestPolicy(quantity(c.getValue()), c.getRequestPolicy(), path);
                }
            }
        }
        if (!tooMany(d.getTaints(), DEVICE_TAINTS_MAX, at + ".taints") && d.getTaints() != null) {
            for (int i = 0; i < d.getTaints().size(); i++) {
                DeviceTaint t = d.getTaints().get(i);
                deviceTaint(t == null ? new DeviceTaint() : t, at + ".taints[" + i + "]");
            }
        }
        consumesCounterLimits(d.getConsumesCounters(), at + ".consumesCounters");
        deviceNodeSelection(d, at, perDeviceNodeSelection);
        bindingConditions(d.getBindingConditions(), d.getBindingFailureConditions(), at, rawDevice);
        nodeAllocatableResources(d, at + ".nodeAllocatableResources");
        declarativeDevice(d, at);
    }

    /**
     * validateNodeAllocatableResources (DRANodeAllocatableResources; dropped before validation while it is off): per
     * resource a node allocatable name (cpu, memory, hugepages-*), a mapping or an overhead, the mapping's capacity
     * key among the device's capacities with a positive multiplier, the overhead's amounts not negative.
     */
    private void nodeAllocatableResources(Device d, String at) {
        if (d.getNodeAllocatableResources() == null) {
            return;
        }
        Map<String, ?> capacities = d.getCapacity() == null ? Map.of() : d.getCapacity();
        for (Map.Entry<String, NodeAllocatableResource> e :
                d.getNodeAllocatableResources().entrySet()) {
            String name = e.getKey();
            String key = at + "[" + name + "]";
            if (!(name.equals("cpu") || name.equals("memory") || name.startsWith("hugepages-"))) {
                invalid(key, quote(name), "must be a node allocatable resource name");
            }
            NodeAllocatableResource r = e.getValue() == null ? new NodeAllocatableResource() : e.getValue();
            if (r.getMapping() == null && r.getOverhead() == null) {
                required(key, "at least one of mapping or overhead must be set");
            }
            if (r.getMapping() != null) {
                nodeAllocatableMapping(r.getMapping(), capacities, key + ".mapping");
            }
            if (r.getOverhead() != null) {
                nodeAllocatableOverhead(r.getOverhead(), key + ".overhead");
            }
        }
    }

    private void nodeAllocatableMapping(NodeAllocatableMapping m, Map<String, ?> capacities, String at) {
        if (m.getCapacityKey() != null) {
            if (m.getCapacityKey().isEmpty()) {
                invalid(at + ".capacityKey", "\"\"", "capacityKey must not be an empty string");
            } else if (!capacities.containsKey(m.getCapacityKey())) {
                sink.add(new FieldError(at + ".capacityKey", "Not found: " + quote(m.getCapacityKey())));
            }
            if (m.getCapacityMultiplier() == null) {
                required(at + ".capacityMultiplier", "capacityMultiplier is required when capacityKey is set");
            } else {
                positive(m.getCapacityMultiplier(), at + ".capacityMultiplier", "must be positive", false);
            }
        }
        if (m.getDeviceMultiplier() != null) {
            positive(m.getDeviceMultiplier(), at + ".deviceMultiplier", "must be positive", false);
        }
        if (m.getCapacityMultiplier() != null && m.getCapacityKey() == null) {
            required(at + ".capacityKey", "capacityKey is required when capacityMultiplier is set");
        }
    }

    private void nodeAllocatableOverhead(NodeAllocatableOverhead o, String at) {
        if (o.getPerPod() == null && o.getPerContainer() == null) {
            invalid(at, "\"\"", "at least one of perPod or perContainer must be set");
            return;
        }
        if (o.getPerPod() != null) {
            positive(o.getPerPod(), at + ".perPod", "must be non-negative", true);
        }
        if (o.getPerContainer() != null) {
            positive(o.getPerContainer(), at + ".perContainer", "must be non-negative", true);
        }
    }

    /**
     * A device's attribute or capacity name as validateMap puts it in a field path: truncateIfTooLong to the longest
     * valid name (a 63-character domain, '/', a 32-character identifier), the middle replaced by "...".
     */
    private static String mapKey(String key) {
        int max = DRIVER_NAME_MAX_LENGTH + 1 + ID_MAX_LENGTH;
        if (key.length() <= max) {
            return key;
        }
        int remaining = max - 3;
        return key.substring(0, (remaining + 1) / 2) + "..." + key.substring(key.length() - remaining / 2);
    }

    /** A quantity as Go holds it: a missing one is zero; empty when it does not parse (decoding reports that). */
    private static java.util.Optional<KubeQuantity> quantity(Quantity q) {
        if (q == null) {
            return java.util.Optional.of(KubeQuantity.ofInt64(0, KubeQuantity.Format.DECIMAL_SI));
        }
        try {
            return java.util.Optional.of(KubeQuantity.fromFabric8(q));
        } catch (IllegalArgumentException e) {
            return java.util.Optional.empty();
        }
    }

    /**
     * validateRequestPolicy (a consumable capacity's requestPolicy, on a device with allowMultipleAllocations): at
     * most one of validValues and validRange, and with either a default that it admits.
     */
    private void requestPolicy(java.util.Optional<KubeQuantity> capacity, CapacityRequestPolicy policy, String at) {
        List<Quantity> values = policy.getValidValues() == null ? List.of() : policy.getValidValues();
        if (!values.isEmpty() && policy.getValidRange() != null) {
            forbidden(
                    at,
                    "exactly one policy can be specified, cannot specify \"validValues\" and \"validRange\" at "
                            + "the same time");
            return;
        }
        if (values.isEmpty() && policy.getValidRange() == null) {
            return;
        }
        String which = values.isEmpty() ? "validRange" : "validValues";
        if (policy.getDefault() == null) {
            required(at + ".default", "required when " + which + " is defined");
            return;
        }
        java.util.Optional<KubeQuantity> byDefault = quantity(policy.getDefault());
        if (capacity.isEmpty() || byDefault.isEmpty()) {
            return;
        }
        if (values.isEmpty()) {
            requestPolicyRange(byDefault.get(), capacity.get(), policy.getValidRange(), at + ".validRange");
        } else {
            requestPolicyValues(byDefault.get(), capacity.get(), values, at + ".validValues");
        }
    }

    /**
     * validateRequestPolicyValidValues: ascending, at most 10 options, none above the capacity, no duplicates (by
     * integer value, or by exact decimal with DRAFractionalCapacityRange), the default among them.
     */
    private void requestPolicyValues(KubeQuantity byDefault, KubeQuantity capacity, List<Quantity> raw, String at) {
        List<KubeQuantity> values = new ArrayList<>();
        for (Quantity q : raw) {
            java.util.Optional<KubeQuantity> k = quantity(q);
            if (k.isEmpty()) {
                return;
            }
            values.add(k.get());
        }
        for (int i = 0; i + 1 < values.size(); i++) {
            if (values.get(i).compareTo(values.get(i + 1)) > 0) {
                invalid(
                        at + "[" + (i + 1) + "]",
                        quote(values.get(i + 1).canonical()),
                        "values must be sorted in ascending order");
            }
        }
        boolean foundDefault = false;
        if (!tooMany(values, CAPACITY_REQUEST_POLICY_MAX_OPTIONS, at)) {
            boolean fractional = gates.isEnabled(DraFeature.DRAFractionalCapacityRange);
            for (int i = 0; i < values.size(); i++) {
                KubeQuantity v = values.get(i);
                if (v.compareTo(capacity) > 0) {
                    invalid(
                            at + "[" + i + "]",
                            quote(v.canonical()),
                            "option is larger than capacity value: " + capacity.canonical());
                }
                foundDefault |= v.compareTo(byDefault) == 0;
            }
            Set<String> keys = new HashSet<>();
            for (int i = 0; i < values.size(); i++) {
                // quantityKeyAsDec (inf.Dec's text, scale kept) or quantityKeyInt (Value(), rounded up).
                String key = fractional
                        ? values.get(i).value().toPlainString()
                        : Long.toString(values.get(i).valueCeil());
                if (!keys.add(key)) {
                    duplicate(at + "[" + i + "]", key);
                }
            }
        }
        if (!foundDefault) {
            invalid(at, quote(byDefault.canonical()), "default value is not valid according to the requestPolicy");
        }
    }

    /**
     * validateRequestPolicyRange: min required and within the capacity, the default within [min, max], max within
     * the capacity, and with a step: positive, min + step within the capacity, default and max a whole number of
     * steps from min (in integers, or in milli units where DRAFractionalCapacityRange is on and a value is
     * fractional), the values first checked to be representable there.
     */
    private void requestPolicyRange(
            KubeQuantity byDefault, KubeQuantity capacity, CapacityRequestPolicyRange range, String at) {
        if (range.getMin() == null) {
            required(at + ".min", "required when validRange is defined");
            return;
        }
        java.util.Optional<KubeQuantity> minQ = quantity(range.getMin());
        java.util.Optional<KubeQuantity> maxQ =
                range.getMax() == null ? java.util.Optional.empty() : quantity(range.getMax());
        java.util.Optional<KubeQuantity> stepQ =
                range.getStep() == null ? java.util.Optional.empty() : quantity(range.getStep());
        if (minQ.isEmpty()
                || (range.getMax() != null && maxQ.isEmpty())
                || (range.getStep() != null && stepQ.isEmpty())) {
            return;
        }
        KubeQuantity min = minQ.get();
        if (min.compareTo(capacity) > 0) {
            invalid(at + ".min", quote(min.canonical()), "min is larger than capacity value: " + capacity.canonical());
        }
        if (byDefault.compareTo(min) < 0) {
            invalid(at + ".default", quote(byDefault.canonical()), "default is less than min: " + min.canonical());
        }
        if (maxQ.isPresent()) {
            KubeQuantity max = maxQ.get();
            if (min.compareTo(max) > 0) {
                invalid(at + ".max", quote(min.canonical()), "min is larger than max: " + max.canonical());
            }
            if (max.compareTo(capacity) > 0) {
                invalid(
                        at + ".max",
                        quote(max.canonical()),
                        "max is larger than capacity value: " + capacity.canonical());
            }
            if (byDefault.compareTo(max) > 0) {
                invalid(at + ".default", quote(byDefault.canonical()), "default is more than max: " + max.canonical());
            }
        }
        // The bounds in the order upstream checks them; absent ones are skipped.
        List<Map.Entry<String, KubeQuantity>> bounds = new ArrayList<>();
        bounds.add(Map.entry("default", byDefault));
        bounds.add(Map.entry("min", min));
        maxQ.ifPresent(q -> bounds.add(Map.entry("max", q)));
        stepQ.ifPresent(q -> bounds.add(Map.entry("step", q)));
        boolean milli = gates.isEnabled(DraFeature.DRAFractionalCapacityRange)
                && bounds.stream().anyMatch(b -> fractional(b.getValue()));
        if (milli) {
            boolean unsafe = false;
            for (Map.Entry<String, KubeQuantity> b : bounds) {
                KubeQuantity q = b.getValue();
                if (KubeQuantity.ofMilli(q.milliValueCeil(), q.format()).compareTo(q) != 0) {
                    invalid(
                            at + "." + b.getKey(),
                            quote(q.canonical()),
                            "value cannot be represented as a milli value");
                    unsafe = true;
                }
            }
            if (unsafe) {
                return;
            }
        }
        if (stepQ.isEmpty()) {
            return;
        }
        KubeQuantity step = stepQ.get();
        if (step.signum() <= 0) {
            invalid(at + ".step", quote(step.canonical()), "must be greater than zero");
            return;
        }
        KubeQuantity added = min.add(step);
        if (added.compareTo(capacity) > 0) {
            invalid(
                    at + ".step",
                    quote(step.canonical()),
                    "one step " + added.canonical() + " is larger than capacity value: " + capacity.canonical());
        }
        boolean unsafe = false;
        if (!milli) {
            for (Map.Entry<String, KubeQuantity> b : bounds) {
                KubeQuantity q = b.getValue();
                if (q.signum() < 0) {
                    invalid(at + "." + b.getKey(), quote(q.canonical()), "must be greater than or equal to 0");
                    unsafe = true;
                } else if (q.value().compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                    invalid(at + "." + b.getKey(), quote(q.canonical()), "must not be larger than 9223372036854775807");
                    unsafe = true;
                }
            }
        }
        if (!unsafe) {
            stepMultiple(byDefault, min, step, milli, at + ".step");
            maxQ.ifPresent(max -> stepMultiple(max, min, step, milli, at + ".step"));
        }
    }

    /** validateRequestPolicyRangeStep: value - min is a whole number of steps. */
    private void stepMultiple(KubeQuantity value, KubeQuantity min, KubeQuantity step, boolean milli, String at) {
        long v = milli ? value.milliValueCeil() : value.valueCeil();
        long m = milli ? min.milliValueCeil() : min.valueCeil();
        long s = milli ? step.milliValueCeil() : step.valueCeil();
        if ((v - m) % s != 0) {
            invalid(
                    at,
                    quote(value.canonical()),
                    "value is not a multiple of a given step (" + step.canonical() + ") from (" + min.canonical()
                            + ")");
        }
    }

    /** isFractionalQuantity: a part below one. */
    private static boolean fractional(KubeQuantity q) {
        return q.value().stripTrailingZeros().scale() > 0;
    }

    /** A quantity above zero (or, with {@code zeroAllowed}, not below it), printed in canonical form as Go does. */
    private void positive(Quantity q, String field, String detail, boolean zeroAllowed) {
        KubeQuantity k;
        try {
            k = KubeQuantity.fromFabric8(q);
        } catch (IllegalArgumentException e) {
            return;
        }
        if (k.signum() < 0 || (!zeroAllowed && k.signum() == 0)) {
            invalid(field, quote(k.canonical()), detail);
        }
    }

    /**
     * A device's own node selection: exactly one of nodeName, nodeSelector and allNodes when the slice sets
     * perDeviceNodeSelection, none of them otherwise.
     */
    private void deviceNodeSelection(Device d, String at, Boolean perDeviceNodeSelection) {
        boolean perDevice = Boolean.TRUE.equals(perDeviceNodeSelection);
        if (!perDevice) {
            if (d.getNodeName() != null || d.getNodeSelector() != null || d.getAllNodes() != null) {
                invalid(
                        at,
                        "null",
                        "`nodeName`, `nodeSelector` and `allNodes` can only be set if "
                                + "`perDeviceNodeSelection` is set to true in the ResourceSlice spec");
            }
            return;
        }
        List<String> set = new ArrayList<>();
        if (d.getNodeName() != null) {
            if (!d.getNodeName().isEmpty()) {
                set.add("`nodeName`");
                dnsSubdomain(d.getNodeName(), at + ".nodeName");
            } else {
                invalid(at + ".nodeName", "\"\"", "must not be empty");
            }
        }
        if (d.getNodeSelector() != null) {
            set.add("`nodeSelector`");
            nodeSelector(d.getNodeSelector(), at + ".nodeSelector");
        }
        if (d.getAllNodes() != null) {
            if (d.getAllNodes()) {
                set.add("`allNodes`");
            } else {
                invalid(at + ".allNodes", "false", "must be either unset or set to true");
            }
        }
        String oneOf = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
                + "`perDeviceNodeSelection` is set to true in the ResourceSlice spec";
        if (set.isEmpty()) {
            required(at, oneOf);
        } else if (set.size() > 1) {
            invalid(at, quote("{" + String.join(", ", set) + "}"), oneOf);
        }
    }

    private static int size(List<?> list) {
        return list == null ? 0 : list.size();
    }

    /**
     * validateDeviceAttribute's value checks; a list written empty ({@code ints: []}, which the fabric8 model holds
     * as absent, so {@code raw} tells) is "must not be empty if specified" while DRAListTypeAttributes keeps lists.
     */
    private void attribute(DeviceAttribute a, String at, JsonNode raw) {
        if (a.getString() != null) {
            stringValue(a.getString(), at + ".string");
        }
        if (a.getVersion() != null) {
            versionValue(a.getVersion(), at + ".version");
        }
        if (gates.isEnabled(DraFeature.DRAListTypeAttributes)) {
            for (String list : List.of("bools", "ints", "strings", "versions")) {
                if (raw.path(list).isArray() && raw.path(list).isEmpty()) {
                    invalid(at + "." + list, "[]", "must not be empty if specified");
                }
            }
        }
        if (a.getStrings() != null) {
            for (int i = 0; i < a.getStrings().size(); i++) {
                stringValue(a.getStrings().get(i), at + ".strings[" + i + "]");
            }
        }
        if (a.getVersions() != null) {
            for (int i = 0; i < a.getVersions().size(); i++) {
                versionValue(a.getVersions().get(i), at + ".versions[" + i + "]");
            }
        }
    }

    /**
     * The declarative union of an attribute's value fields, in their declared order: exactly one is set. The fabric8
     * model holds an absent list as an empty one, so an explicitly empty list (which the API server rejects as "must
     * not be empty if specified") counts as absent here.
     */
    private void attributeUnion(DeviceAttribute a, String at) {
        List<String> set = new ArrayList<>();
        addIf(set, a.getInt() != null, "int");
        addIf(set, a.getBool() != null, "bool");
        addIf(set, a.getString() != null, "string");
        addIf(set, a.getVersion() != null, "version");
        addIf(set, size(a.getInts()) > 0, "ints");
        addIf(set, size(a.getBools()) > 0, "bools");
        addIf(set, size(a.getStrings()) > 0, "strings");
        addIf(set, size(a.getVersions()) > 0, "versions");
        String all = "`int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`";
        if (set.isEmpty()) {
            invalid(at, "\"\"", "must specify one of: " + all);
        } else if (set.size() > 1) {
            invalid(at, quote("{" + String.join(", ", set) + "}"), "must specify exactly one of: " + all);
        }
    }

    private void stringValue(String value, String field) {
        if (value != null
                && value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > ATTRIBUTE_VALUE_MAX_LENGTH) {
            tooLong(field, ATTRIBUTE_VALUE_MAX_LENGTH);
        }
    }

    private void versionValue(String value, String field) {
        String v = value == null ? "" : value;
        if (!SEMVER.matcher(v).matches()) {
            invalid(field, quote(v), "must be a string compatible with semver.org spec 2.0.0");
        }
        stringValue(v, field);
    }

    private static void addIf(List<String> set, boolean present, String name) {
        if (present) {
            set.add(name);
        }
    }
}
