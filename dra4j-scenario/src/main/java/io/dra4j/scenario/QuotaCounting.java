package io.dra4j.scenario;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;

import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * the count: quota counts requested devices, not what they consume. The extended-resource part of the evaluator
 * (claims the scheduler creates for pods' extended resources, charged against {@code requests.<resource>} minus what
 * the pod already charged) needs the pod and is left out.
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

    private QuotaCounting() {
    }

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
                    most.merge(devicesOf(s.getDeviceClassName()), devices(s.getAllocationMode(), s.getCount()),
                            Math::max);
                }
                most.forEach((k, v) -> usage.merge(k, v, QuotaCounting::saturatedAdd));
            } else if (r.getExactly() != null) {
                ExactDeviceRequest e = r.getExactly();
                usage.merge(devicesOf(e.getDeviceClassName()), devices(e.getAllocationMode(), e.getCount()),
                        QuotaCounting::saturatedAdd);
            }
        }
        return java.util.Collections.unmodifiableMap(usage);
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
        record Unsupported(String field, String message) implements KueueCount {
        }
    }

    /**
     * How Kueue counts one claim of this spec against {@code deviceClassMappings}, given as device class name to the
     * resource name it is mapped to.
     */
    public static KueueCount kueue(ResourceClaimSpec spec, Map<String, String> deviceClassMappings) {
        Objects.requireNonNull(deviceClassMappings, "deviceClassMappings");
        Map<String, Long> perClass = new TreeMap<>();
        List<DeviceRequest> requests = spec == null || spec.getDevices() == null ? List.of()
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
                return new KueueCount.Unsupported(at + ".exactly.allocationMode", "AllocationMode 'All' is not supported");
            }
            if (!mode.equals("ExactCount")) {
                return new KueueCount.Unsupported(at + ".exactly.allocationMode", "unsupported allocation mode: " + mode);
            }
            if (e.getDeviceClassName() == null || e.getDeviceClassName().isEmpty()) {
                continue;
            }
            perClass.merge(e.getDeviceClassName(), e.getCount() == null ? 1 : e.getCount(), QuotaCounting::saturatedAdd);
        }
        Map<String, Long> perResource = new TreeMap<>();
        for (Map.Entry<String, Long> c : perClass.entrySet()) {
            String resource = deviceClassMappings.get(c.getKey());
            if (resource == null) {
                return new KueueCount.Unsupported("devices",
                        "DeviceClass " + c.getKey() + " is not mapped in DRA configuration");
            }
            perResource.merge(resource, c.getValue(), QuotaCounting::saturatedAdd);
        }
        return new KueueCount.Counted(perResource);
    }

    /** {@code usage} times {@code n} (the pods that each create a claim from one template), saturating. */
    public static Map<String, Long> times(Map<String, Long> usage, long n) {
        Map<String, Long> out = new TreeMap<>();
        usage.forEach((k, v) -> out.put(k, n != 0 && Math.abs(v) > Long.MAX_VALUE / Math.abs(n) ? Long.MAX_VALUE : v * n));
        return java.util.Collections.unmodifiableMap(out);
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
