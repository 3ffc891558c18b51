package io.dra4j.sim;

import io.dra4j.scenario.QuotaCounting;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Devices in use in a cluster state: allocated devices per device class (the class of the request or subrequest
 * they were allocated for; admin-access allocations counted apart, they do not take the device), per node pool
 * (driver/pool, with the pool's device count), and per namespace what ResourceQuota charges for the claims
 * ({@link QuotaCounting#resourceQuota(ResourceClaim, QuotaCounting.ExtendedResourceClasses, Pod, java.util.Collection)}:
 * {@code count/resourceclaims.resource.k8s.io}, {@code <class>.deviceclass.resource.k8s.io/devices}, and the
 * classes' extended resource names less what the owning pod of an extended-resource claim already charges).
 */
public record DeviceUsage(
        Map<String, Long> perClass,
        Map<String, Long> adminAccessPerClass,
        Map<String, Pool> perPool,
        Map<String, Map<String, Long>> quotaPerNamespace) {
    /** A node pool: devices allocated (exclusively or shared) and devices it has. */
    public record Pool(long used, long devices) {}

    public DeviceUsage {
        perClass = sorted(perClass);
        adminAccessPerClass = sorted(adminAccessPerClass);
        perPool = sorted(perPool);
        Map<String, Map<String, Long>> quota = new TreeMap<>();
        quotaPerNamespace.forEach((ns, m) -> quota.put(ns, sorted(m)));
        quotaPerNamespace = java.util.Collections.unmodifiableMap(quota);
    }

    /** Immutable, in name order (so that JSON and text list them alike). */
    private static <V> Map<String, V> sorted(Map<String, V> m) {
        return java.util.Collections.unmodifiableMap(new TreeMap<>(m));
    }

    public static DeviceUsage of(ClusterSnapshot state) {
        Map<String, Long> perClass = new TreeMap<>();
        Map<String, Long> admin = new TreeMap<>();
        Map<String, long[]> pools = new TreeMap<>();
        for (ResourceSlice s : state.resourceSlices()) {
            long[] p = pools.computeIfAbsent(
                    s.getSpec().getDriver() + "/" + s.getSpec().getPool().getName(), k -> new long[2]);
            p[1] += s.getSpec().getDevices() == null
                    ? 0
                    : s.getSpec().getDevices().size();
        }
        Map<String, Map<String, Long>> quota = new TreeMap<>();
        QuotaCounting.ExtendedResourceClasses classes = QuotaCounting.ExtendedResourceClasses.of(state.deviceClasses());
        Map<String, Pod> pods = new java.util.HashMap<>();
        state.pods()
                .forEach(p -> pods.put(
                        p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p));
        Map<String, List<ResourceClaim>> claimsPerNamespace = new java.util.HashMap<>();
        state.resourceClaims()
                .forEach(c -> claimsPerNamespace
                        .computeIfAbsent(c.getMetadata().getNamespace(), k -> new java.util.ArrayList<>())
                        .add(c));
        for (ResourceClaim c : state.resourceClaims()) {
            String ns = c.getMetadata().getNamespace();
            QuotaCounting.resourceQuota(c, classes, owner(c, pods), claimsPerNamespace.get(ns))
                    .forEach((k, v) ->
                            quota.computeIfAbsent(ns, x -> new TreeMap<>()).merge(k, v, Long::sum));
            if (c.getStatus() == null
                    || c.getStatus().getAllocation() == null
                    || c.getStatus().getAllocation().getDevices() == null) {
                continue;
            }
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (DeviceRequestAllocationResult r :
                    list(c.getStatus().getAllocation().getDevices().getResults())) {
                String cls = classOf(c, r.getRequest());
                boolean isAdmin = Boolean.TRUE.equals(r.getAdminAccess());
                (isAdmin ? admin : perClass).merge(cls, 1L, Long::sum);
                String device = r.getDriver() + "/" + r.getPool() + "/" + r.getDevice();
                if (!isAdmin && seen.add(device)) {
                    pools.computeIfAbsent(r.getDriver() + "/" + r.getPool(), k -> new long[2])[0]++;
                }
            }
        }
        Map<String, Pool> perPool = new TreeMap<>();
        pools.forEach((k, v) -> perPool.put(k, new Pool(v[0], v[1])));
        return new DeviceUsage(perClass, admin, perPool, quota);
    }

    /** The pod the claim's controller reference names, if the state has it. */
    private static Pod owner(ResourceClaim c, Map<String, Pod> pods) {
        for (var r : list(c.getMetadata().getOwnerReferences())) {
            if (Boolean.TRUE.equals(r.getController()) && "Pod".equals(r.getKind())) {
                return pods.get(c.getMetadata().getNamespace() + "/" + r.getName());
            }
        }
        return null;
    }

    /** The class of a request ({@code gpu}) or subrequest ({@code gpu/h100}) of the claim. */
    static String classOf(ResourceClaim c, String request) {
        String main = request.contains("/") ? request.substring(0, request.indexOf('/')) : request;
        String sub = request.contains("/") ? request.substring(request.indexOf('/') + 1) : null;
        for (DeviceRequest r : list(c.getSpec().getDevices().getRequests())) {
            if (!r.getName().equals(main)) {
                continue;
            }
            if (sub == null && r.getExactly() != null) {
                return r.getExactly().getDeviceClassName();
            }
            for (DeviceSubRequest s : list(r.getFirstAvailable())) {
                if (s.getName().equals(sub)) {
                    return s.getDeviceClassName();
                }
            }
        }
        return "?";
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
