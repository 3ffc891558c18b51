package io.dra4j.sim.internal;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * When the device taint eviction controller (pkg/controller/devicetainteviction, 1.37) deletes a pod: the earliest
 * eviction time over the allocated claims reserved for it, a claim's time being, over its allocated devices and
 * their NoExecute taints (from the device in its ResourceSlice and from every NoExecute DeviceTaintRule whose
 * selector matches driver, pool and device), the taint's timeAdded plus the smallest tolerationSeconds of the
 * allocation's tolerations with effect NoExecute that tolerate it; a taint such a toleration tolerates without
 * tolerationSeconds is ignored. A taint without timeAdded counts as added at the start of the simulated clock.
 */
final class DeviceTaintEviction {
    static final String NO_EXECUTE = "NoExecute";

    /** When the pod is deleted, and which taint decided it (for the report). */
    record Eviction(Instant when, String taint) {}

    /** Devices by {@code driver/pool/device}, from the slice of the pool's newest generation. */
    private final Map<String, Device> devices = new HashMap<>();

    private final Map<String, Long> generations = new HashMap<>();
    private final List<DeviceTaintRule> rules = new ArrayList<>();
    private final Instant start;

    DeviceTaintEviction(List<ResourceSlice> slices, List<DeviceTaintRule> taintRules, Instant start) {
        this.start = start;
        for (ResourceSlice s : slices) {
            if (s.getSpec() == null || s.getSpec().getPool() == null) {
                continue;
            }
            String pool = s.getSpec().getDriver() + "/" + s.getSpec().getPool().getName();
            long generation = s.getSpec().getPool().getGeneration() == null
                    ? 0
                    : s.getSpec().getPool().getGeneration();
            Long have = generations.get(pool);
            if (have != null && have > generation) {
                continue;
            }
            if (have != null && have < generation) {
                devices.keySet().removeIf(k -> k.startsWith(pool + "/"));
            }
            generations.put(pool, generation);
            for (Device d : Selectors.list(s.getSpec().getDevices())) {
                devices.put(pool + "/" + d.getName(), d);
            }
        }
        for (DeviceTaintRule r : taintRules) {
            if (r.getSpec() != null
                    && r.getSpec().getTaint() != null
                    && NO_EXECUTE.equals(r.getSpec().getTaint().getEffect())) {
                rules.add(r);
            }
        }
    }

    /** The latest timeAdded of any taint, for the simulated clock's start. */
    static Instant latestTimeAdded(List<ResourceSlice> slices, List<DeviceTaintRule> rules) {
        Instant latest = Instant.EPOCH;
        List<DeviceTaint> taints = new ArrayList<>();
        for (ResourceSlice s : slices) {
            for (Device d : s.getSpec() == null
                    ? List.<Device>of()
                    : Selectors.list(s.getSpec().getDevices())) {
                taints.addAll(Selectors.list(d.getTaints()));
            }
        }
        for (DeviceTaintRule r : rules) {
            if (r.getSpec() != null && r.getSpec().getTaint() != null) {
                taints.add(r.getSpec().getTaint());
            }
        }
        for (DeviceTaint t : taints) {
            Instant at = parse(t.getTimeAdded());
            if (at != null && at.isAfter(latest)) {
                latest = at;
            }
        }
        return latest;
    }

