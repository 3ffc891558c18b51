package io.dra4j.sim;

import io.dra4j.scenario.QuotaCounting;
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
 * ({@link QuotaCounting#resourceQuota}: {@code count/resourceclaims.resource.k8s.io} and
 * {@code <class>.deviceclass.resource.k8s.io/devices}).
 */
public record DeviceUsage(Map<String, Long> perClass, Map<String, Long> adminAccessPerClass,
                          Map<String, Pool> perPool, Map<String, Map<String, Long>> quotaPerNamespace) {
    /** A node pool: devices allocated (exclusively or shared) and devices it has. */
    public record Pool(long used, long devices) {
    }

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
            long[] p = pools.computeIfAbsent(s.getSpec().getDriver() + "/" + s.getSpec().getPool().getName(),
                    k -> new long[2]);
            p[1] += s.getSpec().getDevices() == null ? 0 : s.getSpec().getDevices().size();
        }
        Map<String, Map<String, Long>> quota = new TreeMap<>();
        for (ResourceClaim c : state.resourceClaims()) {
            quota(c, quota.computeIfAbsent(c.getMetadata().getNamespace(), k -> new TreeMap<>()));
            if (c.getStatus() == null || c.getStatus().getAllocation() == null
                    || c.getStatus().getAllocation().getDevices() == null) {
                continue;
            }
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (DeviceRequestAllocationResult r : list(c.getStatus().getAllocation().getDevices().getResults())) {
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

    private static void quota(ResourceClaim c, Map<String, Long> out) {
        QuotaCounting.resourceQuota(c.getSpec()).forEach((k, v) -> out.merge(k, v, Long::sum));
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
