package io.dra4j.scenario;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a ResourceClaim charges against quota, the one definition the simulator's report and {@code dra4j lint} use.
 *
 * <p>{@link #resourceQuota} is kube-apiserver 1.37's ResourceQuota evaluator for resourceclaims
 * ({@code claimEvaluator.Usage} in k8s.io/kubernetes pkg/quota/v1/evaluator/core/resource_claims.go): one
 * {@code count/resourceclaims.resource.k8s.io} per claim, and per request
 * {@code <class>.deviceclass.resource.k8s.io/devices}: an exactly request its count (mode All: 32,
 * AllocationResultsMaxSize, the worst case); a firstAvailable request, per class, the largest of its subrequests'
 * counts; a request of an unknown mode charges 0. adminAccess, device counters and consumable capacity do not change
 * the count: quota counts requested devices, not what they consume.
 *
 * <p>With DRAExtendedResource (GA and locked on in 1.37) the evaluator also charges, for each
 * {@code <class>.deviceclass.resource.k8s.io/devices} of a claim, the same count to the class's implicit extended
 * resource {@code requests.deviceclass.resource.kubernetes.io/<class>} and, when the class names an
 * {@code extendedResourceName}, to {@code requests.<extendedResourceName>} ({@code addExtendedResourceQuota}): a
 * ResourceQuota on {@code requests.nvidia.com/gpu} limits DRA claims of the class serving {@code nvidia.com/gpu} as it
 * limited device-plugin pods. For the claim the scheduler creates for a pod's extended resources (annotation
 * {@code resource.kubernetes.io/extended-resource-claim: "true"}, controlled by the pod) the pod's own charge of each
 * of those names ({@link #podExtendedResources}) is subtracted, so that the devices are charged once:
 * {@link #resourceQuota(ResourceClaim, ExtendedResourceClasses, Pod, Collection)}. Which quota resource names the
 * claim evaluator matches at all is {@link #claimEvaluatorMatches}.
 *
 * <p>{@link #kueue} is how Kueue counts a claim template's devices for {@code deviceClassMappings}
 * (kubernetes-sigs/kueue pkg/dra {@code countDevicesPerClass}): only exactly requests of mode ExactCount, their counts
 * summed per class and charged to the class's mapped resource; firstAvailable, adminAccess, mode All and an unmapped
 * class make the workload inadmissible, with the field that does.
 */
public final class QuotaCounting {
    /** The object count resource ResourceQuota charges one of per claim. */
    public static final String CLAIM_OBJECT_COUNT = "count/resourceclaims.resource.k8s.io";
    /** The suffix of the per-class device resource ({@code corev1.ResourceClaimsPerClass}). */
    public static final String DEVICES_PER_CLASS_SUFFIX = ".deviceclass.resource.k8s.io/devices";
    /** AllocationResultsMaxSize: what an All request is charged. */
    public static final long ALL_DEVICES = 32;
    /** The prefix of quota resources on requests ({@code corev1.DefaultResourceRequestsPrefix}). */
    public static final String REQUESTS_PREFIX = "requests.";
    /** The prefix of a class's implicit extended resource ({@code resourceapi.ResourceDeviceClassPrefix}). */
    public static final String IMPLICIT_EXTENDED_RESOURCE_PREFIX = "deviceclass.resource.kubernetes.io/";
    /** The annotation the scheduler sets on the claim it creates for a pod's extended resources. */
    public static final String EXTENDED_RESOURCE_CLAIM_ANNOTATION = "resource.kubernetes.io/extended-resource-claim";

    private QuotaCounting() {}

    /** {@code <className>.deviceclass.resource.k8s.io/devices}. */
    public static String devicesOf(String className) {
        return className + DEVICES_PER_CLASS_SUFFIX;
    }

    /**
     * What ResourceQuota charges for one claim of this spec (as defaulted by the API server: a request without a mode
     * is ExactCount, without a count 1), as resource name to quantity, in name order.
     */
    public static Map<String, Long> resourceQuota(ResourceClaimSpec spec) {
        Map<String, Long> usage = new TreeMap<>();
        usage.put(CLAIM_OBJECT_COUNT, 1L);
        if (spec == null || spec.getDevices() == null) {
            return usage;
        }
        for (DeviceRequest r : list(spec.getDevices().getRequests())) {
            if (!list(r.getFirstAvailable()).isEmpty()) {
                // The worst case per class: the subrequest that would take the most devices of it.
                Map<String, Long> most = new TreeMap<>();
                for (DeviceSubRequest s : r.getFirstAvailable()) {
                    most.merge(
                            devicesOf(s.getDeviceClassName()), devices(s.getAllocationMode(), s.getCount()), Math::max);
                }
                most.forEach((k, v) -> usage.merge(k, v, QuotaCounting::saturatedAdd));
            } else if (r.getExactly() != null) {
                ExactDeviceRequest e = r.getExactly();
                usage.merge(
                        devicesOf(e.getDeviceClassName()),
                        devices(e.getAllocationMode(), e.getCount()),
                        QuotaCounting::saturatedAdd);
            }
        }
        return java.util.Collections.unmodifiableMap(usage);
    }

    /**
     * The DeviceClasses as the API server's extended resource cache knows them for quota: the classes by name and the
     * extendedResourceName of those that have one ({@code deviceclass/extendedresourcecache}).
     */
    public record ExtendedResourceClasses(Set<String> classes, Map<String, String> extendedResourceOfClass) {
        public ExtendedResourceClasses {
            classes = Set.copyOf(classes);
            extendedResourceOfClass = Map.copyOf(extendedResourceOfClass);
        }

        /** No DeviceClasses known: the extended-resource part charges only the classes' implicit names. */
        public static ExtendedResourceClasses none() {
            return new ExtendedResourceClasses(Set.of(), Map.of());
        }

        public static ExtendedResourceClasses of(Collection<DeviceClass> deviceClasses) {
            Set<String> names = new HashSet<>();
            Map<String, String> extended = new HashMap<>();
            for (DeviceClass c : deviceClasses) {
                String name = c.getMetadata() == null ? null : c.getMetadata().getName();
                if (name == null) {
                    continue;
                }
                names.add(name);
                String resource = c.getSpec() == null ? null : c.getSpec().getExtendedResourceName();
                if (resource != null && !resource.isEmpty()) {
                    extended.put(name, resource);
                }
            }
            return new ExtendedResourceClasses(names, extended);
        }
    }

    /**
     * What ResourceQuota charges for a claim with DRAExtendedResource on: {@link #resourceQuota(ResourceClaimSpec)}
     * plus the class's implicit extended resource and its extendedResourceName per device class charged, less what
     * {@code owner} already charges for the same names when the claim is the scheduler's extended-resource claim of
     * that pod ({@code getVerifiedPodUsage}: annotated, controlled by the pod of that UID, the one the pod's
     * {@code status.extendedResourceClaimStatus} names or, without one, the first such claim of the pod by creation
     * time and then name among {@code namespaceClaims}). {@code owner} may be null (the pod is not known: nothing is
     * subtracted).
     */
    public static Map<String, Long> resourceQuota(
            ResourceClaim claim,
            ExtendedResourceClasses classes,
            Pod owner,
            Collection<ResourceClaim> namespaceClaims) {
        Map<String, Long> podUsage =
                owner != null && verifiedOwner(claim, owner, namespaceClaims) ? podExtendedResources(owner) : Map.of();
        return resourceQuota(claim.getSpec(), classes, podUsage);
    }

    /**
     * {@link #resourceQuota(ResourceClaimSpec)} with the extended-resource part: per class charged, the same count
     * for {@code requests.deviceclass.resource.kubernetes.io/<class>} and {@code requests.<extendedResourceName>},
     * each less {@code podUsage}'s value for the name and charged only when what remains is positive.
     */
    public static Map<String, Long> resourceQuota(
            ResourceClaimSpec spec, ExtendedResourceClasses classes, Map<String, Long> podUsage) {
        Map<String, Long> usage = new TreeMap<>(resourceQuota(spec));
        // Upstream fills a map keyed by resource name: two classes of one claim naming the same extendedResourceName
        // overwrite each other in Go's random map order; dra4j keeps the larger, the worst case.
        Map<String, Long> extended = new TreeMap<>();
        for (Map.Entry<String, Long> e : usage.entrySet()) {
            if (!e.getKey().endsWith(DEVICES_PER_CLASS_SUFFIX)) {
                continue;
            }
            String cls = e.getKey().substring(0, e.getKey().length() - DEVICES_PER_CLASS_SUFFIX.length());
            if (cls.isEmpty()) {
                continue;
            }
            extended.merge(REQUESTS_PREFIX + IMPLICIT_EXTENDED_RESOURCE_PREFIX + cls, e.getValue(), Math::max);
            String resource = classes.extendedResourceOfClass().get(cls);
            if (resource != null) {
                extended.merge(REQUESTS_PREFIX + resource, e.getValue(), Math::max);
            }
        }
        extended.forEach((name, q) -> {
            long left = q - podUsage.getOrDefault(name, 0L);
            if (left > 0) {
                usage.put(name, left);
            }
        });
        return java.util.Collections.unmodifiableMap(usage);
    }

    private static boolean verifiedOwner(ResourceClaim claim, Pod pod, Collection<ResourceClaim> namespaceClaims) {
        if (!extendedResourceClaimOf(claim, pod)) {
            return false;
        }
        var status = pod.getStatus() == null ? null : pod.getStatus().getExtendedResourceClaimStatus();
        if (status != null) {
            return Objects.equals(
                    status.getResourceClaimName(), claim.getMetadata().getName());
        }
        Instant created = created(claim);
        for (ResourceClaim other : namespaceClaims) {
            if (other == claim || !extendedResourceClaimOf(other, pod)) {
                continue;
            }
            int c = created(other).compareTo(created);
            if (c < 0
                    || c == 0
                            && other.getMetadata()
                                            .getName()
                                            .compareTo(claim.getMetadata().getName())
                                    < 0) {
                return false;
            }
        }
        return true;
    }

    /** Annotated as an extended-resource claim and controlled by this pod (v1 Pod, same name and UID). */
    private static boolean extendedResourceClaimOf(ResourceClaim claim, Pod pod) {
        var meta = claim.getMetadata();
        if (meta == null
                || meta.getAnnotations() == null
                || !"true".equals(meta.getAnnotations().get(EXTENDED_RESOURCE_CLAIM_ANNOTATION))
                || !Objects.equals(meta.getNamespace(), pod.getMetadata().getNamespace())) {
            return false;
        }
        for (OwnerReference r : list(meta.getOwnerReferences())) {
            if (Boolean.TRUE.equals(r.getController())) {
                return r.getKind().equals("Pod")
                        && r.getApiVersion().equals("v1")
                        && r.getName().equals(pod.getMetadata().getName())
                        && Objects.equals(r.getUid(), pod.getMetadata().getUid());
            }
        }
        return false;
    }

    private static Instant created(ResourceClaim c) {
        String t = c.getMetadata().getCreationTimestamp();
        return t == null || t.isEmpty() ? Instant.EPOCH : Instant.parse(t);
    }

    /**
     * What the pod evaluator charges for a pod's extended resources ({@code podComputeUsageHelper}):
     * {@code requests.<name>} for every name of the pod's effective requests that is an extended resource or a
     * class's implicit extended resource ({@code schedutil.IsDRAExtendedResourceName}), the effective requests as
     * {@code resourcehelper.PodRequests} adds them up (containers and sidecars summed, each init container with the
     * sidecars started before it, the larger of the two, plus the overhead; a request left out defaults to its limit).
     * Nothing for a pod in phase Succeeded or Failed, which quota no longer charges; a terminating pod past its grace
     * period is charged as any other (the evaluator compares with its clock; a snapshot has none).
     */
    public static Map<String, Long> podExtendedResources(Pod pod) {
        Map<String, Long> out = new TreeMap<>();
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (pod.getSpec() == null || "Succeeded".equals(phase) || "Failed".equals(phase)) {
            return out;
        }
        Map<String, Long> reqs = new TreeMap<>();
        for (Container c : list(pod.getSpec().getContainers())) {
            extendedRequests(c).forEach((k, v) -> reqs.merge(k, v, QuotaCounting::saturatedAdd));
        }
        Map<String, Long> sidecars = new TreeMap<>();
        Map<String, Long> init = new TreeMap<>();
        for (Container c : list(pod.getSpec().getInitContainers())) {
            Map<String, Long> r = extendedRequests(c);
            if ("Always".equals(c.getRestartPolicy())) {
                r.forEach((k, v) -> reqs.merge(k, v, QuotaCounting::saturatedAdd));
                r.forEach((k, v) -> sidecars.merge(k, v, QuotaCounting::saturatedAdd));
                sidecars.forEach((k, v) -> init.merge(k, v, Math::max));
            } else {
                Map<String, Long> with = new TreeMap<>(sidecars);
                r.forEach((k, v) -> with.merge(k, v, QuotaCounting::saturatedAdd));
                with.forEach((k, v) -> init.merge(k, v, Math::max));
            }
        }
        init.forEach((k, v) -> reqs.merge(k, v, Math::max));
        if (pod.getSpec().getOverhead() != null) {
            pod.getSpec().getOverhead().forEach((k, v) -> {
                if (isDraExtendedResourceName(k)) {
                    reqs.merge(k, amount(v), QuotaCounting::saturatedAdd);
                }
            });
        }
        reqs.forEach((k, v) -> out.put(REQUESTS_PREFIX + k, v));
        return java.util.Collections.unmodifiableMap(out);
    }

    private static Map<String, Long> extendedRequests(Container c) {
        Map<String, Long> out = new TreeMap<>();
        if (c.getResources() == null) {
            return out;
        }
        Map<String, Quantity> limits = c.getResources().getLimits() == null
                ? Map.of()
                : c.getResources().getLimits();
        Map<String, Quantity> requests = new HashMap<>(limits);
        if (c.getResources().getRequests() != null) {
            requests.putAll(c.getResources().getRequests());
        }
        requests.forEach((k, v) -> {
            if (isDraExtendedResourceName(k)) {
                out.put(k, amount(v));
            }
        });
        return out;
    }

    /** Extended resources are whole numbers (the API server rejects others); a fraction is rounded up as Value() does. */
    private static long amount(Quantity q) {
        return q.getNumericalAmount()
                .setScale(0, java.math.RoundingMode.CEILING)
                .longValueExact();
    }

    /**
     * An extended resource name ({@code v1helper.IsExtendedResourceName}: a domain-prefixed name outside
     * {@code kubernetes.io/}, not starting with {@code requests.}) or a class's implicit one.
     */
    public static boolean isDraExtendedResourceName(String name) {
        return name.startsWith(IMPLICIT_EXTENDED_RESOURCE_PREFIX)
                || !isNative(name) && !name.startsWith(REQUESTS_PREFIX);
    }

    private static boolean isNative(String name) {
        return !name.contains("/") || name.contains("kubernetes.io/");
    }

    /**
     * Whether the ResourceQuota resource name is one the resourceclaims evaluator tracks ({@code MatchingResources}):
     * {@code count/resourceclaims.resource.k8s.io}, any {@code <class>.deviceclass.resource.k8s.io/devices}, and
     * with DRAExtendedResource a class's implicit {@code requests.deviceclass.resource.kubernetes.io/<class>} of a class
     * that exists, or {@code requests.<name>} of an extended resource some class names as its extendedResourceName.
     */
    public static boolean claimEvaluatorMatches(String quotaResource, ExtendedResourceClasses classes) {
        if (quotaResource.equals(CLAIM_OBJECT_COUNT) || quotaResource.endsWith(DEVICES_PER_CLASS_SUFFIX)) {
            return true;
        }
        if (!quotaResource.startsWith(REQUESTS_PREFIX)) {
            return false;
        }
        String resource = quotaResource.substring(REQUESTS_PREFIX.length());
        if (resource.startsWith(IMPLICIT_EXTENDED_RESOURCE_PREFIX)) {
            return classes.classes().contains(resource.substring(IMPLICIT_EXTENDED_RESOURCE_PREFIX.length()));
        }
        return !isNative(resource) && classes.extendedResourceOfClass().containsValue(resource);
    }

    /** The devices a request of this mode and count may get; defaults as the API server applies them. */
    private static long devices(String mode, Long count) {
        if (mode == null || mode.equals("ExactCount")) {
            return count == null ? 1 : count;
        }
        return mode.equals("All") ? ALL_DEVICES : 0;
    }

    /** resource.Quantity does not wrap; neither does this. */
    private static long saturatedAdd(long a, long b) {
        long s = a + b;
        return ((a ^ s) & (b ^ s)) < 0 ? Long.MAX_VALUE : s;
    }

    /** Kueue's count of a claim spec: devices per mapped resource, or the field Kueue refuses. */
    public sealed interface KueueCount {
        /** Devices per resource named in deviceClassMappings, in name order. */
        record Counted(Map<String, Long> perResource) implements KueueCount {
            public Counted {
                perResource = java.util.Collections.unmodifiableMap(new TreeMap<>(perResource));
            }
        }

        /** Kueue does not admit the workload: the field (relative to the claim spec) and why. */
        record Unsupported(String field, String message) implements KueueCount {}
    }

    /**
     * How Kueue counts one claim of this spec against {@code deviceClassMappings}, given as device class name to the
     * resource name it is mapped to.
     */
    public static KueueCount kueue(ResourceClaimSpec spec, Map<String, String> deviceClassMappings) {
        Objects.requireNonNull(deviceClassMappings, "deviceClassMappings");
        Map<String, Long> perClass = new TreeMap<>();
        List<DeviceRequest> requests = spec == null || spec.getDevices() == null
                ? List.of()
                : list(spec.getDevices().getRequests());
        for (int i = 0; i < requests.size(); i++) {
            DeviceRequest r = requests.get(i);
            String at = "devices.requests[" + i + "]";
            // An empty list is no list: the API server does not store one.
            if (!list(r.getFirstAvailable()).isEmpty()) {
                return new KueueCount.Unsupported(at, "FirstAvailable device selection is not supported");
            }
            ExactDeviceRequest e = r.getExactly();
            if (e == null) {
                return new KueueCount.Unsupported(at, "Exactly must be set if FirstAvailable is nil");
            }
            if (Boolean.TRUE.equals(e.getAdminAccess())) {
                return new KueueCount.Unsupported(at + ".exactly.adminAccess", "AdminAccess is not supported");
            }
            String mode = e.getAllocationMode() == null ? "ExactCount" : e.getAllocationMode();
            if (mode.equals("All")) {
                return new KueueCount.Unsupported(
                        at + ".exactly.allocationMode", "AllocationMode 'All' is not supported");
            }
            if (!mode.equals("ExactCount")) {
                return new KueueCount.Unsupported(
                        at + ".exactly.allocationMode", "unsupported allocation mode: " + mode);
            }
            if (e.getDeviceClassName() == null || e.getDeviceClassName().isEmpty()) {
                continue;
            }
            perClass.merge(
                    e.getDeviceClassName(), e.getCount() == null ? 1 : e.getCount(), QuotaCounting::saturatedAdd);
        }
        Map<String, Long> perResource = new TreeMap<>();
        for (Map.Entry<String, Long> c : perClass.entrySet()) {
            String resource = deviceClassMappings.get(c.getKey());
            if (resource == null) {
                return new KueueCount.Unsupported(
                        "devices", "DeviceClass " + c.getKey() + " is not mapped in DRA configuration");
            }
            perResource.merge(resource, c.getValue(), QuotaCounting::saturatedAdd);
        }
        return new KueueCount.Counted(perResource);
    }

    /** {@code usage} times {@code n} (the pods that each create a claim from one template), saturating. */
    public static Map<String, Long> times(Map<String, Long> usage, long n) {
        Map<String, Long> out = new TreeMap<>();
        usage.forEach((k, v) ->
                out.put(k, n != 0 && Math.abs(v) > Long.MAX_VALUE / Math.abs(n) ? Long.MAX_VALUE : v * n));
        return java.util.Collections.unmodifiableMap(out);
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