    /** podEvictionTime: null when no claim in use by the bound pod has an untolerated NoExecute taint. */
    Eviction podEviction(Pod pod, Cluster cluster) {
        if (pod.getSpec().getNodeName() == null || pod.getSpec().getNodeName().isEmpty()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (PodResourceClaim pc : Selectors.list(pod.getSpec().getResourceClaims())) {
            String name = DynamicResources.claimName(pod, pc);
            if (name != null) {
                names.add(name);
            }
        }
        if (pod.getStatus() != null && pod.getStatus().getExtendedResourceClaimStatus() != null) {
            names.add(pod.getStatus().getExtendedResourceClaimStatus().getResourceClaimName());
        }
        Eviction earliest = null;
        for (String name : names) {
            ResourceClaim c = cluster.claim(pod.getMetadata().getNamespace(), name);
            if (c == null || c.getStatus() == null || c.getStatus().getAllocation() == null || !reservedFor(c, pod)) {
                continue;
            }
            Eviction e = claimEviction(c);
            if (e != null && (earliest == null || e.when.isBefore(earliest.when))) {
                earliest = e;
            }
        }
        return earliest;
    }

    private static boolean reservedFor(ResourceClaim c, Pod pod) {
        for (ResourceClaimConsumerReference r : Selectors.list(c.getStatus().getReservedFor())) {
            if ("pods".equals(r.getResource()) && pod.getMetadata().getUid().equals(r.getUid())) {
                return true;
            }
        }
        return false;
    }

    /** claimEvictionTime. */
    private Eviction claimEviction(ResourceClaim claim) {
        Eviction earliest = null;
        var results = claim.getStatus().getAllocation().getDevices() == null
                ? null
                : claim.getStatus().getAllocation().getDevices().getResults();
        for (DeviceRequestAllocationResult r : Selectors.list(results)) {
            String id = r.getDriver() + "/" + r.getPool() + "/" + r.getDevice();
            for (DeviceTaint taint : evictingTaints(r, devices.get(id))) {
                Instant when = timeAdded(taint);
                long seconds = Long.MAX_VALUE;
                boolean tolerated = false;
                boolean forever = false;
                for (DeviceToleration t : Selectors.list(r.getTolerations())) {
                    if (NO_EXECUTE.equals(t.getEffect()) && tolerates(t, taint)) {
                        if (t.getTolerationSeconds() == null) {
                            forever = true;
                            break;
                        }
                        seconds = Math.min(seconds, Math.max(t.getTolerationSeconds(), 0));
                        tolerated = true;
                    }
                }
                if (forever) {
                    continue;
                }
                if (tolerated) {
                    when = when.plusSeconds(seconds);
                }
                if (earliest == null || when.isBefore(earliest.when)) {
                    earliest = new Eviction(when, describe(taint) + " on device " + id);
                }
            }
        }
        return earliest;
    }

    /** allEvictingDeviceTaints: the device's own NoExecute taints, then the matching rules'. */
    private List<DeviceTaint> evictingTaints(DeviceRequestAllocationResult r, Device device) {
        List<DeviceTaint> out = new ArrayList<>();
        if (device != null) {
            for (DeviceTaint t : Selectors.list(device.getTaints())) {
                if (NO_EXECUTE.equals(t.getEffect())) {
                    out.add(t);
                }
            }
        }
        for (DeviceTaintRule rule : rules) {
            DeviceTaintSelector s = rule.getSpec().getDeviceSelector();
            if (s == null
                    || s.getDriver() != null && !s.getDriver().equals(r.getDriver())
                    || s.getPool() != null && !s.getPool().equals(r.getPool())
                    || s.getDevice() != null && !s.getDevice().equals(r.getDevice())) {
                continue;
            }
            out.add(rule.getSpec().getTaint());
        }
        return out;
    }

    /** resourceclaim.ToleratesTaint. */
    static boolean tolerates(DeviceToleration t, DeviceTaint taint) {
        if (t.getEffect() != null && !t.getEffect().isEmpty() && !t.getEffect().equals(taint.getEffect())) {
            return false;
        }
        if (t.getKey() != null && !t.getKey().isEmpty() && !t.getKey().equals(taint.getKey())) {
            return false;
        }
        String op = t.getOperator() == null ? "" : t.getOperator();
        return switch (op) {
            case "", "Equal" -> java.util.Objects.equals(emptyIfNull(t.getValue()), emptyIfNull(taint.getValue()));
            case "Exists" -> true;
            default -> false;
        };
    }

    private static String emptyIfNull(String s) {
        return s == null ? "" : s;
    }

    private Instant timeAdded(DeviceTaint t) {
        Instant at = parse(t.getTimeAdded());
        return at == null ? start : at;
    }

    private static String describe(DeviceTaint t) {
        return t.getKey() + (t.getValue() == null || t.getValue().isEmpty() ? "" : "=" + t.getValue()) + ":"
                + t.getEffect();
    }

    private static Instant parse(String time) {
        if (time == null || time.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(time);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
